"""``safereq report``: a traceability report of the workspace — coverage per kind and ASIL, the holes, a
trace matrix and a trace graph per safety goal — as a static HTML page (``DIR/index.html``, opens from the
file system) or as data (``--format json|csv|xlsx``). See docs/report.md. Exit status 0, or 2 for a usage or
configuration problem.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    from .loading import add_arguments

    p = sub.add_parser(
        "report", help="traceability report: coverage, holes, trace matrix and graphs (HTML, JSON, CSV, XLSX)",
        description="Write a traceability report of the documents into a folder. See docs/report.md.",
    )
    add_arguments(p)
    p.add_argument("-o", "--output", metavar="DIR", required=True, help="folder to write the report to")
    p.add_argument("--format", choices=("html", "json", "csv", "xlsx"), default="html",
                   help="html (index.html, the default), json (report.json), csv (three files) or xlsx")
    p.add_argument("--title", default="Traceability report", help="the page's title")
    p.add_argument("--test-results", metavar="GLOB", action="append", default=[],
                   help="JUnit XML test results (repeatable; default: the configuration's 'test-results'): "
                        "pass/fail/skip/not run for each Verified by, and the passed measure")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from .errors import guarded

    return guarded(_run, args)



def _run(args: argparse.Namespace) -> int:
    from ..exchange.records import collect
    from ..report.coverage import compute
    from ..report.deviations import collect as collect_deviations
    from .errors import UsageError
    from .loading import load_workspace

    workspace, loaded, config = load_workspace(args)
    for problem in loaded.problems:
        print(f"safereq: {problem.path}: {problem.message} (not in the report)", file=sys.stderr)
    evidence = _evidence(args, config, workspace)
    coverage = compute(collect(workspace), evidence.statuses() if evidence is not None else None)
    deviations = collect_deviations(workspace)
    out_dir = Path(args.output)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        if args.format == "html":
            from ..report.html.page import render

            target = out_dir / "index.html"
            target.write_text(render(coverage, args.title, deviations, evidence), encoding="utf-8")
            written = [target]
        else:
            from ..report import tables

            written = getattr(tables, f"write_{args.format}")(coverage, out_dir, deviations, evidence)
    except OSError as exc:
        raise UsageError(f"cannot write into {out_dir}: {exc.strerror or exc}") from None
    summary = ", ".join(f"{row.measure} {row.percent:g}%" for row in coverage.overall) or "nothing to measure"
    accepted = f", {len(deviations)} accepted deviations" if deviations else ""
    if evidence is not None:
        accepted += f", {len(evidence.cases)} test results ({len(evidence.unmatched)} unmatched)"
    print(f"safereq: {len(coverage.records)} items, {len(coverage.holes)} holes{accepted} ({summary}); wrote "
          + ", ".join(str(p) for p in written), file=sys.stderr)
    return 0


def _evidence(args: argparse.Namespace, config, workspace):
    """The test results given (``--test-results``, else the configuration's), or None."""
    from ..report.test_evidence import load
    from .errors import UsageError

    if args.test_results:
        patterns, root = list(args.test_results), Path.cwd()
    elif config.test_results:
        patterns, root = list(config.test_results), config.root or Path.cwd()
    else:
        return None
    evidence = load(patterns, root, workspace, config.test_id_pattern)
    if evidence.problems:
        raise UsageError("; ".join(evidence.problems))
    return evidence
