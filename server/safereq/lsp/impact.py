"""Change impact in the editor: suspect links in lenses and the trace, what a change puts in question in the
hover, and "Mark reviewed" (one link, one item, or every link of a document) as code actions.

The comparison is the core's (:mod:`safereq.impact`); this module reads the session's review state
(``Session.review``, reloaded when ``safereq-review.jsonl`` changes) and translates. ``safereq.markReviewed``
takes ``[uri, scope, target]``: scope ``"link"`` with target ``"CHILD:PARENT"``, ``"item"`` with an item ID,
or ``"document"`` (target ignored: every link held by the items of ``uri``); it writes the review file
atomically and re-checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..model.ranges import Span
from .command_names import MARK_REVIEWED
from .errors import invalid

if TYPE_CHECKING:
    from ..impact.suspect import Suspect
    from ..model.document import Item
    from .server import SafereqServer
    from .session import Session

RULE = "trace/suspect-link"
MAX_LENSES = 3
SCOPES = ("link", "item", "document")


def _suspects(session: Session, items: list[Item]) -> list[Suspect]:
    from ..impact.suspect import SnapshotCache, suspects

    review = session.review
    if review is None or not review.recorded or session.checker.severities.get(RULE) is None:
        return []
    from ..impact.snapshot import keys_for

    return suspects(session.workspace, review, SnapshotCache(keys_for(session.config.impact_keys)), items)


def _what(s: Suspect) -> str:
    from ..impact.snapshot import describe

    return describe(s.changed, width=40)


def suspect_lenses(session: Session, key: str) -> list[tuple[Span, str, str]]:
    """(heading span, title, item ID) per suspect item of the document: what changed in what it depends on."""
    doc = session.workspace.documents[key]
    by_holder: dict[int, list[Suspect]] = {}
    for s in _suspects(session, list(doc.items)):
        by_holder.setdefault(id(s.link.holder), []).append(s)
    out = []
    for item in doc.items:
        found = by_holder.get(id(item))
        if not found:
            continue
        for s in found[:MAX_LENSES]:
            out.append((item.heading_span, f"⚠ {s.link.parent.id} changed: {_what(s)}", item.id))
        if len(found) > MAX_LENSES:
            out.append((item.heading_span, f"⚠ {len(found) - MAX_LENSES} more suspect links", item.id))
    return out


def trace_marks(session: Session) -> dict[tuple[str, str], str]:
    """(dependent, dependency) → what changed, for every suspect link of the workspace (the trace view)."""
    return {(s.link.child.id, s.link.parent.id): _what(s) for s in _suspects(session, list(session.workspace.items()))}


def hover_section(session: Session, item: Item) -> str:
    """What the item's change puts in question: the links to it that are suspect now, and why; or which
    suspect links the item itself holds."""
    ws = session.workspace
    holders = [ref.source for ref in ws.references(item.id) if ref.source is not None] + [item]
    found = [s for s in _suspects(session, holders) if s.link.parent is item or s.link.holder is item]
    if not found:
        return ""
    lines = []
    mine = [s for s in found if s.link.parent is item]
    if mine:
        lines.append(f"**Changed since reviewed** ({_what(mine[0])}): puts in question "
                     + ", ".join(f"**{s.link.child.id}**" for s in mine[:12])
                     + (f", … {len(mine) - 12} more" if len(mine) > 12 else ""))
    theirs = [s for s in found if s.link.parent is not item]
    for s in theirs[:MAX_LENSES]:
        lines.append(f"⚠ **{s.link.parent.id}** changed since {s.link.child.id} was reviewed: {_what(s)}")
    return "\n\n".join(lines)


def code_actions(session: Session, uri: str, key: str, wanted: Span,
                 diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    """Mark reviewed: this link, every link of the item, every link in the document (suspect findings only)."""
    out: list[types.CodeAction] = []
    seen: set[tuple[str, str]] = set()
    doc = session.workspace.documents[key]
    for finding in session.findings().get(key, []):
        if finding.rule != RULE or not _overlap(finding.span, wanted):
            continue
        holder = doc.item_at(finding.span.start_line)
        if holder is None:
            continue
        for s in _suspects(session, [holder]):
            if s.link.link.span != finding.span:
                continue
            child, parent = s.link.child.id, s.link.parent.id
            matching = [d for d in diagnostics if d.code == RULE] or None
            for scope, target, title in (("link", f"{child}:{parent}", f"Mark reviewed: {child} against {parent}"),
                                         ("item", child, f"Mark reviewed: every link of {child}"),
                                         ("document", "", "Mark reviewed: every link in this document")):
                if (scope, target) in seen:
                    continue
                seen.add((scope, target))
                out.append(types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, diagnostics=matching,
                                            command=types.Command(title=title, command=MARK_REVIEWED,
                                                                  arguments=[uri, scope, target])))
    return out


def _overlap(a: Span, b: Span) -> bool:
    return (a.start_line, a.start_col) <= (b.end_line, b.end_col) and (b.start_line, b.start_col) <= (a.end_line, a.end_col)


def mark_reviewed(ls: SafereqServer, args: list[Any]) -> dict[str, Any]:
    from ..impact.review_state import FILE_NAME, ReviewState
    from ..impact.suspect import mark_reviewed as record, trace_links

    if len(args) != 3 or not all(isinstance(a, str) for a in args) or args[1] not in SCOPES:
        raise invalid(f"{MARK_REVIEWED} expects [uri, scope, target] with scope one of {', '.join(SCOPES)}, e.g. "
                      '["file:///project/fsr.md", "link", "FSR-1:SG-1"]')
    uri, scope, target = args
    session = ls.session
    key = session.key(uri)
    if session.review_error:
        raise invalid(f"the review file cannot be read ({session.review_error}): fix or delete it first")
    ws = session.workspace
    links = list(trace_links(ws))
    if scope == "link":
        child, _, parent = target.partition(":")
        chosen = [tl for tl in links if tl.child.id == child.strip() and tl.parent.id == parent.strip()]
        what = f"{child.strip()} against {parent.strip()}"
    elif scope == "item":
        chosen = [tl for tl in links if tl.child.id == target.strip()]
        what = f"every link of {target.strip()}"
    else:
        chosen = [tl for tl in links if tl.holder.path == key or tl.child.path == key]
        what = "every link in the document"
    if not chosen:
        raise invalid(f"no trace link to mark reviewed for {what}")
    from ..impact.snapshot import keys_for
    from ..impact.suspect import SnapshotCache

    state = session.review if session.review is not None else ReviewState()
    changed = record(ws, state, chosen, SnapshotCache(keys_for(session.config.impact_keys)))
    try:
        state.save(session.review_root / FILE_NAME)
    except OSError as exc:
        raise invalid(f"cannot write {FILE_NAME}: {exc.strerror or exc}") from None
    session.reload_review()
    ls.publisher.schedule(now=True)
    message = f"Marked reviewed: {what} ({len(chosen)} link{'s' if len(chosen) != 1 else ''}, {changed} updated)"
    return {"reviewed": len(chosen), "updated": changed, "message": message}
