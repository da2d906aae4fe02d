"""Code lenses on item headings (parents, children, verification and ASIL at a glance; click for the trace)
and inlay hints with the ASIL that an item's or a HARA row's S/E/C classes give.

A lens runs ``safereq.showTrace`` with ``[uri, itemId]``. VS Code-family clients get the extension's
``safereq.item.showTrace``, which calls the server and opens the trace as a document; other clients get the
server command itself (Neovim users map it to a floating window, see docs/editors/neovim.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..workspace.asil import determine_asil
from ..workspace.facts import sec_classes, stated_asil
from .command_names import SHOW_TRACE

if TYPE_CHECKING:
    from .server import SafereqServer

VSCODE_SHOW_TRACE = "safereq.item.showTrace"
_VSCODE_CLIENTS = ("visual studio code", "code - oss", "vscodium", "code-server", "cursor", "windsurf")


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _show_trace_command(ls: SafereqServer) -> str:
    name = ls.client_name.casefold()
    return VSCODE_SHOW_TRACE if any(c in name for c in _VSCODE_CLIENTS) else SHOW_TRACE


def code_lens(ls: SafereqServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    session = ls.session
    key = session.key(params.text_document.uri)
    ws = session.workspace
    doc = ws.documents[key]
    lines = session.lines(key)
    uri = session.uri(key)
    command = _show_trace_command(ls)
    out = []
    for item in doc.items:
        # Counted, not gathered into a view per item: n headings that share an ID (or a parent) would each
        # copy the same n children (issue 25, item 9).
        parents, verified_by = len(item.links("derived-from")), len(item.links("verified-by"))
        parts = [_plural(parents, "parent"), _plural(len(ws.children(item.id)), "child", "children")]
        if ws.category(item) == "verification":
            parts.append(f"verifies {len(ws.verifiers(item.id))}")
        else:
            parts.append(_plural(verified_by, "verification") if verified_by else "not verified")
        value = stated_asil(item)
        parts.append(f"ASIL {value}" if value else "no ASIL")
        out.append(types.CodeLens(
            range=session.codec.range(lines, item.heading_span),
            command=types.Command(title=" · ".join(parts), command=command, arguments=[uri, item.id]),
        ))
    from .impact import suspect_lenses

    for span, title, item_id in suspect_lenses(session, key):
        out.append(types.CodeLens(range=session.codec.range(lines, span),
                                  command=types.Command(title=title, command=command, arguments=[uri, item_id])))
    from .review import code_lenses as review_lenses

    return out + review_lenses(ls, key)


def inlay_hints(ls: SafereqServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    session = ls.session
    key = session.key(params.text_document.uri)
    doc = session.workspace.documents[key]
    lines = session.lines(key)
    first, last = params.range.start.line, params.range.end.line
    codec = session.codec
    out = []
    for item in doc.items:
        if item.end_line < first or item.line > last:
            continue
        sec = sec_classes(item)
        if sec is None or sec.asil is None:
            continue
        anchor = max((item.attribute(k) for k in ("severity", "exposure", "controllability")),
                     key=lambda a: (a.value_span.end_line, a.value_span.end_col))
        end = anchor.value_span
        out.append(types.InlayHint(
            position=codec.position(lines, end.end_line, end.end_col),
            label=f"→ ASIL {sec.asil}", kind=types.InlayHintKind.Type, padding_left=True,
            tooltip=f"S/E/C {sec} gives ASIL {sec.asil} (ISO 26262-3:2018 Table 4)",
        ))
    for row in doc.hara_rows:
        line = row.span.start_line
        cells = row.cells
        if not first <= line <= last or not all(k in cells for k in ("severity", "exposure", "controllability")):
            continue
        s, e, c = (cells[k].text for k in ("severity", "exposure", "controllability"))
        given = determine_asil(s, e, c)
        if given is None:
            continue
        cell = cells["controllability"].span
        out.append(types.InlayHint(
            position=codec.position(lines, cell.end_line, cell.end_col),
            label=f"→ {given}", kind=types.InlayHintKind.Type, padding_left=True,
            tooltip=f"S/E/C {s}/{e}/{c} gives ASIL {given} (ISO 26262-3:2018 Table 4)",
        ))
    return out
