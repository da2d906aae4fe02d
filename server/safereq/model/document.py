"""The parsed form of one requirement document.

Every node that a check, hover or fix can point at keeps its exact source span, so findings land on the
word, the attribute value or the link they are about. Nodes store the lines they were parsed at and the
:class:`~.ranges.Anchor` of their section; the public spans (``span``, ``start_line``, ...) add the lines the
section has moved since, so an edit above a node moves it without rebuilding it.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .clauses import ClauseRef
from .ids import ID_RE, is_item_id
from .ranges import FIXED, Anchor, Span, new_tuple


class Segment(NamedTuple):
    """A run of source text on one line, as parsed (``line`` before any move: read positions through
    :class:`Text`); statements are built from segments so offsets map back exactly."""

    line: int
    col: int
    text: str


@dataclass(frozen=True, slots=True)
class Text:
    """Prose spread over source lines, joined with single spaces; ``span_of`` maps offsets back to the source.

    ``anchor`` is the section the segments were parsed in (an item's sub-sections move with it, so one
    anchor serves every segment; see ``build_item``).
    """

    segments: tuple[Segment, ...]
    anchor: Anchor = FIXED

    @property
    def text(self) -> str:
        segments = self.segments
        if len(segments) == 1:  # the common case: a one-line statement
            return segments[0].text
        return " ".join([s.text for s in segments])

    @property
    def span(self) -> Span:
        first, last = self.segments[0], self.segments[-1]
        d = self.anchor.shift
        return Span(first.line + d, first.col, last.line + d, last.col + len(last.text))

    @property
    def last_line(self) -> int:
        """The line of the last segment (the text must not be empty)."""
        return self.segments[-1].line + self.anchor.shift

    def __bool__(self) -> bool:
        return bool(self.segments)

    def position_of(self, offset: int, *, end: bool = False) -> tuple[int, int]:
        """Source (line, col) of an offset into ``text``; with ``end`` an offset at a join stays on its line."""
        pos = 0
        d = self.anchor.shift
        for seg in self.segments:
            seg_end = pos + len(seg.text)
            if offset < seg_end or (offset == seg_end and (end or seg is self.segments[-1])):
                return seg.line + d, seg.col + (offset - pos)
            if offset == seg_end:
                # The space that joins two lines exists only in ``text``: a span starting on it starts at
                # the beginning of the next line.
                nxt = self.segments[self.segments.index(seg) + 1]
                return nxt.line + d, nxt.col
            pos = seg_end + 1
        last = self.segments[-1]
        return last.line + d, last.col + len(last.text)

    def span_of(self, start: int, end: int) -> Span:
        """The source span of ``text[start:end]``."""
        sl, sc = self.position_of(start)
        el, ec = self.position_of(end, end=True)
        return Span(sl, sc, el, ec)



class Link(NamedTuple):
    """One entry of a link attribute; ``valid`` is False when the text is not shaped like an item ID."""

    target: str
    parsed_span: Span
    valid: bool = True
    anchor: Anchor = FIXED

    @property
    def span(self) -> Span:
        return self.parsed_span.shifted(self.anchor.shift)


class Attribute(NamedTuple):
    """A ``Key: value`` line, whose value may continue on the next lines. ``key`` is canonical (see
    rules/attributes.yaml); ``raw_key`` as written.

    The spans (``span``, ``key_span``, ``value_span``) are made on demand from the line and column fields: a
    workspace holds about a hundred thousand attributes and only findings, hovers and fixes read their spans,
    so storing columns rather than three spans apiece saves time and memory. The key lies on the first line;
    the value runs from ``value_col`` on the first line to ``value_end_col`` on the last. ``parsed_line``
    and ``parsed_end_line`` are the lines as parsed; ``start_line`` and ``end_line`` where they are now.
    """

    key: str
    raw_key: str
    value: str
    parsed_line: int
    start_col: int
    parsed_end_line: int
    end_col: int
    key_col: int
    value_col: int
    value_end_col: int
    links: tuple[Link, ...] = ()
    anchor: Anchor = FIXED

    @property
    def start_line(self) -> int:
        return self.parsed_line + self.anchor.shift

    @property
    def end_line(self) -> int:
        return self.parsed_end_line + self.anchor.shift

    @property
    def span(self) -> Span:
        return new_tuple(Span, (self.start_line, self.start_col, self.end_line, self.end_col))

    @property
    def key_span(self) -> Span:
        line, col = self.start_line, self.key_col
        return new_tuple(Span, (line, col, line, col + len(self.raw_key)))

    @property
    def value_span(self) -> Span:
        return new_tuple(Span, (self.start_line, self.value_col, self.end_line, self.value_end_col))



class Cell(NamedTuple):
    text: str
    parsed_span: Span
    anchor: Anchor = FIXED

    @property
    def span(self) -> Span:
        return self.parsed_span.shifted(self.anchor.shift)


@dataclass(frozen=True, slots=True)
class HaraRow:
    """One hazardous event of a HARA table: cells keyed by canonical column (id, severity, asil, ...)."""

    cells: dict[str, Cell]
    parsed_span: Span
    table_header: tuple[str, ...]
    anchor: Anchor = FIXED

    @property
    def id(self) -> str:
        return self.cells["id"].text

    @property
    def span(self) -> Span:
        return self.parsed_span.shifted(self.anchor.shift)

    def goal_links(self) -> list[Link]:
        """The safety-goal IDs of the row's ``Safety goal`` cell, as links with exact spans (in the cell's
        frame, so they move with its section)."""
        cell = self.cells.get("safety-goal")
        if cell is None:
            return []
        line, col = cell.parsed_span.start_line, cell.parsed_span.start_col
        return [Link(m.group(0), Span.on_line(line, col + m.start(), col + m.end()), True, cell.anchor)
                for m in ID_RE.finditer(cell.text) if is_item_id(m.group(0))]


@dataclass(slots=True, eq=False)
class Item:
    """A heading whose text starts with an ID: a hazardous event, safety goal, requirement, claim or test.

    The ``parsed_*`` fields are positions as parsed, relative to ``anchor`` (the heading's section, which
    the item's sub-sections move with); ``id_span``, ``heading_span``, ``end_line`` and the others are the
    positions now.
    """

    id: str
    title: str
    level: int
    kind: str
    path: str
    parsed_id_span: Span
    parsed_title_span: Span
    parsed_heading_span: Span
    parsed_end_line: int
    statement: Text
    attributes: list[Attribute] = field(default_factory=list)
    clause_refs: list[ClauseRef] = field(default_factory=list)
    language: str = "en"
    anchor: Anchor = FIXED

    @property
    def id_span(self) -> Span:
        return self.parsed_id_span.shifted(self.anchor.shift)

    @property
    def title_span(self) -> Span:
        return self.parsed_title_span.shifted(self.anchor.shift)

    @property
    def heading_span(self) -> Span:
        return self.parsed_heading_span.shifted(self.anchor.shift)

    @property
    def line(self) -> int:
        """The heading's line."""
        return self.parsed_heading_span[0] + self.anchor.shift

    @property
    def end_line(self) -> int:
        return self.parsed_end_line + self.anchor.shift

    @property
    def span(self) -> Span:
        """From the heading to the end of the body's last line."""
        return Span(self.line, 0, self.end_line, 0)

    def attribute(self, key: str) -> Attribute | None:
        """The first attribute with canonical ``key``."""
        for attr in self.attributes:
            if attr.key == key:
                return attr
        return None

    def links(self, key: str) -> list[Link]:
        """All link entries under canonical ``key`` (several lines with the same key are merged)."""
        return [link for attr in self.attributes if attr.key == key for link in attr.links]


@dataclass(slots=True)
class Problem:
    """Something in the document that prevents reading it as intended (bad front matter, malformed heading)."""

    code: str
    message: str
    parsed_span: Span
    anchor: Anchor = FIXED

    @property
    def span(self) -> Span:
        return self.parsed_span.shifted(self.anchor.shift)


@dataclass(slots=True)
class Document:
    """A parsed document: items in source order, HARA rows, clause references and parse problems."""

    path: str
    text: str
    items: list[Item]
    hara_rows: list[HaraRow]
    clause_refs: list[ClauseRef]
    front_matter: dict[str, Any]
    problems: list[Problem]
    language: str
    line_count: int
    sections: Any = None  # the section cache that makes the next parse incremental (model.incremental)

    def line(self, number: int) -> str:
        """The text of line ``number`` (0-based) as written, line break excluded ("" past the end).

        Splitting a 2,000-requirement document takes milliseconds, so the line is found in its section
        (``sections.layout``, when the parse kept one) and only that section is split.
        """
        layout = getattr(self.sections, "layout", None)
        if layout is not None and layout.lines and number >= layout.lines[0]:
            k = bisect_right(layout.lines, number) - 1
            lines = layout.texts[k].split("\n")
            offset = number - layout.lines[k]
            return lines[offset] if offset < len(lines) else ""
        lines = self.text.split("\n")
        return lines[number] if 0 <= number < len(lines) else ""

    def item_at(self, line: int) -> Item | None:
        """The innermost item whose span holds ``line``."""
        found = None
        for item in self.items:
            if item.line <= line <= item.end_line:
                found = item
            elif item.line > line:
                break
        return found
