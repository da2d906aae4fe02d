"""Hover: what the core knows about the thing under the cursor, as Markdown.

- an item ID (heading, link, HARA cell): statement and its EARS pattern, kind, ASIL and how it was obtained,
  parents, children, verification; a hazardous event: S/E/C, ASIL, safety goals;
- an ASIL value: its derivation; an S/E/C class: the ASIL the item's classes give;
- a clause reference: the clause's title and text from the knowledge base when an index holds it (opened in
  the background on first use, see knowledge_bridge.py), else the shipped clause catalogue's title and
  summary, else the reference's parsed parts;
- a flagged word (any finding's span): the rule, its message and its documentation.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from ..checks import describe_ears
from ..model.ranges import Span
from ..workspace.facts import explain_asil, sec_classes, stated_asil
from ..workspace.lookup import AsilAt, ClassAt, ClauseAt, IdAt, KeyAt, element_at
from ..workspace.trace_view import LinkedId, event_view, item_view

if TYPE_CHECKING:
    from ..checks.config import Config
    from ..knowledge.types import ClauseText
    from ..model.clauses import ClauseRef
    from ..model.document import Item
    from ..workspace import Workspace
    from .server import SafereqServer

log = logging.getLogger(__name__)

MAX_DOC_CHARS = 2500
MAX_LIST = 12


async def hover(ls: SafereqServer, params: types.HoverParams) -> types.Hover | None:
    session = ls.session
    key, line, col = session.position(params.text_document.uri, params.position)
    doc = session.workspace.documents[key]
    ws = session.workspace
    parts: list[str] = []
    span: Span | None = None
    element = element_at(doc, line, col)
    if isinstance(element, ClauseAt):
        from .status import index_path

        indexed = await ls.knowledge.clause(index_path(session), element.ref)
        span = element.span
        parts.append(clause_markdown(element.ref, indexed))
    elif element is not None:
        span = element.span
        parts.append(_element(ws, element, key, session.config, _evidence(session)))
        if isinstance(element, IdAt) and (item := ws.item(element.id)) is not None:
            from .impact import hover_section

            parts.append(hover_section(session, item))
    try:
        found = session.findings().get(key, [])
    except Exception:  # a failing rule must not take hovers down with it; the publisher logs it too
        log.exception("checking failed while hovering")
        found = []
    for f in found:
        if f.span.contains(line, col):
            parts.append(_finding(session, f))
            span = span or f.span
    parts = [p for p in parts if p]
    if not parts:
        return None
    kind = _markup_kind(ls)
    return types.Hover(contents=types.MarkupContent(kind=kind, value="\n\n---\n\n".join(parts)),
                       range=session.codec.range(session.lines(key), span) if span else None)


def _markup_kind(ls: SafereqServer) -> types.MarkupKind:
    td = ls.client_capabilities.text_document
    formats = td.hover.content_format if td and td.hover else None
    if formats and types.MarkupKind.Markdown not in formats:
        return types.MarkupKind.PlainText
    return types.MarkupKind.Markdown


def _evidence(session):
    """The workspace's test results, or None (none configured, or they cannot be read)."""
    try:
        return session.test_results.evidence(session)
    except Exception:  # a broken results file must not take hovers down
        log.exception("reading the test results failed while hovering")
        return None


def _result(evidence, item_id: str) -> str:
    """`` — passed`` / `` — **failed**: test: message`` / `` — skipped`` / `` — not run``."""
    status = evidence.status(item_id)
    cases = evidence.by_item.get(item_id, [])
    if status == "failed":
        case = next(c for c in cases if c.failed)
        return f" — **failed**: `{case.full_name}`" + (f": {case.message}" if case.message else "")
    return f" — *{status}*"


def _element(ws: Workspace, element, key: str, config: Config, evidence=None) -> str:
    if isinstance(element, IdAt):
        return _id(ws, element.id, key, config, evidence)
    if isinstance(element, AsilAt):
        return _asil(ws, element)
    if isinstance(element, ClassAt):
        return _class(element)
    if isinstance(element, KeyAt):
        return f"**{element.attribute.raw_key}** — attribute `{element.attribute.key}`"
    return ""


def _names(links: tuple[LinkedId, ...] | list[LinkedId], config: Config | None = None, evidence=None) -> str:
    out = []
    for link in links[:MAX_LIST]:
        if evidence is not None:
            out.append(f"**{link.id}**" + (f" {link.item.title}" if link.item is not None else "")
                       + _result(evidence, link.id))
        elif link.item is not None:
            out.append(f"**{link.id}** {link.item.title}")
        elif link.defined:
            out.append(f"**{link.id}** (hazardous event)")
        elif config is not None and config.external(link.id):
            url = config.external_url(link.id)
            out.append(f"**{link.id}** — *external*" + (f" ([open]({url}))" if url else ""))
        else:
            out.append(f"**{link.id}** — *not defined*")
    more = len(links) - MAX_LIST
    return "; ".join(out) + (f"; … {more} more" if more > 0 else "") if out else "—"


def _items(items: tuple[Item, ...]) -> str:
    shown = [f"**{it.id}** {it.title}" for it in items[:MAX_LIST]]
    more = len(items) - MAX_LIST
    return "; ".join(shown) + (f"; … {more} more" if more > 0 else "") if shown else "—"


def _id(ws: Workspace, item_id: str, key: str, config: Config, evidence=None) -> str:
    item = ws.item(item_id)
    if item is None:
        event = event_view(ws, item_id)
        if event is None:
            return _external(item_id, config) or f"**{item_id}** is not defined anywhere in the workspace."
        lines = [f"**{item_id}** · hazardous event"]
        for _path, row in event.rows[:3]:
            cells = row.cells
            sec = "/".join(cells[k].text for k in ("severity", "exposure", "controllability") if k in cells)
            title = cells["title"].text if "title" in cells else ""
            lines.append(f"- {title + ' — ' if title else ''}S/E/C {sec or '?'}, ASIL {cells['asil'].text if 'asil' in cells else '?'}")
        if event.computed_asil:
            lines.append(f"\nS/E/C gives ASIL **{event.computed_asil}** (ISO 26262-3:2018 Table 4)")
        lines.append(f"\n**Safety goals:** {_names(list(event.goals))}")
        return "\n".join(lines)
    view = item_view(ws, item)
    value = stated_asil(item)
    head = f"**{item.id}** · {view.kind_name}" + (f" · ASIL {value}" if value else "")
    out = [head, f"*{item.title}*"]
    if item.statement:
        statement = item.statement.text
        out.append("> " + (statement if len(statement) <= 600 else statement[:600] + "…"))
        out.append("**EARS:** " + describe_ears(statement, item.language, config.not_modal(item.language)))
    out.append("**ASIL:** " + "; ".join(view.asil.lines))
    out.append(f"**Parents:** {_names(view.parents, config)}")
    out.append(f"**Children:** {_items(view.children)}")
    if view.hazards:
        out.append(f"**Hazards:** {_names(view.hazards)}")
    if view.category != "verification" or view.verified_by:
        out.append(f"**Verified by:** {_names(view.verified_by, config, evidence)}")
    if evidence is not None and view.category == "verification":
        out.append(f"**Last result:**{_result(evidence, item.id)[2:]}")
    if view.verifies:
        out.append(f"**Verifies:** {_items(view.verifies)}")
    if item.path != key:
        out.append(f"*Defined in* `{item.path}`, line {item.line + 1}")
    if view.definitions > 1:
        out.append(f"⚠ defined {view.definitions} times in the workspace")
    return "\n\n".join(out)


def _external(item_id: str, config: Config) -> str:
    """Where an item of ``external-ids`` lives: outside the workspace, at the configured URL if any."""
    pattern = config.external(item_id)
    if pattern is None:
        return ""
    url = config.external_url(item_id)
    where = f" — [{item_id}]({url})" if url else ""
    return (f"**{item_id}** · external item{where}\n\nKept outside the workspace (`external-ids` pattern "
            f"`{pattern}`): its ID format is checked, its existence is not.")


def _asil(ws: Workspace, element: AsilAt) -> str:
    from ..workspace.asil import decomposition_schemes, determination_clause, determine_asil, parse_asil

    value = parse_asil(element.text)
    if value is None:
        return f"`{element.text}` is not an ASIL: use QM, A, B, C, D or a decomposed ASIL such as B(D)."
    lines = [f"**ASIL {value}**"]
    if element.item is not None:
        lines += [f"- {line}" for line in explain_asil(ws, element.item).lines]
    elif element.row is not None:
        cells = element.row.cells
        if all(k in cells for k in ("severity", "exposure", "controllability")):
            s, e, c = (cells[k].text for k in ("severity", "exposure", "controllability"))
            given = determine_asil(s, e, c)
            verdict = "agrees" if given == value.level else "**disagrees**"
            lines.append(f"- S/E/C {s}/{e}/{c} gives ASIL {given or 'n/a (invalid class)'} "
                         f"({determination_clause()}); the stated ASIL {verdict}")
    if value.decomposed and value.original:
        schemes = ", ".join(" + ".join(f"{p}({value.original})" for p in pair)
                            for pair in decomposition_schemes(value.original))
        lines.append(f"- decomposition schemes of ASIL {value.original}: {schemes}")
    return "\n".join(lines)


def _class(element: ClassAt) -> str:
    out = [f"**{element.kind.capitalize()} class {element.text}**"]
    if element.item is not None:
        sec = sec_classes(element.item)
        if sec is not None:
            out.append(f"S/E/C {sec} gives ASIL {sec.asil or 'n/a (invalid class)'} (ISO 26262-3:2018 Table 4)")
    return "\n\n".join(out)


def _indexed_markdown(ref: ClauseRef, text: ClauseText) -> str:
    edition = f"{text.document}:{text.year}" if text.year else text.document
    number = f"§{text.clause}" if text.clause[:1].isdigit() else text.clause
    out = [f"**{edition} {number}" + (f" — {text.title}**" if text.title else "**")]
    if ref.year and text.year and ref.year != text.year:
        out.append(f"⚠ the index holds the {text.year} edition; this reference names {ref.year}")
    body = text.text.strip()
    if body:
        out.append(body if len(body) <= MAX_DOC_CHARS else body[:MAX_DOC_CHARS] + "…")
    if text.children:
        out.append("Subclauses: " + "; ".join(f"{c} {t}" for c, t in text.children[:MAX_LIST]))
    where = Path(text.source).name if text.source else "the knowledge base"
    pages = f", page {', '.join(str(p) for p in text.pages)}" if text.pages else ""
    out.append(f"*From the knowledge base: {where}{pages}.*")
    return "\n\n".join(out)


def clause_markdown(ref: ClauseRef, indexed: ClauseText | None = None) -> str:
    """The indexed clause text if given, else the catalogue entry (title, summary, where it sits), else the
    reference's parsed parts."""
    if indexed is not None and (indexed.text.strip() or indexed.title):
        return _indexed_markdown(ref, indexed)
    parsed = (f"**{ref}** — document {ref.document}" + (f", edition {ref.year}" if ref.year else "")
              + (f", clause {ref.clause}" if ref.clause else ""))
    try:
        from ..knowledge.catalogue import get_catalogue
    except ImportError:
        return parsed + "\n\n*The clause catalogue is unavailable.*"
    try:
        catalogue = get_catalogue()
        entry = catalogue.lookup(ref)
    except Exception:
        log.exception("clause catalogue lookup failed")
        return parsed + "\n\n*The clause catalogue is unavailable.*"
    if entry is None:
        doc = catalogue.document(ref.document)
        note = "not in the clause catalogue" if doc is not None else "a document the clause catalogue does not cover"
        return f"{parsed}\n\n*{note}*" + (f"\n\n*{doc.title}*" if doc is not None and doc.title else "")
    trail = " › ".join(f"{c} {t}" for c, t in catalogue.title_path(entry.document, entry.clause)[:-1])
    edition = f"{entry.document}:{entry.year}" if entry.year else entry.document
    out = [f"**{edition} §{entry.clause} — {entry.title}**" if entry.clause[0].isdigit()
           else f"**{edition} {entry.clause} — {entry.title}**"]
    if ref.year and entry.year and ref.year != entry.year:
        out.append(f"⚠ the catalogue describes the {entry.year} edition; this reference names {ref.year}")
    if not entry.confirmed:
        out.append(f"⚠ this clause number (or its title) is not confirmed for the {entry.year or 'catalogued'} "
                   "edition: check it in the standard before citing it")
    if trail:
        out.append(f"*{trail}*")
    if entry.summary:
        out.append(entry.summary)
    out.append("*From safereq's clause catalogue: clause numbers and titles are facts; the summary is in our words.*")
    return "\n\n".join(out)


def _finding(session, f) -> str:
    info = session.rule_info(f.rule)
    out = [f"**{f.rule}** ({f.severity.label}): {f.message}"]
    if info is not None:
        out.append(f"*{info.summary}*")
        try:
            text = info.docs_text()
        except OSError:
            text = ""
        body = "\n".join(line for line in text.splitlines() if not line.startswith("# ")).strip()
        if body:
            out.append(body if len(body) <= MAX_DOC_CHARS else body[:MAX_DOC_CHARS] + "…")
    return "\n\n".join(out)
