"""Column conversion between code points and UTF-16 / UTF-8 / UTF-32, and incremental edits of open buffers."""

from __future__ import annotations

import pytest
from lsprotocol import types

from safereq.lsp.documents import ChangeError, OpenDocument
from safereq.lsp.positions import Codec, PositionError, choose_encoding, normalise, split_lines

LINE = "行人 😀 SG-1"  # "SG-1" starts at code point 5


@pytest.mark.parametrize("encoding, units", [("utf-16", 6), ("utf-8", 12), ("utf-32", 5)])
def test_round_trip_after_emoji(encoding, units):
    codec = Codec(encoding)
    assert codec.to_client(LINE, 5) == units
    assert codec.from_client(LINE, units) == 5


def test_inside_a_character_lands_on_its_start_and_past_the_end_clamps():
    assert Codec("utf-16").from_client(LINE, 4) == 3  # between the two halves of the emoji
    assert Codec("utf-8").from_client(LINE, 2) == 0  # inside the first Chinese character
    assert Codec("utf-16").from_client(LINE, 99) == len(LINE)


def test_encoding_choice_prefers_code_points_only_when_offered():
    assert choose_encoding(None) == "utf-16"
    assert choose_encoding(["utf-16"]) == "utf-16"
    assert choose_encoding(["utf-16", "utf-8"]) == "utf-8"
    assert choose_encoding(["utf-8", "utf-32"]) == "utf-32"


def test_lines_split_like_lsp():
    assert split_lines("a\r\nb\rc\nd") == ["a", "b", "c", "d"]
    assert normalise("a\r\nb\rc") == "a\nb\nc"


def test_positions_past_the_end():
    lines = ["abc", ""]
    codec = Codec()
    with pytest.raises(PositionError, match="past the end"):
        codec.to_core(lines, types.Position(2, 0))
    assert codec.to_core(lines, types.Position(2, 0), allow_end=True) == (1, 0)


def edit(sl, sc, el, ec, text):
    return types.TextDocumentContentChangePartial(range=types.Range(types.Position(sl, sc), types.Position(el, ec)), text=text)


def test_incremental_changes_and_versions():
    doc = OpenDocument("untitled:x", "# T\n行人 😀 SG-1\n", 1)
    doc.apply(2, [edit(1, 6, 1, 10, "SG-2\nnew line")], Codec("utf-16"))
    assert doc.text == "# T\n行人 😀 SG-2\nnew line\n" and doc.version == 2
    doc.apply(3, [edit(0, 0, 2, 0, ""), types.TextDocumentContentChangeWholeDocument(text="whole")], Codec())
    assert doc.text == "whole"
    with pytest.raises(ChangeError, match="past the end"):
        doc.apply(4, [edit(0, 0, 0, 0, "ok"), edit(5, 0, 5, 0, "bad")], Codec())
    assert doc.text == "whole" and doc.diverged  # all or nothing, and the text is no longer trusted


@pytest.mark.parametrize("bad", [
    pytest.param((3, [edit(0, 0, 0, 0, "x")]), id="stale version"),
    pytest.param((4, [edit(5, 0, 5, 0, "x")]), id="range past the end"),
    pytest.param((4, [edit(0, 3, 0, 1, "x")]), id="range ends before it starts"),
])
def test_a_change_that_cannot_be_applied_diverges_until_the_whole_text_comes(bad):
    """Refusing a change and carrying on would leave the server with text the editor no longer shows."""
    doc = OpenDocument("untitled:x", "abc\n", 3)
    with pytest.raises(ChangeError, match="no longer has the editor's text"):
        doc.apply(*bad, Codec())
    assert doc.diverged is not None
    doc.apply(5, [edit(0, 0, 0, 0, "still unknown")], Codec())  # incremental changes cannot repair it
    assert doc.diverged is not None and doc.text == "abc\n" and doc.version == 5
    doc.apply(6, [edit(0, 0, 0, 0, "lost"), types.TextDocumentContentChangeWholeDocument(text="new\n"),
                  edit(0, 0, 0, 0, "+")], Codec())
    assert doc.diverged is None and doc.text == "+new\n" and doc.version == 6


LONE = "a\ud83db\U0001f600c"  # a lone high surrogate (one UTF-16 unit), then an emoji (two)


@pytest.mark.parametrize("encoding, units", [
    ("utf-16", [0, 1, 2, 3, 5, 6]), ("utf-8", [0, 1, 4, 5, 9, 10]), ("utf-32", [0, 1, 2, 3, 4, 5])])
def test_a_lone_surrogate_is_one_code_point_in_every_encoding(encoding, units):
    codec = Codec(encoding)
    assert [codec.to_client(LONE, col) for col in range(len(LONE) + 1)] == units
    assert [codec.from_client(LONE, u) for u in units] == list(range(len(LONE) + 1))


def test_a_lone_surrogate_typed_in_the_editor_is_kept():
    """Issue 12: a change on a line holding ``\\ud83d`` used to fail with UnicodeEncodeError and be dropped."""
    doc = OpenDocument("untitled:x", "- Derived from: SG-9\n", 1)
    doc.apply(2, [edit(0, 0, 0, 0, "\ud83d")], Codec("utf-16"))
    doc.apply(3, [edit(0, 1, 0, 1, "x"), edit(0, 21, 0, 22, "1")], Codec("utf-16"))
    assert doc.text == "\ud83dx- Derived from: SG-1\n" and doc.diverged is None


def _editor_lines(text: str) -> list[str]:
    """The lines an editor sees: the text split at CRLF, CR and LF, independently of the server's code."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


@pytest.mark.parametrize("text, change, after", [
    ("abc\ndef", (0, 3, 0, 3, "\r"), "abc\r\ndef"),          # a CR typed before an LF: one CRLF, still two lines
    ("abc\rX\ndef", (1, 0, 1, 1, ""), "abc\r\ndef"),          # deleting what stood between CR and LF
    ("abc\rdef", (1, 0, 1, 0, "\n"), "abc\r\ndef"),           # an LF typed after a lone CR
    ("abc\r\ndef", (0, 3, 0, 3, "\r"), "abc\r\r\ndef"),       # a CR before a CRLF stays its own break
    ("a\rb\rc\nd", (1, 0, 2, 0, ""), "a\rc\nd"),              # a deletion across lines next to a lone CR
    ("a\r", (1, 0, 1, 0, "\nb"), "a\r\nb"),                   # at the very end
])
def test_an_edit_that_joins_or_parts_cr_and_lf_keeps_the_editors_lines(text, change, after):
    """Issue 12 (found by the long LSP fuzz run, utf-16 seed 0): the server kept lines without their
    terminators, so typing a CR before an LF gave it one line more than the editor and every finding below
    was reported a line too low."""
    doc = OpenDocument("untitled:x", text, 1)
    doc.apply(2, [edit(*change)], Codec("utf-16"))
    assert doc.lines == _editor_lines(after)
    assert doc.text == "\n".join(_editor_lines(after))
