"""The text of documents open in the editor, kept current from didOpen/didChange with incremental edits.

pygls keeps its own copies, but applies edits by rebuilding the whole text line by line and silently
accepts stale versions and ranges past the end. Here an edit costs in proportion to the lines it touches,
and the text handed to the core always uses ``\\n`` line breaks.

Each line's terminator is kept beside it (``\\n``, ``\\r\\n`` or a lone ``\\r``) because an edit can join a
CR and an LF into one line break, or part them: typing ``\\r`` before an LF, or deleting what stood between a
lone CR and an LF, changes the editor's line count, and the edit's text alone does not say so.

A change that cannot be applied (an out-of-order version, a range that does not exist) means the server no
longer knows what the editor shows. LSP has no way to ask for the text again, so the document is marked
*diverged*: it stays so, and nothing is computed from its text, until a change replaces the whole text or the
editor opens it again. Guessing would be worse: a fix computed on stale text edits the wrong characters.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from .positions import Codec, PositionError, split_with_ends


class ChangeError(ValueError):
    """A change that cannot be applied; the document keeps its previous text and version."""


class OpenDocument:
    """One open document: its URI, version and lines (without terminators), and each line's terminator."""

    __slots__ = ("uri", "version", "language_id", "lines", "ends", "diverged", "_text")

    def __init__(self, uri: str, text: str, version: int | None, language_id: str = "") -> None:
        self.uri = uri
        self.version = version
        self.language_id = language_id
        self.lines, self.ends = split_with_ends(text)
        self.diverged: str | None = None  # why the text is no longer the editor's, while it is not
        self._text: str | None = None

    @property
    def text(self) -> str:
        """The whole text with ``\\n`` line breaks (built once per change)."""
        if self._text is None:
            self._text = "\n".join(self.lines)
        return self._text

    def apply(self, version: int | None, changes: Sequence[types.TextDocumentContentChangeEvent], codec: Codec) -> None:
        """Apply ``changes`` in order, all or nothing.

        Raises :class:`ChangeError` on a stale version or a bad range, and the document is then diverged.
        A diverged document takes only whole-text changes (the ones after the last such change in the batch).
        """
        if self.diverged is not None:
            whole = [i for i, c in enumerate(changes) if not isinstance(c, types.TextDocumentContentChangePartial)]
            self.version = version
            if not whole:
                return
            changes = changes[whole[-1]:]
        elif version is not None and self.version is not None and version <= self.version:
            self._diverge(version, f"{self.uri}: change to version {version} arrived after version {self.version}")
        try:
            lines, ends = _applied(self.lines, self.ends, changes, codec)
        except ChangeError as exc:
            self._diverge(version, f"{self.uri}: {exc}")
        self.lines, self.ends = lines, ends
        self.version = version
        self.diverged = None
        self._text = None

    def _diverge(self, version: int | None, reason: str) -> None:
        self.diverged = reason
        self.version = version
        raise ChangeError(f"{reason}; the server no longer has the editor's text of this document")


def _applied(lines: list[str], ends: list[str], changes: Sequence[types.TextDocumentContentChangeEvent],
             codec: Codec) -> tuple[list[str], list[str]]:
    """``lines`` and ``ends`` after ``changes`` (new lists when anything changed; the arguments are never modified)."""
    copied = False
    for change in changes:
        if isinstance(change, types.TextDocumentContentChangePartial):
            if not copied:
                lines, ends = list(lines), list(ends)
                copied = True
            try:
                sl, sc = codec.to_core(lines, change.range.start, allow_end=True)
                el, ec = codec.to_core(lines, change.range.end, allow_end=True)
            except PositionError as exc:
                raise ChangeError(f"change range {exc}") from None
            if (el, ec) < (sl, sc):
                raise ChangeError("change range ends before it starts")
            head = lines[sl][:sc]
            if sc == 0 and sl > 0 and ends[sl - 1] == "\r":
                # The line before ends in a lone CR: an LF at the start of the new text joins it into a CRLF.
                sl -= 1
                head = lines[sl] + "\r"
            tail_end = ends[el]
            new_lines, new_ends = split_with_ends(head + change.text + lines[el][ec:] + tail_end)
            if tail_end:  # the piece ended with a line break: the empty line after it is line el + 1's start
                del new_lines[-1], new_ends[-1]
            lines[sl:el + 1] = new_lines
            ends[sl:el + 1] = new_ends
        else:
            lines, ends = split_with_ends(change.text)
            copied = True
    return lines, ends
