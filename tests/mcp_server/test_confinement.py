"""Paths stay inside the workspace folders: no '..', no absolute path elsewhere, no symbolic link out."""

from __future__ import annotations

import pytest

from .conftest import call, refused, serve

SECRET = "## REQ-99: Outside requirement\nThe outside system shall stay unseen.\n"


@pytest.fixture
def linked(workspace, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET, encoding="utf-8")
    (workspace / "link.md").symlink_to(outside / "secret.md")
    (workspace / "linked-folder").symlink_to(outside, target_is_directory=True)
    return workspace, outside


async def test_paths_with_dot_dot_or_outside_are_refused(linked):
    workspace, outside = linked
    async with serve(workspace) as client:
        for path in ("../outside/secret.md", "docs/../../outside/secret.md", "..\\outside\\secret.md"):
            assert "'..' is not allowed" in await refused(client, "check", {"path": path})
        assert "outside the workspace" in await refused(client, "check", {"path": str(outside / "secret.md")})
        assert "outside the workspace" in await refused(client, "check", {"path": "link.md"})
        assert "outside the workspace" in await refused(client, "find_items", {"document": "linked-folder/secret.md"})
        assert "not a requirement document" in await refused(client, "check", {"path": "safereq.toml"})


async def test_files_reached_through_links_out_are_not_loaded(linked):
    workspace, _ = linked
    async with serve(workspace) as client:
        found = await call(client, "find_items", {"id": "REQ-99"})
        assert found["total"] == 0
        assert "no item REQ-99" in await refused(client, "get_item", {"id": "REQ-99"})
        listed = await client.read_resource("safereq://documents")
    assert "secret" not in listed.contents[0].text


async def test_a_document_resource_outside_is_refused(linked):
    from mcp.shared.exceptions import MCPError

    workspace, _ = linked
    async with serve(workspace) as client:
        for uri in ("safereq://document/link.md", "safereq://document/linked-folder/secret.md",
                    "safereq://document/..%2Foutside%2Fsecret.md"):
            with pytest.raises(MCPError) as caught:
                await client.read_resource(uri)
            assert "Traceback" not in str(caught.value)
        inside = await client.read_resource("safereq://document/functional-safety-concept.md")
    assert inside.contents[0].text.startswith("# Functional safety concept")
