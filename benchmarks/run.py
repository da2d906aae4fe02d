"""Core benchmarks of safereq: cold checks, re-checks after an edit and peak memory, against the issue's targets.

    /work/main/.venv/bin/python benchmarks/run.py [--runs 3] [--edits 60] [--profile] [--json FILE]

Generates (benchmarks/core/generate.py) a 200-document workspace of 20,000 requirements and a single
2,000-requirement document in a temporary folder, then measures:

- baseline: read every file and run one regex over it (the floor any checker is compared with);
- cold check through the real CLI (process start to exit, median of ``--runs``; bytecode cached as in an
  installed package, nothing else), with the child's peak RSS:
  as a user runs it (per-document checks shared out to one process per core, see checks/engine/parallel.py) and
  with ``--jobs 1``;
- in-process cold check: load, parse and check a fresh workspace in an interpreter that has safereq imported;
- re-check after a one-line edit (``Workspace.update`` + ``Checker.check`` on the same objects, median of
  ``--edits``), once for an edit within a line and once for an edit that inserts a line (shifting all below),
  in the single document and in one document of the large workspace;
- with ``--profile``, where the time of a cold check and of an edit goes (cProfile, top functions).

Every figure is given as wall time and CPU time (user + system of the measured process and the workers it
waited for). Apart from the CLI's workers the code is single-threaded, so on an idle machine the two agree;
on a shared machine the wall time includes waiting for a core and the CPU time is the better estimate of the
idle figure. The cold-check target is judged on wall time, since that is what a user waits and what the
workers shorten: run it on an idle machine. The load average is recorded.
Prints a table and writes the figures as JSON (default benchmarks/results/core.json). Timing asserts do not
belong in tests; this is where speed is watched.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "core"))

import generate  # noqa: E402  (benchmarks/core/generate.py)

TARGET_COLD_S = 2.0  # 20,000-requirement workspace, cold, through the CLI
TARGET_EDIT_MS = 10.0  # one-line edit in a 2,000-requirement document
BASELINE_RE = re.compile(r"^#{1,6}[ \t]+([A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)*)[ \t]*:", re.MULTILINE)


@dataclass
class Sample:
    wall: float
    cpu: float


def medians(samples: list[Sample]) -> dict[str, float]:
    return {"wall_s": statistics.median(s.wall for s in samples), "cpu_s": statistics.median(s.cpu for s in samples),
            "runs": len(samples)}


def timed(fn: Callable[[], object]) -> tuple[Sample, object]:
    gc.collect()
    w0, c0 = time.perf_counter(), time.process_time()
    result = fn()
    return Sample(time.perf_counter() - w0, time.process_time() - c0), result


def safereq_command() -> list[str]:
    """The installed console script next to this interpreter (the real CLI), else ``python -m safereq``."""
    script = Path(sys.executable).parent / "safereq"
    return [str(script)] if script.exists() else [sys.executable, "-m", "safereq"]


CHILD_ENV = dict(os.environ)


def use_bytecode_cache(folder: Path) -> None:
    """Let the measured CLI processes keep compiled bytecode in ``folder``, as an installed package does.

    Some environments set PYTHONDONTWRITEBYTECODE; a child would then compile every module from source on
    every start (about 0.1 s for ``safereq check``), which no installed copy does. The first (warm-up) run
    fills the cache; the source tree is not written to.
    """
    CHILD_ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(folder)


def run_child(argv: list[str], cwd: Path) -> tuple[Sample, int, int]:
    """(times, exit status, peak RSS in KiB) of one child process, measured with wait4."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=CHILD_ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    sample = Sample(time.perf_counter() - start, usage.ru_utime + usage.ru_stime)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return sample, proc.returncode, usage.ru_maxrss


def baseline(root: Path) -> int:
    """Read every Markdown file and run one regex; the number of item headings found."""
    found = 0
    for path in sorted(root.rglob("*.md")):
        found += len(BASELINE_RE.findall(path.read_text(encoding="utf-8")))
    return found


PHASES: dict[str, list[float]] = {"load": [], "parse": [], "check": []}  # CPU seconds of each cold run


def cold_in_process(root: Path):
    """Load, parse and check everything under ``root`` from scratch: (workspace, checker, findings).

    The garbage collector is paused as ``safereq check`` pauses it (see cli/check.py), so the figure is the
    CLI's work without process start-up and imports; the CPU time of each phase is kept in PHASES.
    """
    from safereq.checks.engine import Checker
    from safereq.workspace import Workspace
    from safereq.workspace.loader import load

    gc.disable()
    try:
        c0 = time.process_time()
        loaded = load([root], cwd=root)
        c1 = time.process_time()
        ws = Workspace()
        for source in loaded.sources:
            ws.update(source.path, source.text)
        c2 = time.process_time()
        checker = Checker()
        findings = checker.check(ws)
        c3 = time.process_time()
    finally:
        gc.enable()
    for phase, seconds in zip(PHASES, (c1 - c0, c2 - c1, c3 - c2)):
        PHASES[phase].append(seconds)
    return ws, checker, findings


def _statement_line(lines: list[str], fraction: float) -> int:
    """The index of a requirement statement line about ``fraction`` of the way into the document."""
    k = int(len(lines) * fraction)
    while not (lines[k].startswith("The ") and lines[k - 1] == ""):
        k += 1
    return k


def edit_timings(ws, checker, path: str, edits: int, *, insert: bool) -> list[Sample]:
    """Times of ``update`` + ``check`` after each of ``edits`` edits of one statement line.

    An in-line edit alternates the line between two wordings, so each step is a real change. An inserting
    edit adds a line after the statement (every later line moves down) and is timed; the removal that
    restores the document is not.
    """
    original = ws.documents[path].text
    lines = original.split("\n")
    k = _statement_line(lines, 0.5)
    variant = list(lines)
    if insert:
        variant.insert(k + 1, "Note: the reaction time includes the bus latency.")
    else:
        variant[k] = variant[k].replace(" shall ", " shall reliably ", 1)
    texts = ["\n".join(variant), original]
    samples: list[Sample] = []
    gc.collect()
    for step in range(edits * (2 if insert else 1)):
        text = texts[step % 2]
        w0, c0 = time.perf_counter(), time.process_time()
        ws.update(path, text)
        checker.check(ws)
        if not insert or step % 2 == 0:
            samples.append(Sample(time.perf_counter() - w0, time.process_time() - c0))
    ws.update(path, original)
    checker.check(ws)
    return samples


def profile(label: str, fn: Callable[[], object], top: int = 20) -> str:
    import cProfile
    import io
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return f"--- profile: {label} (sorted by own time) ---\n" + "\n".join(out.getvalue().splitlines()[4:])


class Report:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def add(self, name: str, wall: str, cpu: str = "", verdict: str = "") -> None:
        self.rows.append((name, wall, cpu, verdict))

    def print(self) -> None:
        width = max(len(r[0]) for r in self.rows)
        print(f"{'measurement':<{width}}  {'wall':>9}  {'cpu':>9}  target")
        for name, wall, cpu, verdict in self.rows:
            print(f"{name:<{width}}  {wall:>9}  {cpu:>9}  {verdict}")


def _verdict(value: float, target: float, unit: str) -> str:
    return ("PASS" if value < target else "MISS") + f" (< {target:g} {unit})"


def measure_edits(label: str, folder: Path, args: argparse.Namespace, results: dict, report: Report) -> None:
    """Re-check times after in-line and line-inserting edits of the largest document under ``folder``."""
    ws, checker, _ = cold_in_process(folder)
    path = max(ws.documents, key=lambda d: len(ws.documents[d].items))
    count = args.edits if label == "single" else args.workspace_edits
    for insert in (False, True):
        samples = edit_timings(ws, checker, path, count, insert=insert)
        walls = [s.wall * 1000 for s in samples]
        cpu_ms = statistics.median(s.cpu for s in samples) * 1000
        wall_ms = statistics.median(walls)
        results[f"edit_{label}_{'insert_line' if insert else 'in_line'}"] = {
            "wall_ms": wall_ms, "cpu_ms": cpu_ms, "p90_wall_ms": statistics.quantiles(walls, n=10)[-1],
            "max_wall_ms": max(walls), "edits": len(samples), "document": path,
            "items_in_document": len(ws.documents[path].items),
        }
        kind = "inserting a line" if insert else "within a line"
        if label == "single":
            name = f"re-check after an edit {kind}, {args.single:,}-req doc"
            verdict = _verdict(cpu_ms, TARGET_EDIT_MS, "ms, cpu")
        else:
            name = f"re-check after an edit {kind}, 1 doc of {args.docs * args.per_doc:,}"
            verdict = "(whole-workspace check)"
        report.add(name, f"{wall_ms:.1f} ms", f"{cpu_ms:.1f} ms", verdict)
    if args.profile and label == "single":
        results["profile_edit"] = profile(f"50 in-line edits, {args.single:,}-req doc",
                                          lambda: edit_timings(ws, checker, path, 50, insert=False))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3, help="cold runs per measurement (median; default 3)")
    p.add_argument("--edits", type=int, default=60, help="edits per re-check of the single document (default 60)")
    p.add_argument("--workspace-edits", type=int, default=10,
                   help="edits per re-check of a document in the large workspace (default 10)")
    p.add_argument("--docs", type=int, default=200)
    p.add_argument("--per-doc", type=int, default=100)
    p.add_argument("--single", type=int, default=2000, help="items in the single large document")
    p.add_argument("--profile", action="store_true", help="also print where the time goes (cProfile)")
    p.add_argument("--json", type=Path, default=HERE / "results" / "core.json", help="where to write the figures")
    args = p.parse_args()

    n_reqs = args.docs * args.per_doc
    results: dict[str, object] = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform(),
                    "loadavg_start": os.getloadavg()},
        "command": " ".join([sys.executable, *sys.argv]),
        "targets": {"cold_workspace_s": TARGET_COLD_S, "edit_single_ms": TARGET_EDIT_MS},
    }
    report = Report()
    with tempfile.TemporaryDirectory(prefix="safereq-bench-") as tmp:
        root = Path(tmp)
        ws_dir, one_dir = root / "workspace", root / "single"
        ws_bytes = generate.write(generate.workspace(args.docs, args.per_doc), ws_dir)
        one_bytes = generate.write({"requirements.md": generate.single_document(args.single)}, one_dir)
        results["data"] = {"workspace": {"documents": args.docs, "requirements": n_reqs, "bytes": ws_bytes},
                           "single": {"requirements": args.single, "bytes": one_bytes}}

        base = medians([timed(lambda: baseline(ws_dir))[0] for _ in range(args.runs)])
        results["baseline_read_regex"] = base
        report.add(f"baseline: read {args.docs} files + 1 regex", f"{base['wall_s'] * 1000:.0f} ms",
                   f"{base['cpu_s'] * 1000:.0f} ms", "(floor)")

        cmd = safereq_command()
        use_bytecode_cache(root / "pycache")
        run_child([*cmd, "check", ".", "--quiet", "--output", os.devnull], one_dir)  # warm-up: fills the cache
        runs_of = (("workspace", ws_dir, []), ("workspace_one_process", ws_dir, ["--jobs", "1"]), ("single", one_dir, []))
        for label, folder, extra in runs_of:
            runs = [run_child([*cmd, "check", ".", "--quiet", "--output", os.devnull, *extra], folder)
                    for _ in range(args.runs)]
            m = medians([r[0] for r in runs])
            rss = max(r[2] for r in runs) / 1024
            results[f"cli_cold_{label}"] = {**m, "walls_s": [r[0].wall for r in runs], "exit": runs[0][1],
                                            "peak_rss_mib": rss}
            if label == "workspace":
                # The target is the time a user waits: wall time, with the default (one process per core).
                name = f"CLI cold check, {n_reqs:,} reqs / {args.docs} docs, {os.cpu_count()} CPUs"
                verdict = _verdict(m["wall_s"], TARGET_COLD_S, "s, wall")
            elif label == "workspace_one_process":
                name, verdict = "  the same with --jobs 1", ""
            else:
                name, verdict = f"CLI cold check, {args.single:,} reqs / 1 doc", ""
            report.add(name, f"{m['wall_s']:.2f} s", f"{m['cpu_s']:.2f} s", verdict)
            report.add("  peak RSS of that process" + (" (largest process)" if label == "workspace" else ""),
                       f"{rss:.0f} MiB")
        startup = medians([run_child([*cmd, "--version"], root)[0] for _ in range(args.runs)])
        results["cli_startup"] = startup
        report.add("  CLI start-up alone (safereq --version)", f"{startup['wall_s'] * 1000:.0f} ms",
                   f"{startup['cpu_s'] * 1000:.0f} ms")

        import safereq.checks.registry as registry

        registry.checks()  # imports outside the timed region
        for phase in PHASES.values():
            phase.clear()
        cold = [timed(lambda: cold_in_process(ws_dir)) for _ in range(args.runs)]
        m = medians([c[0] for c in cold])
        findings = cold[-1][1][2]
        phases = {phase: statistics.median(v) for phase, v in PHASES.items()}
        results["in_process_cold_workspace"] = {**m, "findings": len(findings), "phases_cpu_s": phases}
        report.add(f"in-process cold check, {n_reqs:,} reqs", f"{m['wall_s']:.2f} s", f"{m['cpu_s']:.2f} s",
                   f"{len(findings)} findings")
        for phase, seconds in phases.items():
            report.add(f"  {phase}", "", f"{seconds:.2f} s")
        del cold

        for label, folder in (("single", one_dir), ("workspace", ws_dir)):
            measure_edits(label, folder, args, results, report)
            gc.collect()
        if args.profile:
            results["profile_cold"] = profile(f"in-process cold check, {n_reqs:,} reqs", lambda: cold_in_process(ws_dir))
    results["machine"]["loadavg_end"] = os.getloadavg()

    report.print()
    print(f"load average at start/end: {results['machine']['loadavg_start'][0]:.2f} / "
          f"{results['machine']['loadavg_end'][0]:.2f} on {os.cpu_count()} CPUs")
    for key in ("profile_cold", "profile_edit"):
        if key in results:
            print("\n" + str(results[key]))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
