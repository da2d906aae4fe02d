"""Checks of pathological document shapes must stay near-linear; peak memory must stay bounded (issue 12).

    .venv/bin/python benchmarks/shapes/run.py [--n 10000] [--runs 3] [--json FILE]

Each shape of ``generate.py`` (a ``Derived from`` cycle, one ID on every heading, one HARA table, one
attribute with n links) is written as one document of n and of 2n items beside the plain chain of the same
sizes, and checked cold through the real CLI (``safereq check FILE --jobs 1``, text output as a user runs
it, process start to exit, median of ``--runs``), with the child's peak RSS. (``--format json`` adds time in
proportion to the findings: the cycle's 20,000 findings are 40 MB of indented JSON, about 2 s to write.) The table gives, per shape, the time at n and 2n,
the growth (time at 2n / time at n: about 2 for linear work, 4 for quadratic) and the time at 2n against the
chain's at 2n, measured in the same run (the issue's target: within twice the chain's).

Peak memory per shape, and the memory limit, are measured by ``memory.py`` beside this script; the language
server's code lenses and document symbols on the same shapes by ``lenses.py`` (issue 25, item 9: the same-ID
shape was linear here but took 395 s of code lenses at 5,000 headings). Nothing is
asserted: figures only. Writes benchmarks/results/shapes.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

from generate import SHAPES  # noqa: E402  (benchmarks/shapes/generate.py)

SAFEREQ = [sys.executable, "-m", "safereq"]


def check(path: Path) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, peak RSS bytes, exit status) of one cold CLI check of ``path``."""
    start = time.perf_counter()
    proc = subprocess.Popen([*SAFEREQ, "check", str(path), "--jobs", "1", "--max-file-size", "2GB"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)


def measure(path: Path, runs: int) -> dict[str, float]:
    samples = [check(path) for _ in range(runs)]
    return {"seconds": statistics.median(s[0] for s in samples), "cpu": statistics.median(s[1] for s in samples),
            "peak_rss": max(s[2] for s in samples), "size": path.stat().st_size, "exit": max(s[3] for s in samples)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000, help="the smaller size; the larger is twice it")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "shapes.json")
    args = ap.parse_args()
    results: dict = {"n": args.n, "runs": args.runs, "python": platform.python_version(),
                     "load_before": os.getloadavg()[0], "shapes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, make in SHAPES.items():
            row = {}
            for n in (args.n, 2 * args.n):
                path = folder / f"{name}-{n}.md"
                path.write_text(make(n), encoding="utf-8")
                row[n] = measure(path, args.runs)
                print(f"{name:15} n={n:7}  {row[n]['seconds']:7.2f} s wall  {row[n]['cpu']:7.2f} s CPU  "
                      f"{row[n]['peak_rss'] / 2**20:7.0f} MiB",
                      flush=True)
            results["shapes"][name] = row
    results["load_after"] = os.getloadavg()[0]
    print_table(results)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


def print_table(results: dict) -> None:
    """Judged on CPU time (the child's user + system), the better estimate of an idle run on a busy machine;
    wall time beside it."""
    n, big = results["n"], 2 * results["n"]
    base = results["shapes"]["chain"][big]["cpu"]
    print(f"\n| shape | CPU at {n:,} | CPU at {big:,} | growth | at {big:,} against the chain | wall at {big:,} "
          f"| peak RSS at {big:,} |")
    print("|---|---|---|---|---|---|---|")
    for name, row in results["shapes"].items():
        small, large = row[n]["cpu"], row[big]["cpu"]
        print(f"| {name} | {small:.2f} s | {large:.2f} s | {large / small:.2f}× | {large / base:.2f}× | "
              f"{row[big]['seconds']:.2f} s | {row[big]['peak_rss'] / 2**20:.0f} MiB |")
    print(f"\nload average {results['load_before']:.1f} before, {results['load_after']:.1f} after")


if __name__ == "__main__":
    sys.exit(main())
