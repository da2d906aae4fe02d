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
    p.add_argument("--kind", action="append", metavar="KIND",
                   help="export only items of this kind (the ID prefix: FSR, TC; repeat or separate by commas); "
                        "for LOBSTER, one file per level")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from .errors import guarded

    return guarded(_run, args)



# Formats whose IDs are keys (a need's ID, a LOBSTER tag): a second definition of an ID cannot be written.
_UNIQUE_IDS = ("needs-json", "lobster")


def render(fmt: str, documents: list, title: str | None, kinds: set[str] | None = None,
           notes: list[str] | None = None) -> bytes:
    """The export of ``documents`` (exchange records) in ``fmt``, as bytes; only the items of ``kinds``
    when given. What a format had to change is added to ``notes``."""
    from ..exchange.records import of_kinds

    if fmt == "lobster":
        from ..exchange.lobster import render as render_lobster

        return render_lobster(documents, kinds).encode("utf-8")  # up references from the whole workspace
    if kinds is not None:
        documents = of_kinds(documents, kinds)
    if fmt == "json":
        from ..exchange.tabular import render_json

        return render_json(documents).encode("utf-8")
    if fmt == "csv":
        from ..exchange.tabular import render_csv

        return render_csv(documents).encode("utf-8")
    if fmt == "needs-json":
        from ..exchange.needs_json import render as render_needs

        return render_needs(documents, project=title or "safereq").encode("utf-8")
    from ..exchange import reqif_io

    if fmt == "reqifz":
        return reqif_io.render_z(documents, title or "safereq requirements", notes=notes)
    return reqif_io.render(documents, title or "safereq requirements", notes=notes)


def _kinds(values: list[str] | None) -> set[str] | None:
    if not values:
        return None
    return {k.strip().upper() for v in values for k in v.split(",") if k.strip()}


def _duplicate_notes(documents: list, fmt: str, kinds: set[str] | None) -> tuple[list[str], int]:
    """A line per duplicated ID saying what became of each definition, and how many were left out."""
    from ..exchange.records import duplicates, of_kinds

    left_out = 0
    notes = []
    for item_id, records in duplicates(of_kinds(documents, kinds) if kinds else documents).items():
        places = ", ".join(f"{r.document}:{r.line}" for r in records)
        if fmt in _UNIQUE_IDS:
            left_out += len(records) - 1
            notes.append(f"{item_id} is defined {len(records)} times ({places}); {fmt} needs unique IDs, so only "
                         f"the first is exported: NOT exported: "
                         + ", ".join(f"{r.document}:{r.line}" for r in records[1:]))
        else:
            notes.append(f"{item_id} is defined {len(records)} times ({places}); every definition is exported "
                         "under the same ID")
    return notes, left_out


def _run(args: argparse.Namespace) -> int:
    from ..exchange.records import collect, of_kinds
    from .errors import UsageError
    from .loading import load_workspace

    if args.to == "reqifz" and not args.output and sys.stdout.isatty():
        raise UsageError("a .reqifz archive is binary: give -o FILE")
    kinds = _kinds(args.kind)
    workspace, loaded, _config = load_workspace(args)
    for problem in loaded.problems:
        print(f"safereq: {problem.path}: {problem.message} (not exported)", file=sys.stderr)
    documents = collect(workspace)
    if kinds is not None:
        present = {r.kind.upper() for d in documents for r in d.records}
        for kind in sorted(kinds - present):
            print(f"safereq: no items of kind {kind}", file=sys.stderr)
    notes, left_out = _duplicate_notes(documents, args.to, kinds)
    data = render(args.to, documents, args.title, kinds, notes)
    for note in notes:
        print(f"safereq: {note}", file=sys.stderr)
    count = sum(len(d.records) for d in (of_kinds(documents, kinds) if kinds else documents))
    if args.output is not None:
        try:
            Path(args.output).write_bytes(data)
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    if args.output is not None or left_out:
        where = f" to {args.output}" if args.output is not None else ""
        told = (f"exported {count - left_out} of {count} items ({left_out} not exported: duplicate IDs, listed "
                "above)") if left_out else f"exported {count} items"
        print(f"safereq: {told} from {len(loaded.sources)} files{where}", file=sys.stderr)
    return 0
