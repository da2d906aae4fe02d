"""The layers hold: no import circles inside a package, and no package imports one above it.

The order of the layers (docs/dev/architecture.md): model; knowledge (corpora, clause catalogue, index),
which needs only the model; workspace, which reads the clause catalogue for completions; checks; agent;
exchange (the neutral records of a workspace that export, import and the coverage read); then the front
ends (report, lsp, mcp, cli), where lsp and mcp may use report's coverage and page; lsp and mcp never import
each other (each only translates its protocol to the core). An import written only for annotations (under ``if TYPE_CHECKING:``) is no
dependency at run time, and the language server's feature modules annotate with the server class they
serve; every other import counts, also one inside a function.
"""

from __future__ import annotations

import pytest

from .import_graph import cycles, import_graph

GRAPH = import_graph()

# package -> the safereq packages it may import (its own is always allowed; data and config, the
# configuration model, are leaves every layer may read).
ALLOWED = {
    "config": set(),
    "model": set(),
    "knowledge": {"model"},
    "workspace": {"model", "knowledge"},
    "impact": {"model", "workspace"},
    "checks": {"model", "workspace", "impact"},
    "agent": {"model", "workspace", "knowledge", "checks"},
    "exchange": {"model", "workspace"},
    "report": {"model", "checks", "workspace", "exchange"},
    "fragment": {"model", "workspace", "checks"},
    "lsp": {"model", "workspace", "knowledge", "checks", "agent", "impact", "exchange", "report"},
    "mcp": {"model", "workspace", "knowledge", "checks", "agent", "impact", "exchange", "report"},
}


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


@pytest.mark.parametrize("package", ["checks", "lsp", "mcp", "knowledge", "workspace", "model", "agent", "config"])
def test_no_import_circles(package):
    assert cycles(GRAPH, f"safereq.{package}") == []


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_no_upward_imports(package):
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in GRAPH.items() if _package(module) == package
        for target in targets
        if _package(target) not in ALLOWED[package] | {package, "data", "config", ""}
    )
    assert upward == []


def test_circles_are_found():
    """The test above could fail: a made-up circle of three modules is found, a chain is not."""
    graph = {"safereq.x.a": {"safereq.x.b"}, "safereq.x.b": {"safereq.x.c"}, "safereq.x.c": {"safereq.x.a"},
             "safereq.x.d": {"safereq.x.a"}}
    assert cycles(graph, "safereq.x") == [["safereq.x.a", "safereq.x.b", "safereq.x.c"]]
    del graph["safereq.x.c"]
    graph["safereq.x.c"] = set()
    assert cycles(graph, "safereq.x") == []
