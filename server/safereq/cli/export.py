"""``safereq export``: the workspace's items, attributes and links in a format another tool reads.

Formats: ``json`` and ``csv`` (everything, for scripts and spreadsheets), ``needs-json`` (sphinx-needs),
``reqif`` / ``reqifz`` (ReqIF 1.2 for DOORS, Polarion and other requirement tools), ``lobster``
(``lobster-req-trace`` for lobster-report). See docs/exchange.md. Exit status 0, or 2 for a usage,
configuration or input problem.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

FORMATS = ("json", "csv", "needs-json", "reqif", "reqifz", "lobster")


def register(sub: argparse._SubParsersAction) -> None:
    from .loading import add_arguments

    p = sub.add_parser(
        "export", help="export items, attributes and links (JSON, CSV, sphinx-needs, ReqIF, LOBSTER)",
        description="Export every item and HARA row of the documents with its attributes and trace links. "
                    "See docs/exchange.md for what each format holds.",
    )
    add_arguments(p)
    p.add_argument("--to", required=True, choices=FORMATS, metavar="FORMAT",
                   help="output format: " + ", ".join(FORMATS))
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--title", default=None, help="title of the export (ReqIF header, needs.json project)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from .errors import guarded

    return guarded(_run, args)



def render(fmt: str, documents: list, title: str | None) -> bytes:
    """The export of ``documents`` (exchange records) in ``fmt``, as bytes."""
    if fmt == "json":
        from ..exchange.tabular import render_json

        return render_json(documents).encode("utf-8")
    if fmt == "csv":
        from ..exchange.tabular import render_csv

        return render_csv(documents).encode("utf-8")
    if fmt == "needs-json":
        from ..exchange.needs_json import render as render_needs

        return render_needs(documents, project=title or "safereq").encode("utf-8")
    if fmt == "lobster":
        from ..exchange.lobster import render as render_lobster

        return render_lobster(documents).encode("utf-8")
    from ..exchange import reqif_io

    if fmt == "reqifz":
        return reqif_io.render_z(documents, title or "safereq requirements")
    return reqif_io.render(documents, title or "safereq requirements")


def _run(args: argparse.Namespace) -> int:
    from ..exchange.records import collect
    from .errors import UsageError
    from .loading import load_workspace

    if args.to == "reqifz" and not args.output and sys.stdout.isatty():
        raise UsageError("a .reqifz archive is binary: give -o FILE")
    workspace, loaded, _config = load_workspace(args)
    for problem in loaded.problems:
        print(f"safereq: {problem.path}: {problem.message} (not exported)", file=sys.stderr)
    documents = collect(workspace)
    data = render(args.to, documents, args.title)
    if args.output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        try:
            Path(args.output).write_bytes(data)
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        count = sum(len(d.records) for d in documents)
        print(f"safereq: exported {count} items from {len(loaded.sources)} files to {args.output}", file=sys.stderr)
    return 0
