"""Applying fix edits (code-point spans) to text, and choosing safe fixes that do not collide."""

from __future__ import annotations

import pytest

from safereq.checks import EditConflict, apply_edits, plan_fixes
from safereq.checks.findings import Edit, Finding, Fix, Severity
from safereq.model.ranges import Span


def _e(sl, sc, el, ec, text, path="a.md"):
    return Edit(path, Span(sl, sc, el, ec), text)


def test_edits_in_any_order_with_code_point_columns():
    text = "## fsr-1: 限制扭矩 🚗 x\nASIL: b\n"
    out = apply_edits(text, [_e(1, 6, 1, 7, "B"), _e(0, 3, 0, 8, "FSR-1"), _e(0, 17, 0, 18, "y")])
    assert out == "## FSR-1: 限制扭矩 🚗 y\nASIL: B\n"


def test_insertions_deletions_and_multi_line_spans():
    text = "a\nb\nc\n"
    assert apply_edits(text, [_e(0, 1, 2, 0, "")]) == "ac\n"
    assert apply_edits(text, [_e(1, 0, 1, 0, "x"), _e(1, 0, 1, 0, "y")]) == "a\nxyb\nc\n"  # order kept
    assert apply_edits(text, [_e(1, 0, 1, 1, "B"), _e(1, 1, 1, 1, "!")]) == "a\nB!\nc\n"  # touching is fine
    assert apply_edits(text, []) == text


def test_positions_past_the_end_are_clamped_like_lsp():
    text = "ab\ncd"
    assert apply_edits(text, [_e(0, 99, 0, 99, "!")]) == "ab!\ncd"
    assert apply_edits(text, [_e(7, 0, 7, 0, "\nef")]) == "ab\ncd\nef"


def test_overlapping_edits_are_refused():
    with pytest.raises(EditConflict):
        apply_edits("abcdef", [_e(0, 0, 0, 3, "x"), _e(0, 2, 0, 4, "y")])
    with pytest.raises(EditConflict):
        apply_edits("abcdef", [_e(0, 0, 0, 4, "x"), _e(0, 2, 0, 2, "y")])  # insertion inside a replacement
    with pytest.raises(ValueError):
        apply_edits("abc", [_e(0, 2, 0, 1, "x")])


def _finding(span: Span, *, safe: bool = True, path: str = "a.md", fix: bool = True) -> Finding:
    fixes = (Fix("t", (Edit(path, span, "X"),), safe=safe),) if fix else ()
    return Finding("x/y", Severity.WARNING, "m", path, span, fixes)


def test_plan_takes_safe_fixes_and_defers_collisions():
    a = _finding(Span(0, 0, 0, 3))
    clash = _finding(Span(0, 2, 0, 5))
    unsafe = _finding(Span(1, 0, 1, 1), safe=False)
    other = _finding(Span(0, 0, 0, 3), path="b.md")
    none = _finding(Span(2, 0, 2, 1), fix=False)
    plan = plan_fixes([a, clash, unsafe, other, none])
    assert plan.fixes == [a.fix, other.fix]
    assert plan.deferred == 1
    assert {p: len(e) for p, e in plan.edits.items()} == {"a.md": 1, "b.md": 1}
    assert plan_fixes([a, other], paths=["b.md"]).fixes == [other.fix]


def test_two_insertions_at_one_point_are_not_planned_together():
    p = plan_fixes([_finding(Span(0, 1, 0, 1)), _finding(Span(0, 1, 0, 1))])
    assert len(p.fixes) == 1 and p.deferred == 1
