"""The neutral form of a workspace that every export format writes and every import format reads.

A record is one item or one HARA row as the tools next door see a requirement: an ID, a kind, a title, the
statement as written (line breaks kept, paragraphs separated by a blank line), the document and chapter it
sits in, its attributes by canonical key, and its trace links by key. It is built from the workspace the
checker uses (no second parser), so an export says exactly what ``safereq check`` read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from ..model.document import Document, HaraRow, Item
from ..model.ids import ATX_HEADING_RE, heading_title, kind_prefix
from ..workspace import Workspace

# Keys whose values are trace links; "safety-goal" is the goal column of a HARA row.
LINK_KEYS = ("derived-from", "verified-by", "hazard", "safety-goal")
# HARA columns that become attributes of the row's record.
HARA_ATTRIBUTES = ("severity", "exposure", "controllability", "asil", "situation")


# A CommonMark backslash escape (a backslash before ASCII punctuation), and the full-width colon that
# safereq's importer escapes the same way so that a statement line is not read as an attribute.
_ESCAPE_RE = re.compile(r"\\([!-/:-@\[-`{-~：])")


def unescape(text: str) -> str:
    """Markdown text as the words it reads as: backslash escapes resolved (``ASIL\\: QM`` → ``ASIL: QM``).
    Records carry words, not Markdown escapes, so an import that escaped them exports them unchanged."""
    return _ESCAPE_RE.sub(r"\1", text) if "\\" in text else text


@dataclass(slots=True)
class Record:
    """One requirement as exchanged: see the module docstring. ``source`` is "item" or "hara"."""

    id: str
    kind: str
    title: str
    text: str
    document: str
    line: int
    chapters: tuple[str, ...] = ()
    attributes: dict[str, str] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)
    source: str = "item"
    category: str = "requirement"
    # Attributes of a foreign file that safereq has no key for: written as a table, reported on import.
    extra: dict[str, str] = field(default_factory=dict)

    def link_targets(self) -> list[tuple[str, str]]:
        """(key, target) for every link, in key order."""
        return [(key, target) for key in LINK_KEYS for target in self.links.get(key, ())]


@dataclass(slots=True)
class DocumentRecord:
    """A document: its path as given, its title (first level-1 heading, else the front matter's ``title``,
    else the file name) and records."""

    path: str
    title: str
    records: list[Record]


def statement_text(item: Item) -> str:
    """The statement with its line breaks: segments on one line joined, a skipped line starts a paragraph."""
    lines: list[str] = []
    last = None
    for segment in item.statement.segments:
        if last is not None and segment.line == last:
            lines[-1] += " " + segment.text
            continue
        if last is not None and segment.line > last + 1:
            lines.append("")
        lines.append(segment.text)
        last = segment.line
    return unescape("\n".join(lines))


def _chapters(doc: Document) -> tuple[str, dict[int, tuple[str, ...]]]:
    """The document title (its first level-1 heading) and, per item heading line, the chapter headings
    above the item. A heading below an item's level before the next chapter is part of the item's body."""
    item_lines = {item.line for item in doc.items}
    title = ""
    stack: list[tuple[int, str | None]] = []  # (level, chapter text, or None for an item)
    at: dict[int, tuple[str, ...]] = {}
    fence = ""
    for number, line in enumerate(doc.text.split("\n")):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = "" if fence == marker else (fence or marker)
            continue
        m = None if fence else ATX_HEADING_RE.match(line)
        if m is None:
            continue
        level = len(m.group(1))
        is_item = number in item_lines
        if not is_item and stack and stack[-1][1] is None and level > stack[-1][0]:
            continue  # a sub-heading of an item's body
        while stack and stack[-1][0] >= level:
            stack.pop()
        if is_item:
            at[number] = tuple(text for _level, text in stack if text is not None)
            stack.append((level, None))
        elif level == 1 and not title:
            title = unescape(heading_title(line[m.end():]))
        else:
            stack.append((level, unescape(heading_title(line[m.end():]))))
    return title, at


def _item_record(ws: Workspace, item: Item, chapters: tuple[str, ...]) -> Record:
    attributes: dict[str, str] = {}
    links: dict[str, list[str]] = {}
    for attr in item.attributes:
        if attr.links or attr.key in LINK_KEYS:
            targets = links.setdefault(attr.key, [])
            targets.extend(link.target for link in attr.links if link.valid and link.target not in targets)
        elif attr.key in attributes:
            attributes[attr.key] += "\n" + unescape(attr.value)
        else:
            attributes[attr.key] = unescape(attr.value)
    return Record(item.id, item.kind, unescape(item.title), statement_text(item), item.path, item.line + 1, chapters,
                  attributes, links, "item", ws.category(item))


def _row_record(ws: Workspace, path: str, row: HaraRow) -> Record:
    cells = row.cells
    attributes = {key: unescape(cells[key].text) for key in HARA_ATTRIBUTES if key in cells and cells[key].text}
    goals = [link.target for link in row.goal_links() if link.valid]
    kind = ws.vocabulary.kind_of(kind_prefix(row.id))
    return Record(row.id, kind_prefix(row.id), unescape(cells["title"].text) if "title" in cells else "", "", path,
                  row.span.start_line + 1, (), attributes, {"safety-goal": goals} if goals else {}, "hara",
                  kind.category if kind else "hazard")


def collect(ws: Workspace, kept: dict[str, tuple[Document, DocumentRecord]] | None = None) -> list[DocumentRecord]:
    """Every document of the workspace in path order, with its HARA rows first, then its items.

    ``kept`` (path -> a document and its record, filled by this call) lets a long-running caller (the MCP
    server) rebuild only the records of the documents that changed: ``Workspace.update`` replaces the
    document object of a changed document, so one still held as the same object has the same record."""
    out: list[DocumentRecord] = []
    for path in sorted(ws.documents):
        doc = ws.documents[path]
        if kept is not None and path in kept and kept[path][0] is doc:
            out.append(kept[path][1])
            continue
        title, chapters = _chapters(doc)
        records = [_row_record(ws, path, row) for row in doc.hara_rows]
        records += [_item_record(ws, item, chapters.get(item.line, ())) for item in doc.items]
        front_title = doc.front_matter.get("title") if isinstance(doc.front_matter, dict) else None
        out.append(DocumentRecord(path, title or str(front_title or "") or PurePath(path).stem, records))
        if kept is not None:
            kept[path] = (doc, out[-1])
    if kept is not None:
        for gone in [p for p in kept if p not in ws.documents]:
            del kept[gone]
    return out


def all_records(documents: list[DocumentRecord]) -> list[Record]:
    return [record for doc in documents for record in doc.records]


def attribute_labels() -> dict[str, str]:
    """Canonical attribute key → the label safereq writes (rules/attributes.yaml), plus the HARA-only keys."""
    from ..data import load_rules_yaml

    labels = {key: str(spec.get("label") or spec["aliases"][0]).strip()
              for key, spec in load_rules_yaml("attributes.yaml")["attributes"].items()}
    labels.setdefault("situation", "Situation")
    labels["safety-goal"] = "Safety goal"
    return labels


def option_name(key: str) -> str:
    """A key as an identifier for tools that want one (sphinx-needs options): ``derived-from`` → ``derived_from``."""
    return key.replace("-", "_")


def duplicates(documents: list[DocumentRecord]) -> dict[str, list[Record]]:
    """IDs defined more than once, with every definition in document order (the checker reports them as
    errors; an export must still account for each definition)."""
    by_id: dict[str, list[Record]] = {}
    for record in all_records(documents):
        by_id.setdefault(record.id, []).append(record)
    return {item_id: records for item_id, records in by_id.items() if len(records) > 1}


def of_kinds(documents: list[DocumentRecord], kinds: set[str]) -> list[DocumentRecord]:
    """The documents with only the records whose kind (ID prefix) is in ``kinds`` (upper case)."""
    return [DocumentRecord(d.path, d.title, [r for r in d.records if r.kind.upper() in kinds]) for d in documents]
