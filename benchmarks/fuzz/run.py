"""The robustness suite's long form: seeded fuzzing for a time budget, with the figures docs/reliability.md quotes.

    .venv/bin/python benchmarks/fuzz/run.py            # about 20 s per part
    .venv/bin/python benchmarks/fuzz/run.py --long     # about 5 minutes per part
    .venv/bin/python benchmarks/fuzz/run.py --seconds 60 --parts core,cli

Parts (generators in tests/robustness/fuzzers.py; the short form of each is a test in tests/robustness):

- ``core``: edit sequences over a workspace, checked incrementally and compared with a fresh check;
- ``parser``: hostile text parsed and checked from scratch;
- ``buffer``: batches of LSP changes applied to the server's copy of a buffer and to an editor model, in each
  position encoding; the lines must stay equal;
- ``cli``: ``safereq check`` on folders of hostile files (random bytes, invalid UTF-8, deep nesting), one
  process per batch, with a timeout (a hang) and its peak RSS;
- ``lsp``: the real server in each position encoding (tests/robustness/test_lsp_edit_sequences.py with
  ``SAFEREQ_FUZZ_LONG=1``), run through pytest.

A crash is any exception (in-process) or an exit status other than 0/1, a traceback or "internal error"
(CLI); a hang is a check that takes over ``--hang`` seconds; a divergence is an incremental result that is
not the fresh one. Seeds continue from ``--first-seed``, so a failure is reproduced from the printed seed.
Writes benchmarks/results/fuzz.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "robustness"))

import fuzzers  # noqa: E402  (tests/robustness/fuzzers.py)


def _sequence(out: dict, label: str, run, hang: float) -> None:
    """Run one sequence (``run()`` returns what differed, or None) and count it as a crash, divergence or hang."""
    start = time.monotonic()
    try:
        problem = run()
    except Exception as exc:  # a crash: recorded, the run goes on
        out["crashes"] += 1
        out["failures"].append(f"{label}: {type(exc).__name__}: {exc}")
        problem = None
    if problem is not None:
        out["divergences"] += 1
        out["failures"].append(problem)
    if time.monotonic() - start > hang:
        out["hangs"] += 1
        out["failures"].append(f"{label}: {time.monotonic() - start:.1f} s")
    out["sequences"] += 1


def core(budget: float, first: int, hang: float) -> dict:
    out = {"sequences": 0, "edits": 0, "crashes": 0, "hangs": 0, "divergences": 0, "failures": []}
    end = time.monotonic() + budget
    seed = first
    while time.monotonic() < end:
        _sequence(out, f"seed {seed}", lambda: fuzzers.core_sequence(seed, edits=40), hang)
        out["edits"] += 40
        seed += 1
    return out


def parser(budget: float, first: int, hang: float) -> dict:
    out = {"inputs": 0, "bytes": 0, "crashes": 0, "hangs": 0, "failures": []}
    end = time.monotonic() + budget
    rng = random.Random(first)
    while time.monotonic() < end:
        text = fuzzers.hostile_text(rng, rng.choice((200, 2000, 20000)))
        start = time.monotonic()
        try:
            fuzzers.fresh_check({"a.md": text})
        except Exception as exc:
            out["crashes"] += 1
            out["failures"].append(f"input {out['inputs']} of seed {first}: {type(exc).__name__}: {exc}")
        if time.monotonic() - start > hang:
            out["hangs"] += 1
        out["inputs"] += 1
        out["bytes"] += len(text)
    return out


def cli(budget: float, first: int, hang: float) -> dict:
    out = {"files": 0, "runs": 0, "crashes": 0, "hangs": 0, "peak_rss_mib": 0.0, "failures": []}
    end = time.monotonic() + budget
    rng = random.Random(first)
    depth = 1000
    while time.monotonic() < end:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            files = {f"h{i}.md": fuzzers.hostile_bytes(rng, rng.choice((500, 5000, 50000))) for i in range(50)}
            files.update(fuzzers.nested_files(depth))
            depth = min(depth * 2, 64_000)
            for name, data in files.items():
                (folder / name).write_bytes(data)
            start = time.monotonic()
            proc = subprocess.Popen([sys.executable, "-m", "safereq", "check", ".", "--format", "json"], cwd=folder,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                _out, err = proc.communicate(timeout=max(hang, 60))
            except subprocess.TimeoutExpired:
                proc.kill()
                _out, err = proc.communicate()
                out["hangs"] += 1
                out["failures"].append(f"run {out['runs']}: no answer in {max(hang, 60)} s")
            text = err.decode("utf-8", "replace")
            if proc.returncode not in (0, 1, -9) or "Traceback" in text or "internal error" in text:
                out["crashes"] += 1
                out["failures"].append(f"run {out['runs']} (depth {depth // 2}): exit {proc.returncode}: {text[-300:]}")
            if time.monotonic() - start > max(hang, 60):
                out["hangs"] += 1
        out["files"] += len(files)
        out["runs"] += 1
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return out


def buffer(budget: float, first: int, hang: float) -> dict:
    """The server's buffer (lsp.documents) against the editor model, in each encoding, 60 batches a sequence."""
    out = {"sequences": 0, "batches": 0, "crashes": 0, "hangs": 0, "divergences": 0, "failures": []}
    end = time.monotonic() + budget
    seed = first
    while time.monotonic() < end:
        for encoding in ("utf-16", "utf-8", "utf-32"):
            _sequence(out, f"{encoding} seed {seed}", lambda: fuzzers.buffer_sequence(seed, encoding), hang)
            out["batches"] += 60
        seed += 1
    return out


def lsp(budget: float, first: int, hang: float) -> dict:
    """The LSP part runs as its pytest module (the real client), long form; its budget is its seed count."""
    start = time.monotonic()
    env = {**os.environ, "SAFEREQ_FUZZ_LONG": "1"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(ROOT / "tests" / "robustness" / "test_lsp_edit_sequences.py")],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-300:]
    failed = [line for line in proc.stdout.splitlines() if line.startswith("FAILED")]
    return {"sequences": "40 seeds x 3 encodings x 60 batched changes", "result": last, "divergences": len(failed),
            "seconds": round(time.monotonic() - start, 1), "failures": failed}


PARTS = {"core": core, "parser": parser, "buffer": buffer, "cli": cli, "lsp": lsp}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--long", action="store_true", help="5 minutes per part instead of 20 s")
    ap.add_argument("--seconds", type=float, help="time budget per part")
    ap.add_argument("--parts", default="core,parser,buffer,cli", help=f"comma-separated, of {', '.join(PARTS)}")
    ap.add_argument("--first-seed", type=int, default=100_000)
    ap.add_argument("--hang", type=float, default=10.0, help="seconds after which one check counts as a hang")
    ap.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "fuzz.json")
    args = ap.parse_args()
    budget = args.seconds or (300.0 if args.long else 20.0)
    results: dict = {"budget_s": budget, "first_seed": args.first_seed, "parts": {}}
    for name in args.parts.split(","):
        results["parts"][name] = found = PARTS[name](budget, args.first_seed, args.hang)
        shown = {k: v for k, v in found.items() if k != "failures"}
        print(f"{name}: {shown}", flush=True)
        for failure in found["failures"][:10]:
            print(f"  {failure}", flush=True)
    results["peak_rss_mib_in_process"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process (core, parser): {results['peak_rss_mib_in_process']:.0f} MiB")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    bad = sum(p.get("crashes", 0) + p.get("hangs", 0) + p.get("divergences", 0) for p in results["parts"].values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
