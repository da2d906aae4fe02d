"""Where the suggestion agent plugs into the language server.

The agent (knowledge base, LlamaIndex, an LLM) will run in a worker process so that typing never waits for
it. Until it exists, its commands are announced, so clients can offer them, and answer with a clear
"not available yet" error. The agent work replaces :func:`run` and keeps the same signature: it receives the
session (documents, settings such as ``settings.llm`` and ``settings.corpora``) and the command arguments, and
returns the command's JSON result (see client-vscode/src/protocol.ts for the shapes the extension expects).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import failed

if TYPE_CHECKING:
    from .server import SafereqServer

INDEX_KNOWLEDGE_BASE = "safereq.indexKnowledgeBase"
DERIVE_REQUIREMENTS = "safereq.deriveRequirements"
SUGGEST_TRACE_LINKS = "safereq.suggestTraceLinks"
SUGGEST_REBUTTALS = "safereq.suggestRebuttals"
COMMANDS = (INDEX_KNOWLEDGE_BASE, DERIVE_REQUIREMENTS, SUGGEST_TRACE_LINKS, SUGGEST_REBUTTALS)

API_KEY_ENV = "SAFEREQ_LLM_API_KEY"


async def run(ls: SafereqServer, command: str, args: list[Any]) -> Any:
    """Carry out one agent command: derive / suggest links / suggest rebuttals go to :mod:`.agent_actions`."""
    if command in (DERIVE_REQUIREMENTS, SUGGEST_TRACE_LINKS, SUGGEST_REBUTTALS):
        from .agent_actions import run_agent_command

        return await run_agent_command(ls, command, args)
    raise failed(
        f"{command} is not available yet in this version of the safereq language server: the knowledge-base "
        "and suggestion agent is still being built. Checks, hovers, navigation and quick fixes work without it."
    )
