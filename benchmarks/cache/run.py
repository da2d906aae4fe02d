"""The check cache, the cold check on several workers, and start-up, on the peers' shape (issue 26).

    /work/main/.venv/bin/python benchmarks/cache/run.py [--runs 3] [--json FILE]

Writes the workspace the peer tools were compared on (benchmarks/core/generate.py ``peers_workspace``: one
document of 20 safety goals and 200 documents of 100 requirements, 201 files, test cases declared external)
to a temporary folder and measures, each through the real CLI in a fresh process (bytecode cached as in an
installed package), interleaved round by round so that every case meets the same load:

- the floor: a Python process that reads every file and runs one regex over it;
- cold ``safereq check`` (empty cache) with ``--jobs 1``, ``2`` and ``4``, and with ``--no-cache``;
- a warm re-run (nothing changed);
- a re-run after one file was edited: a statement reworded (a fresh word each round, so each is a real
  edit), and an ASIL changed (an edit workspace-scope rules read);
- ``safereq search`` and ``safereq index --status`` (and a no-op ``safereq index``) beside ``--version``, on
  an index of the shipped corpora built once beforehand.

Every report of a cached run is compared with the uncached report of the same files (exit status 1 if one
differs). Medians of wall and CPU time (user + system of the process and the workers it waited for) go to
the table and to benchmarks/results/cache.json, with the load average and each case's ratio to the floor's.
On a shared machine CPU time is the steadier figure; wall time includes waiting for a core.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "core"))
sys.path.insert(0, str(HERE.parent))

import generate  # noqa: E402
from run import CHILD_ENV, Sample, run_child, safereq_command, use_bytecode_cache  # noqa: E402

SERVER = HERE.parents[1] / "server"
FLOOR = ("import pathlib, re, sys\n"
         "rx = re.compile(r'^#{1,6}[ \\t]+([A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)*)[ \\t]*:', re.M)\n"
         "n = sum(len(rx.findall(p.read_text(encoding='utf-8'))) for p in sorted(pathlib.Path('.').rglob('*.md')))\n"
         "sys.exit(0 if n else 1)\n")
TARGETS = {"cold": 10.0, "warm": 3.0, "one_edit_reworded": 3.0}  # times the floor (issue 26)
SEARCH_TARGET_CPU = 0.5


def _report(cmd: list[str], folder: Path, *extra: str) -> tuple[Sample, int, str]:
    out = folder.parent / "report.txt"
    sample, status, _rss = run_child([*cmd, "check", ".", "--output", str(out), *extra], folder)
    return sample, status, out.read_text(encoding="utf-8")


def _edit(folder: Path, round_: int, kind: str) -> None:
    """One edit of one file: a statement reworded with a word not used before, or an ASIL changed."""
    doc = folder / "technical" / "str" / "tsr-str-193.md"
    text = doc.read_text(encoding="utf-8")
    lines = text.split("\n")
    if kind == "reword":
        k = next(i for i, line in enumerate(lines) if line.startswith("The steering arbiter"))
        words = lines[k].split(" ")
        words[3] = f"reject{round_}"
        lines[k] = " ".join(words)
    else:
        k = next(i for i, line in enumerate(lines) if line.startswith("- ASIL:"))
        lines[k] = "- ASIL: " + ("B" if lines[k].endswith(" C") else "C")
    doc.write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3, help="rounds (median; default 3)")
    p.add_argument("--json", type=Path, default=HERE.parent / "results" / "cache.json")
    p.add_argument("--before", type=Path, metavar="TREE",
                   help="also time the code of this source tree (e.g. `git archive be8e913 server rules corpora | tar -x -C "
                        "TREE`): its cold check (--no-cache on the default workers, and --jobs 1, 2, 4), its warm and "
                        "one-edit re-runs, search, index --status and no-op index, in the same rounds, its reports "
                        "compared too")
    args = p.parse_args()
    cmd = safereq_command()
    results: dict = {"command": " ".join([sys.executable, *sys.argv]), "cpus": os.cpu_count(),
                     "loadavg_start": os.getloadavg()}
    samples: dict[str, list[Sample]] = {}
    mismatches: list[str] = []
    with tempfile.TemporaryDirectory(prefix="safereq-cache-") as tmp:
        root = Path(tmp)
        use_bytecode_cache(root / "pycache")
        CHILD_ENV["PYTHONPATH"] = str(SERVER)  # this tree's code, whatever the console script was installed from
        CHILD_ENV["SAFEREQ_CACHE_DIR"] = str(root / "user-cache")
        folder = root / "peers" / "ws"
        files = generate.peers_workspace()
        generate.write(files, folder)
        results["files"] = sum(1 for name in files if name.endswith(".md"))
        results["bytes"] = sum(len(t.encode()) for t in files.values())
        index = root / "index"
        run_child([*cmd, "index", "--index-dir", str(index)], root)
        run_child([*cmd, "--version"], root)  # warm-up: bytecode written
        _report(cmd, folder, "--no-cache")
        cache = folder / ".safereq"

        def add(name: str, sample: Sample) -> None:
            samples.setdefault(name, []).append(sample)

        for round_ in range(args.runs):
            add("floor", run_child([sys.executable, "-c", FLOOR], folder)[0])
            _s, _status, uncached = _report(cmd, folder, "--no-cache")
            add("cold_no_cache", _s)
            for jobs in (1, 2, 4):
                shutil.rmtree(cache, ignore_errors=True)
                s, _status, report = _report(cmd, folder, "--jobs", str(jobs))
                add(f"cold_jobs_{jobs}", s)
                if report != uncached:
                    mismatches.append(f"cold --jobs {jobs}, round {round_}")
            s, _status, report = _report(cmd, folder)
            add("warm", s)
            if report != uncached:
                mismatches.append(f"warm, round {round_}")
            for kind in ("reword", "asil"):
                _edit(folder, round_, kind)
                s, _status, report = _report(cmd, folder)
                add(f"one_edit_{'reworded' if kind == 'reword' else 'asil'}", s)
                uncached = _report(cmd, folder, "--no-cache")[2]  # of the edited files, also for --before
                if report != uncached:
                    mismatches.append(f"one edit ({kind}), round {round_}")
            add("version", run_child([*cmd, "--version"], root)[0])
            add("search", run_child([*cmd, "search", "ASIL decomposition", "--index-dir", str(index)], root)[0])
            add("index_status", run_child([*cmd, "index", "--status", "--index-dir", str(index)], root)[0])
            add("index_noop", run_child([*cmd, "index", "--index-dir", str(index)], root)[0])
            if args.before:
                CHILD_ENV["PYTHONPATH"] = str(args.before / "server")
                runs = [("before_cold_no_cache", ("--no-cache",))]
                runs += [(f"before_cold_jobs_{jobs}", ("--jobs", str(jobs))) for jobs in (1, 2, 4)]
                for name, extra in runs:
                    shutil.rmtree(cache, ignore_errors=True)  # cold for that code too (a cache of its own, if any)
                    s, _status, report = _report(cmd, folder, *extra)
                    add(name, s)
                    if report != uncached:
                        mismatches.append(f"the code of {args.before} reports otherwise ({name}), round {round_}")
                # Its re-runs on its own cache (left by the cold --jobs 4 run): unchanged files, then the same
                # two kinds of edit (another new word), each compared with this tree's uncached report.
                s, _status, report = _report(cmd, folder)
                add("before_warm", s)
                if report != uncached:
                    mismatches.append(f"the code of {args.before} reports otherwise (warm), round {round_}")
                for kind in ("reword", "asil"):
                    _edit(folder, args.runs + round_, kind)
                    s, _status, report = _report(cmd, folder)
                    add(f"before_one_edit_{'reworded' if kind == 'reword' else 'asil'}", s)
                    CHILD_ENV["PYTHONPATH"] = str(SERVER)
                    uncached = _report(cmd, folder, "--no-cache")[2]
                    CHILD_ENV["PYTHONPATH"] = str(args.before / "server")
                    if report != uncached:
                        mismatches.append(f"the code of {args.before} reports otherwise (one edit, {kind}), round {round_}")
                shutil.rmtree(cache, ignore_errors=True)
                add("before_search", run_child([*cmd, "search", "ASIL decomposition", "--index-dir", str(index)],
                                               root)[0])
                add("before_index_status", run_child([*cmd, "index", "--status", "--index-dir", str(index)], root)[0])
                add("before_index_noop", run_child([*cmd, "index", "--index-dir", str(index)], root)[0])
                CHILD_ENV["PYTHONPATH"] = str(SERVER)
    results["loadavg_end"] = os.getloadavg()
    floor_cpu = statistics.median(s.cpu for s in samples["floor"])
    floor_wall = statistics.median(s.wall for s in samples["floor"])
    print(f"peers' shape: {results['files']} files, {results['bytes'] / 1e6:.1f} MB; load "
          f"{results['loadavg_start'][0]:.1f} -> {results['loadavg_end'][0]:.1f}; medians of {args.runs}")
    print(f"{'case':24} {'wall':>8} {'CPU':>8} {'wall/floor':>11} {'CPU/floor':>10}  target")
    for name, got in samples.items():
        wall = statistics.median(s.wall for s in got)
        cpu = statistics.median(s.cpu for s in got)
        results[name] = {"wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "wall_over_floor": round(wall / floor_wall, 2),
                         "cpu_over_floor": round(cpu / floor_cpu, 2), "walls_s": [round(s.wall, 3) for s in got],
                         "cpus_s": [round(s.cpu, 3) for s in got]}
        key = "cold" if name.startswith("cold_jobs") else name
        target = (f"<= {TARGETS[key]:.0f}x floor" if key in TARGETS else
                  f"<= {SEARCH_TARGET_CPU} s CPU" if name == "search" else "")
        print(f"{name:24} {wall:7.2f}s {cpu:7.2f}s {wall / floor_wall:10.1f}x {cpu / floor_cpu:9.1f}x  {target}")
    results["mismatches"] = mismatches
    for m in mismatches:
        print(f"REPORT DIFFERS: {m}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
