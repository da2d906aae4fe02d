"""Cheap splitting of a document into sections at ATX headings, so edits re-parse only what changed.

A section runs from one heading line to the line before the next heading (fenced code is respected, so a
``#`` inside a code block does not split). Optional YAML front matter is a section of its own. The split
runs one regular expression over the whole text, so its cost stays well below a millisecond per 100 KB.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

# Led by a literal newline so the regex engine can skip quickly between line starts (three times faster
# than a MULTILINE ``^``); the first line of a text, which no newline leads, is matched with _FIRST_RE.
_BOUNDARY_RE = re.compile(r"\n {0,3}(?:#{1,6}(?:[ \t]|$)|(`{3,}|~{3,}))", re.MULTILINE)
_FIRST_RE = re.compile(r" {0,3}(?:#{1,6}(?:[ \t]|$)|(`{3,}|~{3,}))", re.MULTILINE)
_BLOCK = 32  # sections compared at once when looking for the edited region
_FM_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)


class Layout(NamedTuple):
    """The sections of a text, column by column: section ``k`` starts at line ``lines[k]`` and offset
    ``offsets[k]`` and has the text ``texts[k]`` (without the newline that ends its last line).

    Columns rather than a tuple per section: after an edit every later section moves, and moving a column
    of integers costs a small fraction of rebuilding thousands of tuples.
    """

    lines: list[int]
    texts: list[str]
    offsets: list[int]


class Resplit(NamedTuple):
    """The sections of an edited text, and how many of them the edit left alone.

    The first ``head`` sections are the old ones, unchanged; the last ``tail`` have the text of the old
    last ``tail`` sections, moved down by ``line_delta`` lines. Everything between is new.
    """

    sections: Layout
    head: int
    tail: int
    line_delta: int
    fenced: bool  # whether the text has ``` or ~~~ anywhere (see ``has_fences``)


def has_fences(text: str) -> bool:
    """Whether ``text`` may hold fenced code: then a ``#`` line far from an edit can change meaning."""
    return "```" in text or "~~~" in text


def front_matter_end(text: str) -> int:
    """Offset just past the closing ``---`` line of front matter (0 when there is none)."""
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return 0
    m = _FM_CLOSE_RE.search(text, text.find("\n") + 1)
    if m is None:
        return 0
    nl = text.find("\n", m.end())
    return len(text) if nl < 0 else nl + 1


def split_sections(text: str, start: int = 0, end: int | None = None, first_line: int | None = None) -> Layout:
    """The sections of ``text`` from offset ``start`` (a line start) to ``end`` (a line start, or the end).

    ``first_line`` is the line number at ``start`` when the caller knows it.
    """
    end = len(text) if end is None else end
    if first_line is None:
        first_line = text.count("\n", 0, start)
    offsets = [start]
    lines = [first_line]
    line, pos = first_line, start
    fence: str | None = None
    for at, f, after in _boundaries(text, start, end):
        if fence is not None:
            if f and f[0] == fence[0] and len(f) >= len(fence) and not _rest_of_line(text, after).strip():
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
    ends = [o - 1 for o in offsets[1:]] + [end if end == len(text) else end - 1]
    return Layout(lines, [text[a:b] for a, b in zip(offsets, ends)], offsets)


def _boundaries(text: str, start: int, end: int) -> Iterator[tuple[int, str | None, int]]:
    """(line start, fence or None, offset after the match) of each heading or fence line in [start, end)."""
    if start == 0:
        m = _FIRST_RE.match(text, 0, end)
        if m is not None:
            yield 0, m.group(1), m.end()
        start = 1
    for m in _BOUNDARY_RE.finditer(text, start - 1, end):
        yield m.start() + 1, m.group(1), m.end()


def resplit_sections(old_text: str, old: Layout, text: str, start: int, old_fenced: bool | None = None) -> Resplit:
    """The sections of ``text`` from ``start``, given the sections ``old`` of the previous text.

    Only the sections around the changed region are split again: sections before it (same text at the same
    offset) are reused as they are, sections after it (same text at the offset moved by the change in
    length) are reused with their offsets and lines moved. ``str.startswith`` at an offset compares without
    copying, so finding the region costs one pass of memory comparison. Fenced code changes what a ``#``
    means far from an edit, so a document with fences is split in full (nothing reused). Searching a large
    text for fences costs about as much as the rest, so ``old_fenced`` (what the previous split found) is
    passed in when known, and of the new text only the changed region is searched.
    """
    if old_fenced is None:
        old_fenced = has_fences(old_text)
    lines, texts, offsets = old
    if not texts or offsets[0] != start or old_fenced:
        return _full(text, start)
    n, size, delta = len(texts), len(text), len(text) - len(old_text)

    def intact(k: int, at: int) -> bool:
        end = at + len(texts[k])
        return text.startswith(texts[k], at) and (end == size if k == n - 1 else text.startswith("\n", end))

    # Skip whole blocks of sections first (one comparison each), then single sections.
    k0 = 0
    while k0 + _BLOCK < n and text.startswith(old_text[offsets[k0]:offsets[k0 + _BLOCK]], offsets[k0]):
        k0 += _BLOCK
    while k0 < n and intact(k0, offsets[k0]):
        k0 += 1
    if k0 == n:
        return Resplit(old, n, 0, 0, False)
    # One section before the change too: editing a heading line changes where the previous section ends.
    k0 = max(k0 - 1, 0)
    k1 = n
    while k1 - _BLOCK > k0 + 1:
        a, b = offsets[k1 - _BLOCK], (offsets[k1] if k1 < n else len(old_text))
        if not (text.startswith("\n", a + delta - 1) and text.startswith(old_text[a:b], a + delta)):
            break
        k1 -= _BLOCK
    while k1 - 1 > k0:
        at = offsets[k1 - 1] + delta
        if not (at > 0 and text.startswith("\n", at - 1) and intact(k1 - 1, at)):
            break
        k1 -= 1
    region_start = offsets[k0]
    region_end = offsets[k1] + delta if k1 < n else size
    # Old text had no fences and a fence cannot span lines, so the new text has one only in the region.
    if text.find("```", region_start, region_end) >= 0 or text.find("~~~", region_start, region_end) >= 0:
        return _full(text, start)
    middle = split_sections(text, region_start, region_end, lines[k0])
    line_delta = 0
    tail_lines, tail_offsets = lines[k1:], offsets[k1:]
    if k1 < n:
        line_delta = text.count("\n", region_start, region_end) - old_text.count("\n", region_start, offsets[k1])
        if line_delta:
            tail_lines = list(map(line_delta.__add__, tail_lines))
        if delta:
            tail_offsets = list(map(delta.__add__, tail_offsets))
    layout = Layout(
        lines[:k0] + middle.lines + tail_lines, texts[:k0] + middle.texts + texts[k1:],
        offsets[:k0] + middle.offsets + tail_offsets,
    )
    return Resplit(layout, k0, n - k1, line_delta, False)


class LineChange(NamedTuple):
    """What an edit did to a document's lines: old lines ``[first, old_end)`` became new lines
    ``[first, new_end)``; lines before are unchanged and lines from ``old_end`` on moved by
    ``new_end - old_end``. ``version`` is the version of the document the edit made (see
    ``incremental.SectionCache``)."""

    version: int
    first: int
    old_end: int
    new_end: int

    def maps(self, line: int) -> int | None:
        """Where old ``line`` is now; None when the edit replaced it."""
        if line < self.first:
            return line
        if line >= self.old_end:
            return line + self.new_end - self.old_end
        return None


_BLOCK_CHARS = 4096  # characters compared at once when looking for the first or last difference


def changed_lines(
    old: str, new: str, version: int, same_before: int = 0, same_after: int = 0, line_before: int = 0
) -> LineChange:
    """The lines that changed from ``old`` to ``new`` (see :class:`LineChange`), as tightly as the common
    prefix and suffix of the two texts allow; the caller may know that the first ``same_before`` and the
    last ``same_after`` characters are equal, and that offset ``same_before`` (a line start) is on line
    ``line_before``. Whole blocks are compared before single characters, and lines are counted from
    ``same_before`` on, so an edit in a large text costs microseconds."""
    if old == new:
        lines = old.count("\n") + 1
        return LineChange(version, lines, lines, lines)
    limit = min(len(old), len(new))
    p = min(same_before, limit)
    while p + _BLOCK_CHARS <= limit and old[p:p + _BLOCK_CHARS] == new[p:p + _BLOCK_CHARS]:
        p += _BLOCK_CHARS
    while p < limit and old[p] == new[p]:
        p += 1
    # The lines before the first difference are equal; the suffix may not overlap them, but it may take
    # the start of the line with the difference: inserting a copy of a line then changes one line, not two.
    p = old.rfind("\n", 0, p) + 1
    room = limit - p
    s = min(same_after, room)
    while s + _BLOCK_CHARS <= room and old[len(old) - s - _BLOCK_CHARS:len(old) - s] == new[len(new) - s - _BLOCK_CHARS:len(new) - s]:
        s += _BLOCK_CHARS
    while s < room and old[len(old) - s - 1] == new[len(new) - s - 1]:
        s += 1
    base = min(same_before, p)
    first = (line_before if base == same_before else old.count("\n", 0, base)) + old.count("\n", base, p)
    q_old, q_new = len(old) - s, len(new) - s
    if (q_old == 0 or old[q_old - 1] == "\n") and (q_new == 0 or new[q_new - 1] == "\n"):
        # The common suffix starts a line in both texts: its lines are whole and equal.
        return LineChange(version, first, first + old.count("\n", p, q_old), first + new.count("\n", p, q_new))
    # Else the lines after the first line break in the common suffix are.
    k = old.find("\n", q_old)
    if k < 0:
        return LineChange(version, first, first + old.count("\n", p) + 1, first + new.count("\n", p) + 1)
    return LineChange(version, first, first + old.count("\n", p, k) + 1,
                      first + new.count("\n", p, q_new + k - q_old) + 1)


def _full(text: str, start: int) -> Resplit:
    """A full split, reusing nothing."""
    return Resplit(split_sections(text, start), 0, 0, 0, has_fences(text))


def _rest_of_line(text: str, offset: int) -> str:
    nl = text.find("\n", offset)
    return text[offset:] if nl < 0 else text[offset:nl]
