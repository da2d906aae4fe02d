"""Block structure of one section: which lines are prose, table, code or quote.

markdown-it-py is the authority on Markdown structure. It costs about 1 ms per KB even with inline parsing
switched off, which is too slow for 20,000 requirements, so sections made only of plain paragraphs and
flat bullet lists (the common shape of a requirement) take a line-by-line fast path; anything else (tables,
fences, quotes, HTML, indentation, ordered lists) goes to markdown-it. tests/model/test_blocks.py checks that
both paths agree on every section the fast path accepts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

_LIST_MARKER_RE = re.compile(r"^ *(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)")
# A line that the fast path cannot read as plain paragraph or flat bullet text: indentation, block quote,
# table, HTML, fence, heading, setext underline or thematic break, link definition, ordered or nested list,
# an empty bullet; or a pipe anywhere (a table row).
_NOT_FAST_RE = re.compile(
    r"^(?:[ \t]+\S|[>|<`~#=\[]|\d{1,9}[.)]|[-=*_](?:[ \t]*[-=*_])*[ \t]*$"
    r"|[-*+](?: {5}|\t[ \t])|[-*+][ \t]++(?:[>|<`~#=\[]|[-*+](?:[ \t]|$)|\d{1,9}[.)]))|\|",
    re.MULTILINE,
)


@dataclass(slots=True)
class Blocks:
    """Prose paragraphs (as lists of (line, content column, content)), table line ranges, code lines."""

    paragraphs: list[list[tuple[int, int, str]]] = field(default_factory=list)
    tables: list[tuple[int, int]] = field(default_factory=list)
    code_lines: set[int] = field(default_factory=set)


def _fast_path_ok(lines: list[str]) -> bool:
    return _NOT_FAST_RE.search("\n".join(lines)) is None


def _fast_blocks(lines: list[str], first: int) -> Blocks:
    blocks = Blocks()
    current: list[tuple[int, int, str]] = []
    for i, line in enumerate(lines, start=first):
        if not line or line.isspace():
            if current:
                blocks.paragraphs.append(current)
                current = []
            continue
        if line[0] in "-*+" and (len(line) == 1 or line[1] in " \t"):
            if current:
                blocks.paragraphs.append(current)
            col = len(line) - len(line[1:].lstrip(" \t"))
            current = [(i, col, line[col:].rstrip())]
        else:
            current.append((i, 0, line.rstrip()))
    if current:
        blocks.paragraphs.append(current)
    return blocks


@cache
def _markdown_it():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    md.disable(["inline", "text_join"], ignoreInvalid=True)
    return md


def _content(line: str, strip_marker: bool) -> tuple[int, str]:
    if strip_marker and (m := _LIST_MARKER_RE.match(line)):
        start = m.end()
    else:
        start = len(line) - len(line.lstrip(" \t"))
    return start, line[start:].rstrip()


def _markdown_it_blocks(lines: list[str], first: int) -> Blocks:
    blocks = Blocks()
    tokens = _markdown_it().parse("\n".join(lines))
    quote_depth = 0
    item_first_line: int | None = None
    for tok in tokens:
        if tok.type == "blockquote_open":
            quote_depth += 1
        elif tok.type == "blockquote_close":
            quote_depth -= 1
        elif tok.type == "list_item_open" and tok.map:
            item_first_line = tok.map[0]
        elif tok.type == "paragraph_open" and tok.map and quote_depth == 0:
            start, end = tok.map
            para = []
            for k in range(start, end):
                col, text = _content(lines[k], strip_marker=(k == start and k == item_first_line))
                if text:
                    para.append((first + k, col, text))
            if para:
                blocks.paragraphs.append(para)
        elif tok.type == "table_open" and tok.map and quote_depth == 0:
            blocks.tables.append((first + tok.map[0], first + tok.map[1]))
        elif tok.type in ("fence", "code_block", "html_block") and tok.map:
            blocks.code_lines.update(range(first + tok.map[0], first + tok.map[1]))
    return blocks


def section_blocks(lines: list[str], first: int, *, force_markdown_it: bool = False) -> Blocks:
    """The blocks of ``lines`` (a section body starting at document line ``first``)."""
    if not force_markdown_it and _fast_path_ok(lines):
        return _fast_blocks(lines, first)
    return _markdown_it_blocks(lines, first)
