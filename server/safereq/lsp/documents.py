"""The text of documents open in the editor, kept current from didOpen/didChange with incremental edits.

pygls keeps its own copies, but applies edits by rebuilding the whole text line by line and silently
accepts stale versions and ranges past the end. Here an edit costs in proportion to the lines it touches,
an out-of-order version or an impossible range is refused with a clear message (and the document is left
as it was), and the text handed to the core always uses ``\\n`` line breaks.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from .positions import Codec, PositionError, split_lines


class ChangeError(ValueError):
    """A change that cannot be applied; the document keeps its previous text and version."""


class OpenDocument:
    """One open document: its URI, version and lines (without terminators)."""

    __slots__ = ("uri", "version", "language_id", "lines", "_text")

    def __init__(self, uri: str, text: str, version: int | None, language_id: str = "") -> None:
        self.uri = uri
        self.version = version
        self.language_id = language_id
        self.lines: list[str] = split_lines(text)
        self._text: str | None = None

    @property
    def text(self) -> str:
        """The whole text with ``\\n`` line breaks (built once per change)."""
        if self._text is None:
            self._text = "\n".join(self.lines)
        return self._text

    def apply(self, version: int | None, changes: Sequence[types.TextDocumentContentChangeEvent], codec: Codec) -> None:
        """Apply ``changes`` in order; all or nothing. Raises :class:`ChangeError` on a stale version or bad range."""
        if version is not None and self.version is not None and version <= self.version:
            raise ChangeError(
                f"{self.uri}: change to version {version} arrived after version {self.version}; ignored"
            )
        lines = self.lines
        copied = False
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                if not copied:
                    lines = list(lines)
                    copied = True
                try:
                    sl, sc = codec.to_core(lines, change.range.start, allow_end=True)
                    el, ec = codec.to_core(lines, change.range.end, allow_end=True)
                except PositionError as exc:
                    raise ChangeError(f"{self.uri}: change range {exc}; change ignored") from None
                if (el, ec) < (sl, sc):
                    raise ChangeError(f"{self.uri}: change range ends before it starts; change ignored")
                new = split_lines(lines[sl][:sc] + change.text + lines[el][ec:])
                lines[sl:el + 1] = new
            else:
                lines = split_lines(change.text)
                copied = True
        self.lines = lines
        self.version = version
        self._text = None
