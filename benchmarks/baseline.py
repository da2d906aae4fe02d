"""A baseline of a legacy specification: recording, reading and matching about 15,000 findings.

    .venv/bin/python benchmarks/baseline.py [--runs 3] [--json FILE]

The workspace is the generated requirement set of benchmarks/run.py (benchmarks/core/generate.py), 240
documents instead of 200 (about 24,000 requirements), checked with the two rules that are off by default
on (``ears/no-pattern``, ``wording/universal-quantifier``): about 15,000 findings, the size of a legacy
specification's first run. In one process that has checked it once, each step of
``safereq check --baseline`` is timed (median of ``--runs``, wall and CPU): recording the baseline (the
fingerprints of every finding, and writing the file), reading it, and matching every finding against it
(what each later run and the editor's first check add); then the same after an edit that inserts a line
above the first item of every document (every finding moved: the fingerprints must still match all of them).
Through the real CLI, ``check`` and ``check --baseline`` are run once each for the end-to-end difference.
Figures go to benchmarks/results/baseline.json.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "core"))

import generate  # noqa: E402  (benchmarks/core/generate.py)
from measure import median, timed, write_results  # noqa: E402  (benchmarks/core/measure.py)


RULES = '[rules]\n"ears/no-pattern" = "on"\n"wording/universal-quantifier" = "on"\n'


def cli(root: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "safereq", "check", "-q", ".", *args], cwd=root,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return round(time.perf_counter() - start, 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--docs", type=int, default=240)
    parser.add_argument("--json", default=str(HERE / "results" / "baseline.json"))
    args = parser.parse_args()

    from safereq.checks import Checker, Config
    from safereq.report.baseline import Baseline
    from safereq.workspace import Workspace

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = generate.workspace(docs=args.docs)
        generate.write(files, root)
        (root / "safereq.toml").write_text(RULES, encoding="utf-8")
        ws = Workspace()
        ws.update_many((str(root / name), text) for name, text in files.items())
        checker = Checker(Config(rules={"ears/no-pattern": "on", "wording/universal-quantifier": "on"}))
        findings = checker.check(ws)
        path = root / "baseline.json"
        results: dict = {"findings": len(findings), "items": sum(len(d.items) for d in ws.documents.values())}

        def record():
            baseline = Baseline(path).updated(findings, ws, root, add=True)
            baseline.write()
            return baseline

        samples = [timed(record) for _ in range(args.runs)]
        results["record"] = median(samples)
        results["entries"] = samples[-1][1].size
        results["file_bytes"] = path.stat().st_size
        samples = [timed(lambda: Baseline.load(path)) for _ in range(args.runs)]
        results["read"] = median(samples)
        baseline = samples[-1][1]
        samples = [timed(lambda: baseline.split(findings, ws, root)) for _ in range(args.runs)]
        results["match"] = median(samples)
        new, known = samples[-1][1]
        results["matched"] = len(known)
        for name, text in files.items():
            ws.update(str(root / name), text.replace("\n## ", "\n\n## ", 1))
        moved = checker.check(ws)
        samples = [timed(lambda: baseline.split(moved, ws, root)) for _ in range(args.runs)]
        results["match_after_moving_every_finding"] = median(samples)
        results["matched_after_moving"] = len(samples[-1][1][1])
        results["new_after_moving"] = len(samples[-1][1][0])
        generate.write(files, root)
        path.unlink()
        results["cli_check_s"] = cli(root)
        results["cli_check_creating_baseline_s"] = cli(root, "--baseline", "baseline.json")
        results["cli_check_with_baseline_s"] = cli(root, "--baseline", "baseline.json")
    write_results(results, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
