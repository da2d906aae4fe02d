"""Spans of one statement asked about again and again: "which of them overlap start:end?".

A statement of one long paragraph can hold thousands of masked phrases, not-in phrases or escape clauses,
and every word-list entry or modal verb asks about them: a scan per question is quadratic. Sorted by start,
only the spans that start less than the longest one's length before ``start`` can reach it, so a bisection
finds the few candidates.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable


class Spans:
    """(start, end) pairs, sorted once."""

    __slots__ = ("spans", "starts", "longest")

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self.spans = sorted(spans)
        self.starts = [s for s, _e in self.spans]
        self.longest = max((e - s for s, e in self.spans), default=0)

    def overlapping(self, start: int, end: int) -> list[tuple[int, int]]:
        """The spans that share at least one character with ``start:end``."""
        if not self.spans:
            return []
        lo = bisect.bisect_left(self.starts, start - self.longest)
        hi = bisect.bisect_left(self.starts, end)
        return [(s, e) for s, e in self.spans[lo:hi] if start < e]
