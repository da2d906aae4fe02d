"""Cheap splitting of a document into sections at ATX headings, so edits re-parse only what changed.

A section runs from one heading line to the line before the next heading (fenced code is respected, so a
``#`` inside a code block does not split). Optional YAML front matter is a section of its own.
"""

from __future__ import annotations

import re

from .ids import ATX_HEADING_RE

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def front_matter_end(lines: list[str]) -> int:
    """Index of the line after the closing ``---`` of front matter, or 0 when there is none."""
    if not lines or lines[0].rstrip() != "---":
        return 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return i + 1
    return 0


def split_sections(lines: list[str]) -> list[tuple[int, int]]:
    """Half-open line ranges ``(start, end)`` covering the document, one per section."""
    bounds: list[int] = [0]
    fm_end = front_matter_end(lines)
    if fm_end:
        bounds.append(fm_end)
    fence: str | None = None
    for i in range(fm_end, len(lines)):
        line = lines[i]
        if fence is not None:
            m = _FENCE_RE.match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line[m.end():].strip():
                fence = None
            continue
        if line.startswith(("`", "~", " ")) and (m := _FENCE_RE.match(line)):
            fence = m.group(1)
            continue
        if line.startswith(("#", " ")) and ATX_HEADING_RE.match(line) and i != bounds[-1]:
            bounds.append(i)
    bounds.append(len(lines))
    return [(bounds[k], bounds[k + 1]) for k in range(len(bounds) - 1) if bounds[k] < bounds[k + 1]]
