"""Bad arguments give a tool error with a clear sentence, never a traceback or a dead server."""

from __future__ import annotations

from .conftest import call, refused, serve


async def test_bad_arguments_are_tool_errors_and_the_server_keeps_answering(workspace):
    async with serve(workspace) as client:
        assert "no item NOPE-1" in await refused(client, "get_item", {"id": "NOPE-1"})
        assert "give an item ID" in await refused(client, "get_item", {"id": "  "})
        await refused(client, "get_item", {})  # a required argument missing: schema validation
        await refused(client, "get_item", {"id": 7})  # wrong type
        await refused(client, "find_items", {"limit": 500})  # over the page limit
        await refused(client, "find_items", {"offset": -1})
        await refused(client, "check", {"min_severity": "fatal"})
        await refused(client, "coverage", {"table": "everything"})
        assert "did you mean 'trace/dangling-link'" in await refused(client, "explain_rule", {"rule": "trace/dangling-links"})
        assert "unknown rule" in await refused(client, "explain_rule", {"rule": "x" * 150})
        assert "give a query" in await refused(client, "search_knowledge", {"query": "   "})
        await refused(client, "search_knowledge", {"query": "q" * 600})
        assert "not a revision" in await refused(client, "change_impact", {"old_rev": "--output=/tmp/x"})
        message = await refused(client, "change_impact", {"old_rev": "no-such-revision"})
        assert "no-such-revision" in message
        assert "no item" in await refused(client, "derive_requirements", {"id": "NOPE-2"})
        unknown = await client.call_tool("no_such_tool", {})
        assert unknown.is_error
        assert (await call(client, "find_items", {"id": "FSR-1"}))["total"] == 1  # still serving
