"""Items and documents as resources; the prompts name the tools and carry no document text."""

from __future__ import annotations

import json

import pytest

from .conftest import serve


async def test_item_and_document_resources(workspace):
    from mcp.shared.exceptions import MCPError

    async with serve(workspace) as client:
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        assert templates == {"safereq://item/{item_id}", "safereq://document/{+path}"}
        item = json.loads((await client.read_resource("safereq://item/FSR-1")).contents[0].text)
        assert item["id"] == "FSR-1" and item["safety_goals"] == ["SG-1"]
        listing = json.loads((await client.read_resource("safereq://documents")).contents[0].text)
        uris = {d["uri"] for d in listing["documents"]}
        assert "safereq://document/zh/%E5%8A%9F%E8%83%BD%E5%AE%89%E5%85%A8%E9%9C%80%E6%B1%82.md" in uris
        zh = await client.read_resource("safereq://document/zh/%E5%8A%9F%E8%83%BD%E5%AE%89%E5%85%A8%E9%9C%80%E6%B1%82.md")
        assert "应" in zh.contents[0].text
        with pytest.raises(MCPError) as caught:
            await client.read_resource("safereq://item/NOPE-1")
        assert "no item NOPE-1" in str(caught.value)


async def test_prompts_name_the_tools(workspace):
    async with serve(workspace) as client:
        names = {p.name for p in (await client.list_prompts()).prompts}
        assert names == {"review_requirement", "change_questions", "trace_item"}
        review = await client.get_prompt("review_requirement", {"item_id": "FSR-3"})
        text = review.messages[0].content.text
        assert "get_item" in text and "FSR-3" in text and "explain_rule" in text
        assert "must give priority" not in text  # no document text in an instruction
        change = await client.get_prompt("change_questions", {"old_rev": "HEAD~1"})
        assert "change_impact" in change.messages[0].content.text
