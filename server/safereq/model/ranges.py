"""Source positions and ranges, 0-based lines and code-point columns (end exclusive)."""

from __future__ import annotations

from typing import NamedTuple

# ``tuple.__new__(Span, fields)`` builds a span at half the cost of ``Span(...)``, whose ``__new__`` is a
# Python function; the parser and the shifting of parsed sections create spans by the hundred thousand.
new_tuple = tuple.__new__


class Anchor:
    """How many lines a parsed section has moved since it was parsed.

    Everything parsed from one section (heading, statement, attributes, links, table cells, clause
    references) keeps the lines it was parsed at together with its section's anchor, and reports lines moved
    by ``shift``. Inserting a line above 1,000 items then adds to 1,000 anchors instead of rebuilding every
    span below the edit, and the items keep their identity, which the workspace index and the checker's
    caches key on. Only :mod:`.incremental` moves anchors: it does so when it reuses a section at another
    line, so an older parse of the same document sees the new lines too (it is outdated by then).
    """

    __slots__ = ("shift",)

    def __init__(self) -> None:
        self.shift = 0

    # Nodes are named tuples and dataclasses that compare by value: two nodes parsed alike compare equal
    # when their sections have moved alike, whichever anchor objects they hold. The hash is constant so that
    # a node's hash does not change when its section moves.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Anchor) and other.shift == self.shift

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return f"Anchor(shift={self.shift})"


FIXED = Anchor()  # the anchor of objects not parsed from a section, which never move


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
        """The same span moved down by ``lines`` lines."""
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
