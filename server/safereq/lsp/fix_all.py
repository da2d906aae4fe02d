"""Fix all: every safe fix of one document as one versioned edit, the same fixes ``safereq check --fix`` applies.

Which fixes are safe, and which of them can be applied together, is decided in one place
(``checks.plan_fixes``, a fix's ``safe`` flag set by its rule); this module only turns the plan for one
document into a WorkspaceEdit. It is offered two ways: the ``source.fixAll.safereq`` code action, which
``editor.codeActionsOnSave`` runs, and the ``safereq.fixAll`` command (``[uri]``), which applies the edit
with ``workspace/applyEdit`` for editors (and the VS Code command) that call it directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..checks import plan_fixes
from ..checks.findings import Edit
from .command_names import FIX_ALL
from .errors import invalid

if TYPE_CHECKING:
    from .server import SafereqServer
    from .session import Session

KIND = "source.fixAll.safereq"
TITLE = "Fix all safe findings in this document (safereq)"


def safe_edits(session: Session, key: str) -> tuple[list[Edit], int]:
    """The edits of the document's safe fixes that can be applied together, and how many fixes they make."""
    plan = plan_fixes(session.findings().get(key, []), paths=[key])
    return plan.edits.get(key, []), len(plan.fixes)


def wanted(only: list[str]) -> bool:
    """Whether a code action request with ``only`` kinds asks for the fix-all action."""
    return any(KIND == k or KIND.startswith(k + ".") for k in only)


def fix_all_action(ls: SafereqServer, key: str) -> types.CodeAction | None:
    from .edits import workspace_edit

    session = ls.session
    edits, count = safe_edits(session, key)
    if not edits:
        return None
    return types.CodeAction(title=f"{TITLE}: {count} fix{'es' if count != 1 else ''}", kind=KIND,
                            edit=workspace_edit(session, ls.client_capabilities, edits))


async def fix_all_command(ls: SafereqServer, args: list[Any]) -> dict[str, Any]:
    """``safereq.fixAll [uri]``: apply the document's safe fixes; says how many."""
    from .edits import workspace_edit

    if len(args) != 1 or not isinstance(args[0], str) or not args[0]:
        raise invalid(f'{FIX_ALL} expects one argument, the document URI, e.g. ["file:///project/fsr.md"]')
    session = ls.session
    key = session.key(args[0])
    edits, count = safe_edits(session, key)
    if not edits:
        return {"applied": False, "fixed": 0, "message": "No safe fixes in this document."}
    response = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=workspace_edit(session, ls.client_capabilities, edits), label="safereq: fix all"))
    if not (response and response.applied):
        detail = f" ({response.failure_reason})" if response and response.failure_reason else ""
        return {"applied": False, "fixed": 0, "message": f"The editor did not apply the fixes{detail}."}
    return {"applied": True, "fixed": count, "message": f"Applied {count} safe fix{'es' if count != 1 else ''}."}
