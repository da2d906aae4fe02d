"""Completion: what may be typed where (decided by :mod:`safereq.workspace.candidates`), as CompletionItems.

Contexts, from the text before the cursor: a clause reference being typed (``ISO 26262-9:2018 §5.4``); a
HARA table cell (safety goal, S/E/C, ASIL); the value of an attribute line (IDs in link attributes, ASIL
values, S/E/C classes, clause references under ``Cites``); the key at the start of a line in an item body.
Prose gets no suggestions.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lsprotocol import types

from ..model.ranges import Span
from ..workspace.candidates import (
    Candidate,
    asil_candidates,
    attribute_key_candidates,
    class_candidates,
    clause_candidates,
    id_candidates,
    partial_clause_ref,
)
from ..workspace.lookup import SEC_KEYS

if TYPE_CHECKING:
    from ..model.document import Document, Item
    from .server import SafereqServer
    from .session import Session

_ATTR_LINE_RE = re.compile(
    r"^(?P<lead>\s*(?:[-*+]\s+)?)(?:\*\*|__)?(?P<key>[^:：*_`\[\]]{1,40}?)(?:\*\*|__)?[ \t]*[:：](?:\*\*|__)?[ \t]*"
    r"(?P<value>.*)$"
)
_KEY_START_RE = re.compile(r"^(?P<lead>\s*[-*+]\s+|\s*)(?P<word>[^\W\d_][^\W\d]*(?: [^\W\d]*)*)?$")
_LINK_SEPARATORS = ",，、;；"
_KINDS = {
    "id": types.CompletionItemKind.Reference,
    "key": types.CompletionItemKind.Property,
    "asil": types.CompletionItemKind.EnumMember,
    "class": types.CompletionItemKind.EnumMember,
    "clause": types.CompletionItemKind.Reference,
}
MAX_ITEMS = 100


def completion(ls: SafereqServer, params: types.CompletionParams) -> types.CompletionList | None:
    session = ls.session
    key, line, col = session.position(params.text_document.uri, params.position)
    doc = session.workspace.documents[key]
    text = session.lines(key)[line]
    before = text[:col]
    item = doc.item_at(line)
    if item is not None and line == item.line:
        return None
    found = _candidates(session, doc, item, line, col, before)
    if found is None:
        return None
    candidates, start, incomplete = found
    rng = session.codec.range(session.lines(key), Span.on_line(line, start, col))
    markdown = _markdown_docs(ls)
    items = [_item(c, rng, i, markdown) for i, c in enumerate(candidates[:MAX_ITEMS])]
    return types.CompletionList(is_incomplete=incomplete or len(candidates) > MAX_ITEMS, items=items)


def _candidates(session: Session, doc: Document, item: Item | None, line: int, col: int,
                before: str) -> tuple[list[Candidate], int, bool] | None:
    ws = session.workspace
    partial = partial_clause_ref(before)
    if partial is not None:
        found, cut = clause_candidates(partial[1], limit=MAX_ITEMS)
        return (found, partial[0], cut) if found else None
    for row in doc.hara_rows:
        if row.span.start_line == line:
            return _in_row(session, row, col, item)
    m = _ATTR_LINE_RE.match(before)
    if m is not None and item is not None:
        spec = ws.vocabulary.attribute_key(m.group("key"))
        if spec is not None:
            return _value(session, item, spec.key, spec.type, m.start("value"), m.group("value"))
    if item is not None:
        k = _KEY_START_RE.match(before)
        if k is not None:
            word = k.group("word") or ""
            if " " in word and not k.group("lead").strip():
                return None  # prose, not a key
            found = [c for c in attribute_key_candidates(item, item.language) if c.label.casefold().startswith(word.casefold())]
            return (found, k.start("word") if word else col, False) if found else None
    return None


def _value(session: Session, item: Item, key: str, kind: str, start: int, value: str):
    ws = session.workspace
    if kind == "links":
        cut = max(value.rfind(sep) for sep in _LINK_SEPARATORS)
        token = value[cut + 1:]
        stripped = token.lstrip()
        token_start = start + cut + 1 + (len(token) - len(stripped))
        return id_candidates(ws, key, stripped, item, limit=MAX_ITEMS + 1), token_start, False
    if kind == "asil":
        return asil_candidates(ws, item), start, False
    if kind == "sec":
        return class_candidates(key), start, False
    if kind == "clauses":
        found, cut = clause_candidates(value.strip() or "ISO", limit=MAX_ITEMS)
        return found, start, cut
    return None


def _in_row(session: Session, row, col: int, item: Item | None):
    for column, cell in row.cells.items():
        if cell.span.start_col <= col <= cell.span.end_col:
            if column == "safety-goal":
                query = cell.text[: col - cell.span.start_col].split(",")[-1].strip()
                return id_candidates(session.workspace, "safety-goal", query, None, limit=MAX_ITEMS + 1), \
                    col - len(query), False
            if column in SEC_KEYS:
                return class_candidates(column), cell.span.start_col, False
            if column == "asil":
                return asil_candidates(session.workspace, None), cell.span.start_col, False
    return None


def _markdown_docs(ls: SafereqServer) -> bool:
    td = ls.client_capabilities.text_document
    ci = td.completion.completion_item if td and td.completion else None
    return bool(ci and ci.documentation_format and types.MarkupKind.Markdown in ci.documentation_format)


def _item(c: Candidate, rng: types.Range, index: int, markdown: bool) -> types.CompletionItem:
    documentation: types.MarkupContent | str | None = None
    if c.documentation:
        documentation = types.MarkupContent(types.MarkupKind.Markdown, c.documentation) if markdown else c.documentation
    return types.CompletionItem(
        label=c.label,
        kind=_KINDS.get(c.kind),
        detail=c.detail or None,
        documentation=documentation,
        sort_text=f"{c.rank}{index:04d}",
        filter_text=c.filter_text,
        preselect=True if c.preferred else None,
        text_edit=types.TextEdit(rng, c.text),
    )
