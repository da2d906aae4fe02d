"""The structural units a parser finds in a source, before they are grouped into chunks.

Parsers (plain text/PDF, Markdown, catalogue) all emit the same three kinds of block in document order, so
one assembler (``chunker``) turns any source into clause-aware chunks.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Heading:
    """A section start: ``clause`` is its id ("5.4.10", "Annex B", "Task 101", or "" when unnumbered)."""

    clause: str
    title: str
    level: int
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Paragraph:
    text: str
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """A table kept whole; ``label`` is its number ("Table 4", "Table III") when it has a caption."""

    text: str
    label: str = ""
    caption: str = ""
    page: int | None = None


Block = Heading | Paragraph | Table
