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
    with pytest.raises(ChangeError, match="arrived after version 3"):
        doc.apply(3, [edit(0, 0, 0, 0, "x")], Codec())
    with pytest.raises(ChangeError, match="past the end"):
        doc.apply(4, [edit(0, 0, 0, 0, "ok"), edit(5, 0, 5, 0, "bad")], Codec())
    assert doc.text == "whole" and doc.version == 3  # all or nothing
