"""Quick fixes: every fix a check attached to a finding becomes a code action with a versioned WorkspaceEdit.

The checks decide the fixes (modal verb → *shall*, ASIL → the computed or inherited value, dangling link →
the closest ID, add missing attributes, split a requirement with two binding verbs, ...); the first fix of a
finding is its preferred one. Nothing here knows about particular rules, so new rules' fixes appear as is.
Every finding of an item also gets *Accept this finding…* (deviation_actions.py), and a request for
``source.fixAll`` gets the document's safe fixes as one action (fix_all.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..model.ranges import Span
from .diagnostics import SOURCE
from .edits import workspace_edit

if TYPE_CHECKING:
    from .server import SafereqServer


def _overlaps(a: Span, b: Span) -> bool:
    return (a.start_line, a.start_col) <= (b.end_line, b.end_col) and (b.start_line, b.start_col) <= (a.end_line, a.end_col)


def code_actions(ls: SafereqServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    from .agent_actions import ACTION_KIND, code_actions as agent_actions
    from .deviation_actions import accept_actions
    from .fix_all import fix_all_action, wanted as fix_all_wanted

    only = [str(getattr(k, "value", k)) for k in params.context.only or []]
    agent = not only or any(ACTION_KIND.startswith(k) for k in only)
    if only and fix_all_wanted(only):  # editor.codeActionsOnSave, or the Source Action menu
        fix_all = fix_all_action(ls, ls.session.key(params.text_document.uri))
        return [fix_all] if fix_all is not None else None
    if only and not any(types.CodeActionKind.QuickFix.value.startswith(k) for k in only):
        return agent_actions(ls, params.text_document.uri, params.range.start.line) or None if agent else None
    session = ls.session
    key = session.key(params.text_document.uri)
    lines = session.lines(key)
    start = session.codec.to_core(lines, params.range.start)
    end = session.codec.to_core(lines, params.range.end)
    wanted = Span(start[0], start[1], end[0], end[1])
    sent = [d for d in params.context.diagnostics if d.source == SOURCE]
    out: list[types.CodeAction] = []
    for finding in session.findings().get(key, []):
        if not finding.fixes or not _overlaps(finding.span, wanted):
            continue
        rng = session.codec.range(lines, finding.span)
        matching = [d for d in sent if d.code == finding.rule and d.range == rng] or None
        for index, fix in enumerate(finding.fixes):
            out.append(types.CodeAction(
                title=fix.title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=matching,
                is_preferred=True if index == 0 else None,
                edit=workspace_edit(session, ls.client_capabilities, fix.edits),
            ))
    from .impact import code_actions as review_actions

    out.extend(review_actions(session, params.text_document.uri, key, wanted, sent))
    # Accepting a finding is the last resort, after every way of resolving it.
    out.extend(accept_actions(session, params.text_document.uri, key, wanted, sent, _overlaps))
    if agent:
        out.extend(agent_actions(ls, params.text_document.uri, start[0]))
    return out or None
