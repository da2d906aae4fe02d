"""Apply fix edits to document text, and choose which safe fixes can be applied together.

Spans are 0-based lines and code-point columns with an exclusive end (see model.ranges), the same lines the
parser sees (``text.split("\\n")``). Out-of-range positions are clamped the way LSP clients clamp them: a
column past the end of its line means the end of that line, a line past the last one means the end of the
text. Overlapping edits are refused rather than guessed at.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ...model.ranges import Span
from ..findings import Edit, Finding, Fix


class EditConflict(ValueError):
    """Two edits overlap, so applying both has no single meaning."""


def _line_starts(text: str) -> list[int]:
    starts = [0]
    pos = text.find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def _offset(text: str, starts: list[int], line: int, col: int) -> int:
    if line < 0 or col < 0:
        raise ValueError(f"negative position {line}:{col}")
    if line >= len(starts):
        return len(text)
    line_end = starts[line + 1] - 1 if line + 1 < len(starts) else len(text)
    return min(starts[line] + col, line_end)


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with every edit applied; edits must not overlap (insertions at one point keep their order).

    Raises :class:`EditConflict` when two edits overlap and ValueError for a span that ends before it
    starts. The ``path`` of the edits is not looked at: pass only the edits of this text.
    """
    starts = _line_starts(text)
    ranges: list[tuple[int, int, int, str]] = []
    for order, edit in enumerate(edits):
        s = edit.span
        a = _offset(text, starts, s.start_line, s.start_col)
        b = _offset(text, starts, s.end_line, s.end_col)
        if b < a:
            raise ValueError(f"edit span ends before it starts: {s}")
        ranges.append((a, b, order, edit.new_text))
    ranges.sort()
    for (a1, b1, _, _), (a2, b2, _, _) in zip(ranges, ranges[1:]):
        if a2 < b1:
            raise EditConflict(f"edits overlap at offsets {a1}-{b1} and {a2}-{b2}")
    out: list[str] = []
    pos = 0
    for a, b, _, new_text in ranges:
        out.append(text[pos:a])
        out.append(new_text)
        pos = b
    out.append(text[pos:])
    return "".join(out)


def _overlaps(a: Span, b: Span) -> bool:
    """True when the spans share a character, or are the same insertion point (ambiguous order)."""
    a0, a1 = (a.start_line, a.start_col), (a.end_line, a.end_col)
    b0, b1 = (b.start_line, b.start_col), (b.end_line, b.end_col)
    if a0 == a1 and b0 == b1:
        return a0 == b0
    return a0 < b1 and b0 < a1


@dataclass
class FixPlan:
    """Safe fixes that can be applied together, their edits by path, and how many were held back."""

    fixes: list[Fix] = field(default_factory=list)
    edits: dict[str, list[Edit]] = field(default_factory=dict)
    deferred: int = 0

    def accepts(self, fix: Fix) -> bool:
        return not any(_overlaps(e.span, other.span) for e in fix.edits for other in self.edits.get(e.path, ()))

    def add(self, fix: Fix) -> None:
        self.fixes.append(fix)
        for e in fix.edits:
            self.edits.setdefault(e.path, []).append(e)


def plan_fixes(findings: Sequence[Finding], paths: Iterable[str] | None = None) -> FixPlan:
    """The preferred fix of each finding, when it is safe, skipping fixes that collide with one taken earlier.

    Findings are taken in their (sorted) order, so the plan is deterministic; a deferred fix is usually
    offered again by the next check once the first one has been applied. With ``paths``, fixes that would
    edit any other file are left out.
    """
    allowed = set(paths) if paths is not None else None
    plan = FixPlan()
    for finding in findings:
        fix = finding.fix
        if fix is None or not fix.safe or not fix.edits:
            continue
        if allowed is not None and any(e.path not in allowed for e in fix.edits):
            continue
        if plan.accepts(fix):
            plan.add(fix)
        else:
            plan.deferred += 1
    return plan
