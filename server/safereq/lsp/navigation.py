"""Navigation over item IDs: definition, references, rename (with prepareRename refusing anything that is not
an ID), the document outline and workspace-wide symbol search.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types

from ..workspace.lookup import IdAt, element_at
from ..workspace.refactor import occurrences, rename_edits
from .edits import workspace_edit
from .errors import failed

if TYPE_CHECKING:
    from ..model.document import Document, HaraRow, Item
    from ..model.ranges import Span
    from .server import SafereqServer
    from .session import Session

# Symbol kinds by item category; the kind's name goes into the symbol's detail.
_SYMBOL_KINDS = {
    "hazard": types.SymbolKind.Event,
    "safety-goal": types.SymbolKind.Interface,
    "safety-requirement": types.SymbolKind.Class,
    "requirement": types.SymbolKind.Struct,
    "claim": types.SymbolKind.Boolean,
    "verification": types.SymbolKind.Method,
}
MAX_WORKSPACE_SYMBOLS = 200


def _id_at(session: Session, params) -> tuple[str, IdAt | None]:
    key, line, col = session.position(params.text_document.uri, params.position)
    element = element_at(session.workspace.documents[key], line, col)
    return key, element if isinstance(element, IdAt) else None


def _item_span(session: Session, item: Item) -> Span:
    """From the heading to the end of the item's last line (so it holds the ID's span even for one line)."""
    from ..model.ranges import Span

    lines = session.lines(item.path)
    last = min(item.end_line, len(lines) - 1)
    return Span(item.line, 0, last, len(lines[last]))


def _location(session: Session, key: str, span: Span) -> types.Location:
    return types.Location(session.uri(key), session.codec.range(session.lines(key), span))


def definition(ls: SafereqServer, params: types.DefinitionParams) -> list[types.Location] | None:
    session = ls.session
    _key, found = _id_at(session, params)
    if found is None:
        return None
    places = [o for o in occurrences(session.workspace, found.id) if o.definition]
    return [_location(session, o.path, o.span) for o in places] or None


async def references(ls: SafereqServer, params: types.ReferenceParams) -> list[types.Location] | None:
    session = ls.session
    _key, found = _id_at(session, params)
    if found is None:
        return None
    await asyncio.sleep(0)  # a cancellation that arrived meanwhile takes effect here
    include = params.context.include_declaration
    return [_location(session, o.path, o.span) for o in occurrences(session.workspace, found.id)
            if include or not o.definition]


def prepare_rename(ls: SafereqServer, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder:
    session = ls.session
    key, found = _id_at(session, params)
    if found is None:
        raise failed("Only item IDs can be renamed (an ID in an item heading, a link or a HARA table).")
    rng = session.codec.range(session.lines(key), found.span)
    return types.PrepareRenamePlaceholder(range=rng, placeholder=found.id)


async def rename(ls: SafereqServer, params: types.RenameParams) -> types.WorkspaceEdit:
    session = ls.session
    _key, found = _id_at(session, params)
    if found is None:
        raise failed("Only item IDs can be renamed (an ID in an item heading, a link or a HARA table).")
    await asyncio.sleep(0)
    if session.diverged():  # its links are unknown: a rename would miss or damage them
        raise failed(f"safereq no longer knows the editor's text of {', '.join(session.diverged())}: close and "
                     "reopen it before renaming")
    stale = session.reread_if_changed()  # closed files changed on disk without a file event
    if stale:
        ls.publisher.schedule(set(stale))
    edits = rename_edits(session.workspace, found.id, params.new_name)
    return workspace_edit(session, ls.client_capabilities, edits)


def _kind_detail(session: Session, item: Item) -> tuple[types.SymbolKind, str]:
    ws = session.workspace
    category = ws.category(item)
    kind = ws.vocabulary.kind_of(item.kind)
    asil = item.attribute("asil")
    detail = (kind.name if kind else item.kind) + (f" · ASIL {asil.value}" if asil else "")
    return _SYMBOL_KINDS.get(category, types.SymbolKind.Struct), detail


def document_symbols(ls: SafereqServer, params: types.DocumentSymbolParams):
    """The outline: items nested by heading level, HARA rows under the item that holds their table."""
    session = ls.session
    key = session.key(params.text_document.uri)
    doc = session.workspace.documents[key]
    td = ls.client_capabilities.text_document
    hierarchical = bool(td and td.document_symbol and td.document_symbol.hierarchical_document_symbol_support)
    if not hierarchical:
        return _flat_symbols(session, key, doc)
    lines = session.lines(key)
    codec = session.codec
    roots: list[types.DocumentSymbol] = []
    stack: list[tuple[int, types.DocumentSymbol]] = []
    by_item: dict[int, types.DocumentSymbol] = {}
    for item in doc.items:
        kind, detail = _kind_detail(session, item)
        symbol = types.DocumentSymbol(
            name=f"{item.id}: {item.title}" if item.title else item.id, detail=detail, kind=kind,
            range=codec.range(lines, _item_span(session, item)), selection_range=codec.range(lines, item.id_span), children=[])
        by_item[id(item)] = symbol
        while stack and stack[-1][0] >= item.level:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(symbol)
        stack.append((item.level, symbol))
    for row in doc.hara_rows:
        symbol = _row_symbol(session, lines, row)
        holder = doc.item_at(row.span.start_line)
        (by_item[id(holder)].children if holder is not None else roots).append(symbol)
    for symbol in (*roots, *by_item.values()):
        if symbol.children:
            symbol.children.sort(key=lambda s: (s.range.start.line, s.range.start.character))
    roots.sort(key=lambda s: (s.range.start.line, s.range.start.character))
    return roots


def _row_symbol(session: Session, lines: list[str], row: HaraRow) -> types.DocumentSymbol:
    codec = session.codec
    title = row.cells["title"].text if "title" in row.cells else ""
    asil = row.cells["asil"].text if "asil" in row.cells else "?"
    return types.DocumentSymbol(
        name=f"{row.id}: {title}" if title else row.id, detail=f"hazardous event · ASIL {asil}",
        kind=types.SymbolKind.Event, range=codec.range(lines, row.span),
        selection_range=codec.range(lines, row.cells["id"].span))


def _flat_symbols(session: Session, key: str, doc: Document) -> list[types.SymbolInformation]:
    out = []
    for item in doc.items:
        kind, detail = _kind_detail(session, item)
        out.append(types.SymbolInformation(name=f"{item.id}: {item.title}", kind=kind,
                                           location=_location(session, key, _item_span(session, item)), container_name=detail))
    for row in doc.hara_rows:
        out.append(types.SymbolInformation(name=row.id, kind=types.SymbolKind.Event,
                                           location=_location(session, key, row.span),
                                           container_name="hazardous event"))
    return out


async def workspace_symbols(ls: SafereqServer, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
    """Items matching the query, fuzzy on ID and title, at most :data:`MAX_WORKSPACE_SYMBOLS`."""
    from ..workspace.search import search_items

    session = ls.session
    session.sync()
    await asyncio.sleep(0)
    out = []
    for item in search_items(session.workspace, params.query, limit=MAX_WORKSPACE_SYMBOLS):
        kind, detail = _kind_detail(session, item)
        out.append(types.SymbolInformation(name=f"{item.id}: {item.title}", kind=kind,
                                           location=_location(session, item.path, _item_span(session, item)),
                                           container_name=detail))
    return out
