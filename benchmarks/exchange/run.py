"""Exchange and report on a large workspace: what an export, an import and the report cost beside a parse.

The workspace is benchmarks/asil_trace_workspace.py's generator (HARA rows, goals, FSRs, TSRs, tests). Each
step is timed ``--repeat`` times in this run and the median quoted, next to the median of parsing the same
documents into a workspace (the baseline: what every command pays first).

    .venv/bin/python benchmarks/exchange/run.py                       # 20,000 items in 200 documents
    .venv/bin/python benchmarks/exchange/run.py --items 2000 --docs 20 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from asil_trace_workspace import generate  # noqa: E402

from safereq.exchange import lobster, needs_json, reqif_io, tabular  # noqa: E402
from safereq.exchange.records import collect  # noqa: E402
from safereq.exchange.reqif_import import parse_file  # noqa: E402
from safereq.report.coverage import compute  # noqa: E402
from safereq.report.html.page import render as render_page  # noqa: E402
from safereq.workspace import Workspace  # noqa: E402


def _median_ms(fn, repeat: int) -> tuple[float, object]:
    samples, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=20000)
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    docs = generate(args.items, args.docs)

    def parse() -> Workspace:
        ws = Workspace()
        ws.update_many(docs.items())
        return ws

    base, ws = _median_ms(parse, args.repeat)
    rows = [("parse (baseline)", base)]
    t, documents = _median_ms(lambda: collect(ws), args.repeat)
    rows.append(("collect records", t))
    n = sum(len(d.records) for d in documents)
    for name, fn in (("json", lambda: tabular.render_json(documents)), ("csv", lambda: tabular.render_csv(documents)),
                     ("needs-json", lambda: needs_json.render(documents)), ("lobster", lambda: lobster.render(documents)),
                     ("reqif", lambda: reqif_io.render(documents))):
        rows.append((f"export {name}", _median_ms(fn, args.repeat)[0]))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.reqif"
        path.write_bytes(reqif_io.render(documents))
        rows.append(("import reqif", _median_ms(lambda: parse_file(path), args.repeat)[0]))
    t, coverage = _median_ms(lambda: compute(documents), args.repeat)
    rows.append(("coverage", t))
    rows.append(("report page (with trace graphs)", _median_ms(lambda: render_page(coverage), 1)[0]))
    goals = sum(1 for r in coverage.records if r.category == "safety-goal")
    print(f"{n} records in {len(documents)} documents, {goals} safety goals; medians of {args.repeat} runs "
          "(the page: one run)")
    for name, ms in rows:
        print(f"  {name:34s} {ms:9.1f} ms  {ms / base:6.2f} x parse")


if __name__ == "__main__":
    main()
