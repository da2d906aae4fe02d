"""Columns between the core (code points) and the client (UTF-16 code units by default, or UTF-8 / UTF-32).

The core counts columns in code points. LSP counts UTF-16 code units unless client and server agree on
another encoding at initialize. Conversion needs the line's text and happens here only, once per position.
Lines are split the way LSP splits them (``\\n``, ``\\r\\n``, ``\\r``); :func:`normalise` makes the core see the
same lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types

from ..model.ranges import Span

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"
# Our columns are code points: UTF-32 needs no conversion, UTF-8 is cheap; UTF-16 is the mandatory default.
PREFERENCE = (UTF32, UTF8, UTF16)

_BREAK_RE = re.compile(r"\r\n|\r|\n")
_BREAK_SPLIT_RE = re.compile(r"(\r\n|\r|\n)")
# A code point outside the Basic Multilingual Plane: two UTF-16 code units.
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")
# A lone surrogate: not encodable as UTF-8 without ``surrogatepass``.
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def choose_encoding(offered: Sequence[str] | None) -> str:
    """The encoding to use given the client's offer: UTF-32 or UTF-8 only when offered, else UTF-16."""
    offered = [str(getattr(e, "value", e)) for e in (offered or ())]
    for enc in PREFERENCE:
        if enc in offered:
            return enc
    return UTF16


def split_lines(text: str) -> list[str]:
    """Lines as LSP counts them, without their terminators."""
    return _BREAK_RE.split(text)


def split_with_ends(text: str) -> tuple[list[str], list[str]]:
    """Lines as :func:`split_lines` gives them, and each line's terminator (``""`` for the last line)."""
    parts = _BREAK_SPLIT_RE.split(text)
    return parts[0::2], parts[1::2] + [""]


def normalise(text: str) -> str:
    """The text with every line break as ``\\n``, so the core's lines are the client's lines."""
    return _BREAK_RE.sub("\n", text) if "\r" in text else text


class PositionError(ValueError):
    """A position that does not exist in the document (the line is past the end)."""


class Codec:
    """Converts columns on one line between code points and the negotiated encoding."""

    def __init__(self, encoding: str = UTF16) -> None:
        self.encoding = encoding if encoding in (UTF8, UTF16, UTF32) else UTF16

    def to_client(self, line: str, col: int) -> int:
        """Code-point column ``col`` of ``line`` in client units."""
        if self.encoding == UTF32 or line.isascii():
            return col
        head = line[:col]
        if self.encoding == UTF16:
            return col + len(_ASTRAL_RE.findall(head))
        return len(head.encode("utf-8", errors="surrogatepass"))

    def from_client(self, line: str, units: int) -> int:
        """Client column ``units`` on ``line`` as a code-point column, clamped to the line's end.

        A column inside a character (the middle of a surrogate pair or of a UTF-8 sequence) lands at the
        start of that character. A lone surrogate (legal in JSON, so an editor can send one) is one code
        unit and one code point: it is counted, never dropped, so the text stays the editor's.
        """
        if units <= 0:
            return 0
        if self.encoding == UTF32 or line.isascii():
            return min(units, len(line))
        if self.encoding == UTF16:
            if not _ASTRAL_RE.search(line):
                return min(units, len(line))
            col = 0
            for ch in line:
                units -= 2 if ch > "\uffff" else 1
                if units < 0:
                    break
                col += 1
            return col
        if not _SURROGATE_RE.search(line):
            data = line.encode("utf-8")[:units]
            return len(data.decode("utf-8", errors="ignore"))
        col = 0
        for ch in line:
            units -= len(ch.encode("utf-8", errors="surrogatepass"))
            if units < 0:
                break
            col += 1
        return col

    def position(self, lines: Sequence[str], line: int, col: int) -> types.Position:
        """A core position as an LSP Position (a line past the end maps to the document's end)."""
        if line >= len(lines):
            last = len(lines) - 1
            return types.Position(last, self.to_client(lines[last], len(lines[last]))) if last >= 0 else types.Position(0, 0)
        return types.Position(line, self.to_client(lines[line], col))

    def range(self, lines: Sequence[str], span: Span) -> types.Range:
        return types.Range(self.position(lines, span.start_line, span.start_col),
                           self.position(lines, span.end_line, span.end_col))

    def range_json(self, lines: Sequence[str], span: Span) -> dict[str, dict[str, int]]:
        """:meth:`range` as plain JSON data, for payloads built without lsprotocol objects."""
        start = self.position(lines, span.start_line, span.start_col)
        end = self.position(lines, span.end_line, span.end_col)
        return {"start": {"line": start.line, "character": start.character},
                "end": {"line": end.line, "character": end.character}}

    def to_core(self, lines: Sequence[str], pos: types.Position, *, allow_end: bool = False) -> tuple[int, int]:
        """An LSP Position as (line, code-point column); :class:`PositionError` when the line does not exist.

        A character past the end of its line means the end of the line (as the LSP specification says).
        ``allow_end`` accepts the position just after the last line, which some clients use for appends.
        """
        if pos.line < 0 or pos.character < 0:
            raise PositionError(f"position {pos.line}:{pos.character} is negative")
        if pos.line >= len(lines):
            if allow_end and pos.line == len(lines) and pos.character == 0:
                last = len(lines) - 1
                return last, len(lines[last])
            raise PositionError(
                f"position {pos.line}:{pos.character} is past the end of the document ({len(lines)} lines)"
            )
        return pos.line, self.from_client(lines[pos.line], pos.character)
