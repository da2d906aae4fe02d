"""primaryLocationLineHash as GitHub's upload action computes it: the published test vectors of
github/codeql-action's fingerprinting (inputs and expected hashes are facts about that algorithm)."""

from __future__ import annotations

import pytest

from safereq.report.line_hash import line_hashes


@pytest.mark.parametrize("text, expected", [
    ("", ["c129715d7a2bc9a3:1"]),
    (" a\nb\n  \t\tc\n d", ["271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"]),
    (" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
     ["8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1",
      "b86d3392aea1be30:1", "e6ceba753e1a442:1"]),
])
def test_published_vectors(text, expected):
    assert line_hashes(text) == expected


@pytest.mark.parametrize("ending", ["\n", "\r", "\r\n"])
def test_line_ends_do_not_change_the_hashes(ending):
    text = ending.join([" hello; \t", "world!!!", "", "", "  \t\tGreetings", " End", ""])
    assert line_hashes(text) == ["e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1",
                                 "e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1",
                                 "c129715d7a2bc9a3:1"]


def test_repeated_lines_are_numbered():
    assert line_hashes("Lorem ipsum dolor sit amet.\n" * 10) == [
        *(f"a7f2ff13bc495cf2:{n}" for n in range(1, 7)), "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
        "55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"]


