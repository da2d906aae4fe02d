"""A refusal becomes the client's sentence; a bug becomes one line naming it, never a traceback."""

from __future__ import annotations

import pytest


def test_refusals_and_bugs_become_sdk_errors_with_one_line():
    from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError

    from safereq.mcp.errors import Refused
    from safereq.mcp.server import guarded

    def refuse(**_):
        raise Refused("no item X-1 in this workspace")

    def crash(**_):
        return {}["missing"]

    with pytest.raises(ToolError) as caught:
        guarded(refuse, ToolError, ToolError)()
    assert str(caught.value) == "no item X-1 in this workspace"
    with pytest.raises(ToolError) as caught:
        guarded(crash, ToolError, ToolError)()
    assert str(caught.value).startswith("internal error in safereq: KeyError: 'missing'")
    assert "Traceback" not in str(caught.value) and caught.value.__cause__ is None
    with pytest.raises(ResourceNotFoundError):
        guarded(refuse, ResourceNotFoundError, ResourceError)()
    with pytest.raises(ResourceError) as caught:
        guarded(crash, ResourceNotFoundError, ResourceError)()
    assert "KeyError" in str(caught.value)
