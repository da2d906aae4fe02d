"""Source positions and ranges, 0-based lines and code-point columns (end exclusive)."""

from __future__ import annotations

from typing import NamedTuple

# ``tuple.__new__(Span, fields)`` builds a span at half the cost of ``Span(...)``, whose ``__new__`` is a
# Python function; the parser and the shifting of parsed sections create spans by the hundred thousand.
new_tuple = tuple.__new__


class Span(NamedTuple):
    """A range in a document: start inclusive, end exclusive, columns in code points.

    A named tuple rather than a dataclass: documents hold hundreds of thousands of spans and tuples are
    several times cheaper to create; ordering is by start, then end.
    """

    start_line: int
    start_col: int
    end_line: int
    end_col: int

    @classmethod
    def on_line(cls, line: int, start: int, end: int) -> Span:
        return new_tuple(cls, (line, start, line, end))

    def shifted(self, lines: int) -> Span:
        """The same span moved down by ``lines`` lines (used when an earlier section grows or shrinks)."""
        if not lines:
            return self
        return new_tuple(Span, (self.start_line + lines, self.start_col, self.end_line + lines, self.end_col))

    def contains(self, line: int, col: int) -> bool:
        """True when (line, col) lies inside the span; the end position counts, so a cursor after a word hits it."""
        if line < self.start_line or line > self.end_line:
            return False
        if line == self.start_line and col < self.start_col:
            return False
        if line == self.end_line and col > self.end_col:
            return False
        return True
