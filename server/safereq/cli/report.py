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
    p.add_argument("-o", "--output", metavar="DIR", required=True,
                   help="folder to write the report to; for html, json and xlsx a name ending in .html, .json or "
                        ".xlsx is the file itself")
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



# The one-file formats, and the suffixes that make ``-o`` name the file rather than a folder.
_FILE_SUFFIXES = {"html": (".html", ".htm"), "json": (".json",), "xlsx": (".xlsx",)}


def _destination(output: Path, fmt: str) -> tuple[Path, str | None]:
    """(folder, file name) for ``-o``: ``-o rep.json`` with ``--format json`` writes ``rep.json`` itself;
    a name without the format's suffix (or any name for the three CSV files) is a folder."""
    if output.suffix.lower() in _FILE_SUFFIXES.get(fmt, ()) and not output.is_dir():
        return output.parent, output.name
    return output, None


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
    out_dir, name = _destination(Path(args.output), args.format)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        if args.format == "html":
            from ..report.html.page import render

            from ..workspace.atomic import write_atomically

            target = out_dir / (name or "index.html")
            page = render(coverage, args.title, deviations, evidence)
            write_atomically(target, page.encode("utf-8"))  # never through a link
            written = [target]
        else:
            from ..report import tables

            writer = getattr(tables, f"write_{args.format}")
            written = writer(coverage, out_dir, deviations, evidence, **({"file_name": name} if name else {}))
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
