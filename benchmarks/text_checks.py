"""Cold timing of the text checks (modal, wording, EARS) on the generated 2,000-requirement document.

    /work/main/.venv/bin/python benchmarks/text_checks.py [--runs 5] [--all]

Each run is a fresh interpreter, so the time includes loading the word lists, compiling them and scanning every
statement once (the per-statement caches start empty). Other families are switched off; ``--all`` also enables
the text rules that are off by default (ears/no-pattern, wording/universal-quantifier). Prints the minimum and
median of wall and CPU time over the runs: the machine is shared, so the minimum is the figure to compare.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FAMILIES = ("modal", "wording", "ears")

CHILD = f"""
import sys, time
sys.path.insert(0, {str(HERE / "core")!r})
import generate
from safereq.checks import registry
from safereq.checks.config import Config
from safereq.checks.engine import Checker
from safereq.workspace import Workspace

ws = Workspace()
ws.update_many([("single.md", generate.single_document(2000))])
infos = registry.rule_infos()
registry.checks()
families = {FAMILIES!r}
if sys.argv[1] == "all":
    rules = {{r: ("on" if r.split("/")[0] in families else "off") for r in infos}}
else:
    rules = {{r: "off" for r in infos if r.split("/")[0] not in families}}
wall, cpu = time.perf_counter(), time.process_time()
found = Checker(Config(rules=rules)).check(ws)
print(len(ws.documents["single.md"].items), len(found), time.perf_counter() - wall, time.process_time() - cpu)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--all", action="store_true", help="also enable the text rules that are off by default")
    args = parser.parse_args()
    mode = "all" if args.all else "default"
    walls, cpus = [], []
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True, check=True)
        items, findings, wall, cpu = out.stdout.split()
        walls.append(float(wall))
        cpus.append(float(cpu))
    print(f"text checks, {mode} rules: {items} items, {findings} findings, cold check over {args.runs} runs: "
          f"wall min {min(walls) * 1000:.0f} ms (median {statistics.median(walls) * 1000:.0f}), "
          f"CPU min {min(cpus) * 1000:.0f} ms (median {statistics.median(cpus) * 1000:.0f})")


if __name__ == "__main__":
    main()
