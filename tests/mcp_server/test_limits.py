"""Every result is bounded: lists are paged, long texts are cut and say so, huge documents are refused."""

from __future__ import annotations

import pytest

from .conftest import call, serve

N = 260


@pytest.fixture
def big(tmp_path):
    ws = tmp_path / "big"
    ws.mkdir()
    items = [f"## REQ-{k}: Requirement {k}\nThe unit shall report fault {k} within 10 ms.\n" for k in range(N)]
    long_statement = "The unit shall " + "really " * 2000 + "respond.\n"
    (ws / "many.md").write_text("# Many\n\n" + "\n".join(items) + "\n## REQ-999: Long\n" + long_statement,
                                encoding="utf-8")
    filler = "\n".join(f"Paragraph {k}: " + "text " * 40 for k in range(1500))
    (ws / "huge.md").write_text("# Huge\n\n" + filler + "\n", encoding="utf-8")
    return ws


async def test_pages_cover_every_item_once(big):
    async with serve(big) as client:
        seen, offset = [], 0
        while offset is not None:
            page = await call(client, "find_items", {"document": "many.md", "offset": offset, "limit": 200})
            assert len(page["items"]) <= 200 and page["total"] == N + 1
            seen += [i["id"] for i in page["items"]]
            offset = page["next_offset"]
        assert len(seen) == len(set(seen)) == N + 1
        last = await call(client, "find_items", {"document": "many.md", "offset": 10_000})
        assert last["items"] == [] and last["next_offset"] is None


async def test_long_text_is_cut_and_says_so(big):
    async with serve(big) as client:
        item = await call(client, "get_item", {"id": "REQ-999"})
    assert len(item["untrusted_statement"]) < 2100
    assert item["untrusted_statement"].endswith("more characters cut]")


async def test_a_huge_document_resource_is_refused_with_a_pointer(big):
    from mcp.shared.exceptions import MCPError

    async with serve(big) as client:
        with pytest.raises(MCPError) as caught:
            await client.read_resource("safereq://document/huge.md")
        small = await client.read_resource("safereq://document/many.md")
    assert "find_items" in str(caught.value)
    assert small.contents[0].text.startswith("# Many")
