"""``safereq export --to json|csv``: every item and HARA row with its attributes and links, for scripts and
spreadsheets. The JSON field set and the CSV columns are a public interface: add, never rename.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .. import __version__
from .cells import inert
from .records import LINK_KEYS, DocumentRecord, Record, all_records

JSON_SCHEMA = "safereq-export"
JSON_VERSION = 1
_FIXED = ("id", "kind", "category", "title", "text", "document", "line", "chapter", "source")


def record_dict(record: Record) -> dict[str, Any]:
    return {
        "id": record.id, "kind": record.kind, "category": record.category, "title": record.title,
        "text": record.text, "document": record.document, "line": record.line,
        "chapters": list(record.chapters), "source": record.source,
        "attributes": dict(record.attributes), "links": {k: list(v) for k, v in record.links.items() if v},
    }


def render_json(documents: list[DocumentRecord]) -> str:
    body = {
        "schema": JSON_SCHEMA, "version": JSON_VERSION, "generator": f"safereq {__version__}",
        "documents": [{"path": d.path, "title": d.title} for d in documents],
        "items": [record_dict(r) for r in all_records(documents)],
    }
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def render_csv(documents: list[DocumentRecord]) -> str:
    """One row per record: fixed columns, every attribute key seen, then one column per link key (IDs
    joined with ", "). Multi-line text stays in its cell (quoted), as spreadsheets read it; a cell that
    starts like a formula starts with ``'`` (see :mod:`.cells`)."""
    records = all_records(documents)
    attribute_keys = sorted({key for r in records for key in r.attributes})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*_FIXED, *attribute_keys, *LINK_KEYS])
    for r in records:
        writer.writerow([inert(cell) for cell in [
            r.id, r.kind, r.category, r.title, r.text, r.document, r.line, " / ".join(r.chapters), r.source,
            *(r.attributes.get(k, "") for k in attribute_keys),
            *(", ".join(r.links.get(k, ())) for k in LINK_KEYS),
        ]])
    return out.getvalue()
