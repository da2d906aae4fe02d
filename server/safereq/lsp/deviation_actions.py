"""*Accept this finding…*: write an accepted deviation (rule, words, reason) into the finding's item.

The code action runs ``safereq.acceptFinding`` with ``[uri, version, rule, line, character]`` (the finding's
start as the client counts it). The reason is the sixth argument: VS Code's extension asks for it in an input
box and adds it; another editor's user passes it (e.g. ``vim.lsp.buf.execute_command``). The server writes
the line with ``workspace/applyEdit`` as a versioned edit, so the deviation is in the text, undoable and
reviewed with the document (checks/engine/deviations.py reads it back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..checks.engine.deviations import accept_edit, clean_reason
from ..checks.findings import Finding
from ..model.ranges import Span
from .command_names import ACCEPT_FINDING
from .errors import failed, invalid

if TYPE_CHECKING:
    from .server import SafereqServer
    from .session import Session

TITLE = "Accept this finding…"
_USAGE = (f"{ACCEPT_FINDING} expects [uri, version, rule, line, character, reason], e.g. "
          '["file:///project/fsr.md", 7, "modal/non-binding-verb", 12, 10, "quoted from the customer\'s specification"]')


def acceptable(finding: Finding, session: Session, key: str) -> bool:
    """Whether a deviation can accept ``finding``: it is about an item and not about a deviation itself."""
    if finding.rule.startswith("deviation/") or finding.rule.startswith("io/"):
        return False
    return session.workspace.documents[key].item_at(finding.span.start_line) is not None


def accept_actions(session: Session, uri: str, key: str, wanted: Span, sent: list[types.Diagnostic],
                   overlaps: Any) -> list[types.CodeAction]:
    """One *Accept this finding…* action per finding of an item in ``wanted``."""
    lines = session.lines(key)
    out = []
    for finding in session.findings().get(key, []):
        if not overlaps(finding.span, wanted) or not acceptable(finding, session, key):
            continue
        rng = session.codec.range(lines, finding.span)
        matching = [d for d in sent if d.code == finding.rule and d.range == rng] or None
        out.append(types.CodeAction(
            title=f"{TITLE} ({finding.rule})",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=matching,
            command=types.Command(TITLE, ACCEPT_FINDING, arguments=
                                  [uri, session.version(key), finding.rule, rng.start.line, rng.start.character]),
        ))
    return out


def _arguments(args: list[Any]) -> tuple[str, int | None, str, int, int, str]:
    if (len(args) not in (5, 6) or not isinstance(args[0], str) or not (args[1] is None or isinstance(args[1], int))
            or not isinstance(args[2], str) or any(not isinstance(a, int) or isinstance(a, bool) or a < 0
                                                   for a in args[3:5])):
        raise invalid(_USAGE)
    reason = args[5] if len(args) == 6 else None
    if not isinstance(reason, str) or not clean_reason(reason):
        raise invalid(f"an accepted deviation needs a reason: pass it as the sixth argument ({_USAGE})")
    return args[0], args[1], args[2], args[3], args[4], reason


async def accept_finding(ls: SafereqServer, args: list[Any]) -> dict[str, Any]:
    """Write the deviation for the finding at ``[uri, version, rule, line, character]`` with ``reason``."""
    from .edits import workspace_edit

    uri, version, rule, line, character, reason = _arguments(args)
    session = ls.session
    session.sync()
    key = session.key(uri)
    if session.version(key) != version:
        raise failed("the document changed since this finding was shown: try the refreshed quick fix")
    lines = session.lines(key)
    start = session.codec.to_core(lines, types.Position(line, character))
    finding = next((f for f in session.findings().get(key, [])
                    if f.rule == rule and (f.span.start_line, f.span.start_col) == tuple(start)), None)
    if finding is None or not acceptable(finding, session, key):
        raise failed(f"no {rule} finding of an item at {line + 1}:{character + 1} any more: nothing was accepted")
    edit = accept_edit(session.workspace.documents[key], finding, reason)
    response = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=workspace_edit(session, ls.client_capabilities, [edit]), label=f"safereq: accept {rule}"))
    if not (response and response.applied):
        detail = f" ({response.failure_reason})" if response and response.failure_reason else ""
        return {"applied": False, "message": f"The editor did not apply the edit{detail}; nothing was accepted."}
    return {"applied": True, "message": f"Accepted {rule} as a deviation: {clean_reason(reason)}"}
