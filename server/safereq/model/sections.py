"""Cheap splitting of a document into sections at ATX headings, so edits re-parse only what changed.

A section runs from one heading line to the line before the next heading (fenced code is respected, so a
``#`` inside a code block does not split). Optional YAML front matter is a section of its own. The split
runs one regular expression over the whole text, so its cost stays well below a millisecond per 100 KB.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Led by a literal newline so the regex engine can skip quickly between line starts (three times faster
# than a MULTILINE ``^``); the text is searched with a newline put in front of it.
_BOUNDARY_RE = re.compile(r"\n {0,3}(?:#{1,6}(?:[ \t]|$)|(`{3,}|~{3,}))", re.MULTILINE)
_FM_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)


class Section(NamedTuple):
    """A section: first line number and its text (without the newline that ends its last line)."""

    line: int
    text: str


def front_matter_end(text: str) -> int:
    """Offset just past the closing ``---`` line of front matter (0 when there is none)."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return 0
    m = _FM_CLOSE_RE.search(text, text.find("\n") + 1)
    if m is None:
        return 0
    nl = text.find("\n", m.end())
    return len(text) if nl < 0 else nl + 1


def split_sections(text: str, start: int = 0) -> list[Section]:
    """The sections of ``text`` from offset ``start`` (a line start) to the end."""
    first_line = text.count("\n", 0, start)
    offsets = [start]
    lines = [first_line]
    line, pos = first_line, start
    fence: str | None = None
    # Offsets in ``"\n" + text`` are one more than in ``text``: a match at m.start() begins the line at
    # text offset m.start().
    for m in _BOUNDARY_RE.finditer("\n" + text, start):
        at = m.start()
        f = m.group(1)
        if fence is not None:
            if f and f[0] == fence[0] and len(f) >= len(fence) and not _rest_of_line(text, m.end() - 1).strip():
                fence = None
            continue
        if f:
            fence = f
            continue
        if at == offsets[-1]:
            continue
        line += text.count("\n", pos, at)
        pos = at
        offsets.append(at)
        lines.append(line)
    ends = [o - 1 for o in offsets[1:]] + [len(text)]
    return [Section(n, text[a:b]) for n, a, b in zip(lines, offsets, ends)]


def _rest_of_line(text: str, offset: int) -> str:
    nl = text.find("\n", offset)
    return text[offset:] if nl < 0 else text[offset:nl]
