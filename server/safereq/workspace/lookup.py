"""What sits at a position of a document: an item ID, a trace link, an ASIL, an S/E/C class, a clause reference.

Hovers, go-to-definition, rename and completion all start by asking "what is under the cursor?". The answer
depends only on the parsed document, so it lives here, free of protocol types: positions are (line, column in
code points), as everywhere in the core.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.clauses import ClauseRef
from ..model.document import Attribute, Document, HaraRow, Item
from ..model.ranges import Span

SEC_KEYS = ("severity", "exposure", "controllability")


@dataclass(frozen=True, slots=True)
class IdAt:
    """An item ID: where it is defined (item heading, HARA row ID cell) or a link to it.

    ``key`` is the link's attribute key (``derived-from``, ``verified-by``, ``hazard``) or ``safety-goal`` for a
    HARA table's safety-goal cell; None for a definition. ``item`` is the item whose heading or body holds it.
    """

    id: str
    span: Span
    definition: bool
    item: Item | None = None
    key: str | None = None
    row: HaraRow | None = None


@dataclass(frozen=True, slots=True)
class AsilAt:
    """An ASIL value: an item's ``ASIL:`` attribute or a HARA row's ASIL cell."""

    text: str
    span: Span
    item: Item | None = None
    row: HaraRow | None = None


@dataclass(frozen=True, slots=True)
class ClassAt:
    """A severity, exposure or controllability class (``kind`` is one of :data:`SEC_KEYS`)."""

    kind: str
    text: str
    span: Span
    item: Item | None = None
    row: HaraRow | None = None


@dataclass(frozen=True, slots=True)
class ClauseAt:
    ref: ClauseRef
    span: Span
    item: Item | None = None


@dataclass(frozen=True, slots=True)
class KeyAt:
    """The key of an attribute line (``Derived from`` in ``- Derived from: SG-1``)."""

    attribute: Attribute
    span: Span
    item: Item


Element = IdAt | AsilAt | ClassAt | ClauseAt | KeyAt


def element_at(doc: Document, line: int, col: int) -> Element | None:
    """The innermost element at (line, col); a position just after an element still hits it."""
    item = doc.item_at(line)
    if item is not None:
        found = _in_item(item, line, col)
        if found is not None:
            return found
    for row in doc.hara_rows:
        if row.span.start_line == line:
            return _in_row(row, line, col, item)
        if row.span.start_line > line:
            break
    refs = item.clause_refs if item is not None else doc.clause_refs
    for ref in refs:
        if ref.span is not None and ref.span.contains(line, col):
            return ClauseAt(ref, ref.span, item)
    return None


def _in_item(item: Item, line: int, col: int) -> Element | None:
    if item.id_span.contains(line, col):
        return IdAt(item.id, item.id_span, True, item)
    for attr in item.attributes:
        if not attr.span.start_line <= line <= attr.span.end_line:
            continue
        for link in attr.links:
            if link.valid and link.span.contains(line, col):
                return IdAt(link.target, link.span, False, item, attr.key)
        if attr.key_span.contains(line, col):
            return KeyAt(attr, attr.key_span, item)
        found = _classification(attr.key, attr.value, attr.value_span, item, None) \
            if attr.value_span.contains(line, col) else None
        if found is not None:
            return found
    return None


def _classification(key: str, text: str, span: Span, item: Item | None, row: HaraRow | None) -> AsilAt | ClassAt | None:
    """An ASIL or an S/E/C class, as an attribute's value or a HARA cell of that column; None for other keys."""
    if key == "asil":
        return AsilAt(text, span, item, row)
    if key in SEC_KEYS:
        return ClassAt(key, text, span, item, row)
    return None


def _in_row(row: HaraRow, line: int, col: int, item: Item | None) -> Element | None:
    for column, cell in row.cells.items():
        if not cell.span.contains(line, col):
            continue
        if column == "id":
            return IdAt(cell.text, cell.span, True, item, None, row)
        if column == "safety-goal":
            return _goal_link(row, cell.text, cell.span, line, col, item)
        found = _classification(column, cell.text, cell.span, None, row)
        if found is not None:
            return found
    return None


def _goal_link(row: HaraRow, text: str, span: Span, line: int, col: int, item: Item | None) -> IdAt | None:
    """The safety-goal cell may list several goals (``SG-1, SG-2``); find the one under the cursor."""
    from ..model.ids import ID_RE, is_item_id

    for m in ID_RE.finditer(text):
        if not is_item_id(m.group(0)):
            continue
        sub = Span.on_line(line, span.start_col + m.start(), span.start_col + m.end())
        if sub.contains(line, col):
            return IdAt(m.group(0), sub, False, item, "safety-goal", row)
    return None


def attribute_at(item: Item, line: int) -> Attribute | None:
    """The attribute whose line range holds ``line`` (for completion inside a value being typed)."""
    for attr in item.attributes:
        if attr.span.start_line <= line <= attr.span.end_line:
            return attr
    return None
