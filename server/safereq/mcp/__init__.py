"""``safereq mcp``: a Model Context Protocol server over the workspace it is started in.

A front end beside the CLI and the language server: it only translates between MCP and the core (workspace,
checks, report, impact, knowledge, agent). Read-only, confined to its folders, bounded in size, and every
text taken from documents or corpora is handed out as data in fields named ``untrusted_*``. The ``mcp``
SDK is imported only here, and only when the command runs. See docs/mcp.md.
"""
