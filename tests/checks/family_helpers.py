"""Helpers shared by the ASIL and trace rule tests: a workspace from inline documents, a checker with only
those two families on, and the findings of one rule."""

from __future__ import annotations

from textwrap import dedent

from safereq.checks.config import Config
from safereq.checks.engine import Checker
from safereq.checks.findings import Finding
from safereq.checks.registry import rule_infos
from safereq.workspace import Workspace


def asil_trace_checker() -> Checker:
    """A checker with only the asil/ and trace/ rules on, so other families cannot disturb these tests."""
    return Checker(Config(rules={rid: "off" for rid in rule_infos() if not rid.startswith(("asil/", "trace/"))}))


def workspace(**docs: str) -> Workspace:
    """A workspace with one document ``<name>.md`` per keyword argument (text dedented)."""
    ws = Workspace()
    for name, text in docs.items():
        ws.update(f"{name}.md", dedent(text))
    return ws


def found(ws: Workspace, rule: str, checker: Checker | None = None) -> list[Finding]:
    return [f for f in (checker or asil_trace_checker()).check(ws) if f.rule == rule]
