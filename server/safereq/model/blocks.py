"""Block structure of one section: which lines are prose, table, code or quote.

markdown-it-py is the authority on Markdown structure. It costs about 1 ms per KB even with inline parsing
switched off, which is too slow for 20,000 requirements, so sections made only of plain paragraphs and
flat bullet lists (the common shape of a requirement) are read line by line by the parser
(:func:`.parser.parse_section`, which visits each line once); ``is_plain`` says which sections those are.
Simple pipe tables (the common shape of a HARA) are found here too (``split_tables``), so that a workspace
whose only other blocks are such tables never needs markdown-it, whose import alone costs as much as
parsing a thousand requirements. Anything else (fences, quotes, HTML, indentation, ordered lists, other
tables) goes to markdown-it. tests/model/test_blocks.py checks that both paths read alike every section the
fast path accepts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

_LIST_MARKER_RE = re.compile(r"^ *(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)")
# A line that the fast path cannot read as plain paragraph or flat bullet text: indentation, block quote,
# table, HTML, fence, heading, setext underline or thematic break, link definition, ordered or nested list,
# an empty ``-`` or ``*`` bullet. (A pipe anywhere, a table row, is looked for separately.) Led by a literal
# newline rather than a MULTILINE ``^`` so that the regex engine skips quickly from line start to line start.
_NOT_PLAIN_RE = re.compile(
    r"\n(?:[ \t]+\S|[>|<`~#=\[]|\d{1,9}[.)]|[-=*_](?:[ \t]*[-=*_])*[ \t]*$"
    r"|[-*+](?: {5}|\t[ \t])|[-*+][ \t]++(?:[>|<`~#=\[]|[-*+](?:[ \t]|$)|\d{1,9}[.)]))",
    re.MULTILINE,
)

# What markdown-it's table rule accepts as a delimiter row, for rows that start with a pipe: pipes, dashes,
# colons, spaces and tabs only; each cell between pipes like ``---``, ``:--`` or ``-:`` (see ``_table_columns``).
_DELIMITER_ROW_RE = re.compile(r"\|[-:| \t]+")
_DELIMITER_CELL_RE = re.compile(r":?-+:?")
_CELL_SEPARATOR_RE = re.compile(r"(?<!\\)\|")  # a pipe not escaped by a backslash
# markdown-it stops filling in the missing cells of short rows beyond this many (and ends the table there):
# tables that could reach it are left to markdown-it.
_MAX_TABLE_CELLS = 0x10000
_INNER_CR_RE = re.compile(r"\r(?!\n|\Z)")  # a carriage return that does not end a line (see markdown_it_blocks)


@dataclass(slots=True)
class Blocks:
    """Prose paragraphs (as lists of (line, content column, content)), table line ranges, code lines."""

    paragraphs: list[list[tuple[int, int, str]]] = field(default_factory=list)
    tables: list[tuple[int, int]] = field(default_factory=list)
    code_lines: set[int] = field(default_factory=set)


def is_plain(text: str, body: int = 0) -> bool:
    """Whether ``text[body:]`` is only plain paragraphs and flat bullets (``body`` is 0 or follows a newline).

    Searches ``text`` in place rather than a copy of the body: this runs on every section.
    """
    if text.find("|", body) >= 0:
        return False
    if body:
        return _NOT_PLAIN_RE.search(text, body - 1) is None
    return _NOT_PLAIN_RE.search("\n" + text) is None


@cache
def _markdown_it():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    md.disable(["inline", "text_join"], ignoreInvalid=True)
    return md


def _blank(line: str) -> bool:
    """Blank for markdown-it and for the fast path alike: nothing but spaces and tabs."""
    return not line.strip(" \t")


def _reads_otherwise(line: str) -> bool:
    """Whether the fast path may read ``line`` otherwise than markdown-it (see ``split_tables``)."""
    if not line:
        return False
    if line.isspace():
        return bool(line.strip(" \t"))
    return line[0] in "-*+" and (len(line) == 1 or line[1] in " \t") and not line[1:].strip()


def _table_columns(rows: list[str]) -> int:
    """How many columns markdown-it reads in the table whose header and delimiter rows start ``rows``; 0 when it
    does not read a table there. Only rows that start with a pipe and end without white space other than spaces
    and tabs are considered, so that trimming a row means the same here and in markdown-it."""
    if len(rows) < 2 or not _DELIMITER_ROW_RE.fullmatch(rows[1]):
        return 0
    for row in rows:
        if not row.startswith("|") or row.rstrip(" \t") != row.rstrip():
            return 0
    cells = rows[1].split("|")
    aligned = 0
    for i, cell in enumerate(cells):
        cell = cell.strip(" \t")
        if not cell and (i == 0 or i == len(cells) - 1):
            continue
        if not _DELIMITER_CELL_RE.fullmatch(cell):
            return 0
        aligned += 1
    header = _CELL_SEPARATOR_RE.split(rows[0].rstrip(" \t"))
    if header and header[0] == "":
        header.pop(0)
    if header and header[-1] == "":
        header.pop()
    return aligned if len(header) == aligned else 0


def split_tables(lines: list[str]) -> tuple[list[str], list[tuple[int, int]]] | None:
    """A section body ``lines`` with its pipe tables blanked out, and the tables as [start, end) ranges of
    ``lines``, when that leaves a plain body (see ``is_plain``); None when the body needs markdown-it.

    Only tables whose reading is certain are taken: every line with a pipe belongs to a table, each table
    has a blank line (or the body's edge) before and after it, every row starts with a pipe, and the header
    and delimiter rows are ones that markdown-it accepts. markdown-it then reads the same table, ending at the
    blank line, and around it the same paragraphs as the fast path. Where the fast path is known to read
    otherwise than markdown-it (a line of white space other than spaces and tabs, which markdown-it does not
    take as blank; a bullet with nothing after it; a carriage return, which markdown-it takes as a line
    break), the section is left to markdown-it as it always was.
    """
    if any("\r" in line or _reads_otherwise(line) for line in lines):
        return None
    tables: list[tuple[int, int]] = []
    prose = list(lines)
    n = len(lines)
    k = 0
    while k < n:
        if "|" not in lines[k]:
            k += 1
            continue
        start = k
        while k < n and "|" in lines[k]:
            k += 1
        columns = _table_columns(lines[start:k])
        if (not columns or _fills_too_many(lines[start + 2:k], columns) or (start and not _blank(lines[start - 1]))
                or (k < n and not _blank(lines[k]))):
            return None
        tables.append((start, k))
        prose[start:k] = [""] * (k - start)
    if not tables or not is_plain("\n".join(prose)):
        return None
    return prose, tables


def _fills_too_many(rows: list[str], columns: int) -> bool:
    """Whether markdown-it would stop filling in missing cells of these body rows (and end the table early).

    It counts, row by row, the header's columns minus the row's cells (negative for extra cells); only a
    table big enough to reach its limit at all is counted.
    """
    if columns * len(rows) <= _MAX_TABLE_CELLS:
        return False
    missing = 0
    for row in rows:
        cells = _CELL_SEPARATOR_RE.split(row.strip(" \t"))
        missing += columns - len(cells) + (cells[0] == "") + (len(cells) > 1 and cells[-1] == "")
        if missing > _MAX_TABLE_CELLS:
            return True
    return False


def _content(line: str, strip_marker: bool) -> tuple[int, str]:
    if strip_marker and (m := _LIST_MARKER_RE.match(line)):
        start = m.end()
    else:
        start = len(line) - len(line.lstrip(" \t"))
    return start, line[start:].rstrip()


def markdown_it_blocks(lines: list[str], first: int) -> Blocks:
    """The blocks of ``lines`` (a section body starting at document line ``first``), read by markdown-it."""
    blocks = Blocks()
    source = "\n".join(lines)
    if "\r" in source:
        # markdown-it takes a carriage return for a line break, the parser only the newline: a CR inside a
        # line would shift the line numbers markdown-it reports (and index past the last line).
        source = _INNER_CR_RE.sub(" ", source)
    tokens = _markdown_it().parse(source)
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

