"""The hover of an ID that ``external-ids`` declares: it says the item lives outside the workspace and links
the configured URL (the markdown the hover request returns, built without a client)."""

from __future__ import annotations

from textwrap import dedent

from safereq.checks import Config
from safereq.lsp.hover import _id
from safereq.workspace import Workspace

DOC = dedent("""\
    ## FSR-1: Limit the torque

    The controller shall limit the torque.

    - Verified by: TC-12
    """)
def test_a_hover_on_an_external_id_says_where_it_lives():
    ws = Workspace()
    ws.update("fsr.md", DOC)
    config = Config(external_ids=("TC-*",), external_id_url="https://tests.example/browse/{id}")
    text = _id(ws, "TC-12", "fsr.md", config)
    assert "external item" in text and "https://tests.example/browse/TC-12" in text and "`TC-*`" in text
    assert "*external*" in _id(ws, "FSR-1", "fsr.md", config)  # the item's own hover lists it so
    assert "not defined" in _id(ws, "TK-1", "fsr.md", config)
