"""The line-by-line fast path must read sections exactly as markdown-it-py does."""

import pytest

from safereq.model.blocks import _fast_path_ok, section_blocks

SECTIONS = [
    "The system shall stop.\n\n- ASIL: D\n- Derived from: SG-1",
    "First line\nsecond line of the same paragraph\n\n* a bullet\nlazy continuation\n+ another",
    "- ASIL: B\n- Verified by: TC-1, TC-2\n\nA closing paragraph with **bold** and `code`.",
    "-   wide marker spacing\n-\ttab after marker",
    "中文需求应在 100 ms 内完成。\n- ASIL：D",
    "",
]


@pytest.mark.parametrize("text", SECTIONS)
def test_fast_path_agrees_with_markdown_it(text):
    lines = text.split("\n")
    assert _fast_path_ok(lines)
    fast = section_blocks(lines, 10)
    slow = section_blocks(lines, 10, force_markdown_it=True)
    assert fast.paragraphs == slow.paragraphs
    assert fast.tables == slow.tables == []


@pytest.mark.parametrize("text", [
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "> quoted shall\n\nplain",
    "```\ncode shall\n```",
    "1. ordered\n2. list",
    "    indented code",
    "Setext\n---",
    "<div>html</div>",
    "- - nested",
])
def test_anything_else_goes_to_markdown_it(text):
    assert not _fast_path_ok(text.split("\n"))


def test_quotes_and_code_are_not_prose():
    blocks = section_blocks("> note: shall\n\n```\nshall\n```\n\nreal prose".split("\n"), 0)
    assert blocks.paragraphs == [[(6, 0, "real prose")]]
    assert blocks.code_lines == {2, 3, 4}
