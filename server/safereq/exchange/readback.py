"""Read an imported document back with safereq's own parser and say where it differs from what was meant.

The importer escapes imported text so that Markdown reads it as data (:mod:`.markdown`); this is the proof,
per document: every item is read back with its ID, title, statement, attributes, links and chapters, and the
document holds no item the file did not have. A difference is reported by item, so "imported N items" is
never said of a document that reads as something else.
"""

from __future__ import annotations

import re

from .errors import ImportProblem
from .records import LINK_KEYS, DocumentRecord, Record, collect

_BLANKS_RE = re.compile(r"\n(?:[ \t]*\n)+")


def _text(text: str) -> str:
    lines = [" ".join(line.split()) for line in text.strip("\n").split("\n")]
    return _BLANKS_RE.sub("\n\n", "\n".join(lines)).strip("\n")


def _words(text: str) -> str:
    return " ".join(text.split())


def _attributes(record: Record) -> dict[str, tuple[str, ...]]:
    return {k: tuple(_words(v) for v in value.split("\n")) for k, value in record.attributes.items() if value.strip()}


def _links(record: Record) -> dict[str, tuple[str, ...]]:
    keys = LINK_KEYS if record.source == "hara" else tuple(k for k in LINK_KEYS if k != "safety-goal")
    return {k: tuple(record.links[k]) for k in keys if record.links.get(k)}


def _differences(meant: Record, got: Record) -> list[str]:
    out = []
    if _words(got.title) != _words(meant.title or meant.id):
        out.append(f"title {_words(got.title)!r}")
    if _text(got.text) != _text(meant.text):
        out.append("statement")
    if meant.source != "hara" and got.chapters != tuple(_words(c) for c in meant.chapters):
        out.append(f"chapters {' / '.join(got.chapters)!r}")
    got_attributes, meant_attributes = _attributes(got), _attributes(meant)
    keys = sorted(k for k in {*got_attributes, *meant_attributes} if got_attributes.get(k) != meant_attributes.get(k))
    if keys:
        out.append("attribute " + ", ".join(keys))
    got_links, meant_links = _links(got), _links(meant)
    keys = sorted(k for k in {*got_links, *meant_links} if got_links.get(k) != meant_links.get(k))
    if keys:
        out.append("link " + ", ".join(keys))
    return out


def readback(doc: DocumentRecord, text: str) -> list[ImportProblem]:
    """What differs between ``doc`` and the records safereq reads from ``text``, its rendered Markdown."""
    from ..workspace import Workspace

    ws = Workspace()
    ws.update_many([(doc.path or "imported.md", text)])
    got: dict[str, list[Record]] = {}
    for document in collect(ws):
        for record in document.records:
            got.setdefault(record.id, []).append(record)
    problems = []
    for meant in doc.records:
        found = got.get(meant.id)
        if not found:
            problems.append(ImportProblem(meant.id, "written, but safereq does not read it back as an item"))
            continue
        differences = _differences(meant, found.pop(0))
        if differences:
            problems.append(ImportProblem(meant.id, "written, but it reads back with a different "
                                                    + ", ".join(differences)))
    for item_id, left in got.items():
        if left:
            problems.append(ImportProblem(item_id, "the written document reads as an item the imported file does not "
                                                   "have"))
    return problems
