"""Where the knowledge base and the suggestion agent plug into the language server's commands.

``safereq.indexKnowledgeBase`` runs in a thread of the server (:mod:`.indexing`); derive / suggest links /
suggest rebuttals run in the agent's worker process (:mod:`.agent_actions`), so that typing never waits for
either. Each receives the session (documents, settings such as ``settings.llm``, ``settings.index`` and
``settings.corpora``) and the command arguments, and returns the command's JSON result (see
client-vscode/src/protocol.ts for the shapes the extension expects).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .command_names import DERIVE_REQUIREMENTS, INDEX_KNOWLEDGE_BASE, SUGGEST_REBUTTALS, SUGGEST_TRACE_LINKS
from .errors import invalid

if TYPE_CHECKING:
    from .server import SafereqServer

COMMANDS = (INDEX_KNOWLEDGE_BASE, DERIVE_REQUIREMENTS, SUGGEST_TRACE_LINKS, SUGGEST_REBUTTALS)

API_KEY_ENV = "SAFEREQ_LLM_API_KEY"


async def run(ls: SafereqServer, command: str, args: list[Any]) -> Any:
    """Carry out one knowledge-base or agent command."""
    if command == INDEX_KNOWLEDGE_BASE:
        from .indexing import index_knowledge_base

        return await index_knowledge_base(ls, args)
    if command in (DERIVE_REQUIREMENTS, SUGGEST_TRACE_LINKS, SUGGEST_REBUTTALS):
        from .agent_actions import run_agent_command

        return await run_agent_command(ls, command, args)
    raise invalid(f"unknown command {command}")
