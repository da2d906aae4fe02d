"""find_items: the filters of the MCP server's find_items tool, each alone and together."""

from __future__ import annotations

from safereq.workspace import Workspace
from safereq.workspace.search import find_items

DOC = """\
# Goals

## SG-1: Avoid unintended torque
The system shall not apply unintended torque.
- ASIL: D

## FSR-1: Limit torque
The arbiter shall limit the torque to 3 Nm.
- ASIL: D
- Derived from: SG-1
- FTTI: 100 ms

## FSR-2: Warn the driver
The display shall warn the driver.
- ASIL: B(D)
- Derived from: SG-1
"""


def _ids(items):
    return [it.id for it in items]


def test_each_filter_and_their_combination():
    ws = Workspace()
    ws.update("a.md", DOC)
    assert _ids(find_items(ws, kind="fsr")) == ["FSR-1", "FSR-2"]
    assert _ids(find_items(ws, kind="safety-goal")) == ["SG-1"]
    assert _ids(find_items(ws, asil="ASIL D")) == ["SG-1", "FSR-1"]
    assert _ids(find_items(ws, asil="b(d)")) == ["FSR-2"]
    assert _ids(find_items(ws, attribute="ftti")) == ["FSR-1"]
    assert _ids(find_items(ws, attribute="ftti=200")) == []
    assert _ids(find_items(ws, text="WARN")) == ["FSR-2"]
    assert _ids(find_items(ws, item_id="fsr-*")) == ["FSR-1", "FSR-2"]
    assert _ids(find_items(ws, item_id="FSR-1")) == ["FSR-1"]
    assert _ids(find_items(ws, kind="FSR", asil="D", text="torque")) == ["FSR-1"]
    assert _ids(find_items(ws, document="b.md")) == []
