"""Reading test results: a JUnit XML file of 10,000 test cases, matched to a 20,000-requirement workspace.

    .venv/bin/python benchmarks/test_results.py [--cases 10000] [--runs 5] [--json FILE]

The workspace is benchmarks/run.py's generated set (benchmarks/core/generate.py), with its verification
items; the results file is written here in the shape pytest writes (a ``testsuites`` root, one suite, every
tenth case failed with a message, every twentieth skipped, a third naming their item in a ``requirements``
property and the others in the test's name, one in fifty naming nothing). Timed, median of ``--runs``, wall
and CPU: reading the file (exchange/junit.py), matching the cases to the items, and the evidence findings
of the whole workspace (report/test_evidence.py). Figures go to benchmarks/results/test_results.json.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path
from xml.sax.saxutils import quoteattr

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "core"))

import generate  # noqa: E402  (benchmarks/core/generate.py)
from measure import median, timed, write_results  # noqa: E402  (benchmarks/core/measure.py)


def junit(ids: list[str], cases: int) -> str:
    rows = []
    for k in range(cases):
        item = ids[k % len(ids)]
        name = f"test_{item.replace('-', '_')}_case_{k}" if k % 3 else f"test_case_{k}"
        if k % 50 == 49:
            name = f"test_helper_{k}"
        props = (f'<properties><property name="requirements" value={quoteattr(item)}/></properties>'
                 if k % 3 == 0 and k % 50 != 49 else "")
        outcome = ('<failure message="assert 4.2 &lt;= 3.0">trace</failure>' if k % 10 == 0 else
                   '<skipped message="no bench"/>' if k % 20 == 5 else "")
        rows.append(f'<testcase classname="tests.test_area_{k % 40}" name="{name}" time="0.001">{props}{outcome}</testcase>')
    return ('<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="%d">' % cases
            + "".join(rows) + "</testsuite></testsuites>")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", default=str(HERE / "results" / "test_results.json"))
    args = parser.parse_args()

    from safereq.checks import Checker
    from safereq.exchange.junit import read
    from safereq.report.test_evidence import findings, match, verification_ids
    from safereq.workspace import Workspace

    ws = Workspace()
    ws.update_many(generate.workspace().items())
    severities = Checker().severities
    known = verification_ids(ws)
    ids = sorted(i for i in known if re.fullmatch(r"[A-Z]+-[A-Z]+-\d+|[A-Z]+-\d+", i))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.xml"
        path.write_text(junit(ids, args.cases), encoding="utf-8")
        results: dict = {"cases": args.cases, "file_bytes": path.stat().st_size, "verification_ids": len(known),
                         "requirements": sum(len(d.items) for d in ws.documents.values())}
        samples = [timed(lambda: read(path)) for _ in range(args.runs)]
        results["read"] = median(samples)
        cases = samples[-1][1]
        samples = [timed(lambda: match(cases, verification_ids(ws))) for _ in range(args.runs)]
        results["match"] = median(samples)
        evidence = samples[-1][1]
        results["matched_items"] = len(evidence.by_item)
        results["unmatched_cases"] = len(evidence.unmatched)
        samples = [timed(lambda: findings(ws, evidence, severities)) for _ in range(args.runs)]
        results["findings"] = median(samples)
        results["evidence_findings"] = len(samples[-1][1])
    write_results(results, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
