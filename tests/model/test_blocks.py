"""The fast paths (plain paragraphs and bullets, simple pipe tables) must read sections as markdown-it-py does."""

import random

import pytest

from safereq.model import parser
from safereq.model.blocks import is_plain, markdown_it_blocks, split_tables
from safereq.model.parser import parse_section

SECTIONS = [
    "The system shall stop.\n\n- ASIL: D\n- Derived from: SG-1",
    "First line\nsecond line of the same paragraph\n\n* a bullet\nlazy continuation\n+ another",
    "- ASIL: B\n- Verified by: TC-1, TC-2\n\nA closing paragraph with **bold** and `code`.",
    "-   wide marker spacing\n-\ttab after marker",
    "中文需求应在 100 ms 内完成。\n- ASIL：D",
    "",
    "- Rationale: a long rationale\nthat continues lazily\n- Status: draft\nNote: not a key",
    "**ASIL:** B(D)\nDerived from: SG-1, `SG-2`\n  \n- Verified by: TC-1，TC-2、TC-3\n\t\ncontinued prose",
]
# Lines from which random sections are made. Left out on purpose: lines of white space other than spaces
# and tabs, and bullets with nothing after the marker, which the fast path reads otherwise than markdown-it
# (see blocks.split_tables); sections without tables read them as they always have.
LINES = [
    "", "", "  ", "\t", "The function shall react within 100 ms.", "continued: with a colon", "- ASIL: D",
    "* Derived from: SG-1, SG-2", "+ Verified by: TC-1", "-   Status: draft", "-\tFTTI: 50 ms", "**ASIL**: QM",
    "- **Derived from:** `SG-3`, *SG-4*", "Rationale: because", "a lazy line", "- -dash", "- 1x", "*x*: y",
    "系统应在 100 ms 内完成。", "- 状态：草稿", "Derived from: SG-1；SG-2", "trailing  ", "- x\\", "2024: a year",
]
TABLE_LINES = [
    "| ID | S | E | C | ASIL | Safety goal |", "|---|:--|--:|:-:|---|---|", "| HE-1 | S3 | E4 | C3 | D | SG-1 |",
    "| HE-2 | S1 | E2 | C1 | QM |", "| | S1 | E1 | C1 | QM |", "| a \\| b | c |", "|", "| a | b |  ",
]


def read(text: str, *, markdown_it: bool = False, monkeypatch=None, vocab=None):
    if markdown_it:
        monkeypatch.setattr(parser, "is_plain", lambda text, body=0: False)
        monkeypatch.setattr(parser, "split_tables", lambda lines: None)
    try:
        return parse_section(text, 10, vocab)
    finally:
        if markdown_it:
            monkeypatch.undo()


def assert_same_reading(text, vocab, monkeypatch):
    fast = read(text, vocab=vocab)
    slow = read(text, markdown_it=True, monkeypatch=monkeypatch, vocab=vocab)
    assert fast == slow, text


@pytest.mark.parametrize("text", SECTIONS)
def test_fast_path_agrees_with_markdown_it(text, vocab, monkeypatch):
    assert is_plain(text)
    assert_same_reading(text, vocab, monkeypatch)


def test_fast_path_agrees_with_markdown_it_on_random_sections(vocab, monkeypatch):
    rng = random.Random(5)
    for _ in range(150):
        text = "\n".join(rng.choice(LINES) for _ in range(rng.randrange(1, 9)))
        assert is_plain(text)
        assert_same_reading(text, vocab, monkeypatch)
        assert_same_reading("## SG-1: A heading\n" + text, vocab, monkeypatch)


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
def test_anything_else_is_not_plain(text):
    assert not is_plain(text)
    assert not is_plain("## SG-1: x\n" + text, len("## SG-1: x\n"))


def test_quotes_and_code_are_not_prose():
    blocks = markdown_it_blocks("> note: shall\n\n```\nshall\n```\n\nreal prose".split("\n"), 0)
    assert blocks.paragraphs == [[(6, 0, "real prose")]]
    assert blocks.code_lines == {2, 3, 4}


HARA = (
    "Hazards of the function:\n\n"
    "| ID | Hazardous event | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|---|\n"
    "| HE-1 | Loss of braking | S3 | E4 | C3 | D | SG-1 |\n| HE-2 | Late braking | S2 | E3 | C2 | A | SG-2 |\n"
    "\n- Status: draft"
)


def test_a_simple_table_is_read_without_markdown_it(vocab, monkeypatch):
    lines = HARA.split("\n")
    prose, tables = split_tables(lines)
    assert tables == [(2, 6)] and prose[2:6] == [""] * 4 and prose[0] == lines[0]
    result = read(HARA, vocab=vocab)
    assert [row.id for row in result.hara_rows] == ["HE-1", "HE-2"]
    assert_same_reading(HARA, vocab, monkeypatch)
    assert_same_reading("## Hazard analysis\n\n" + HARA, vocab, monkeypatch)


@pytest.mark.parametrize("text", [
    "Prose right before\n| a | b |\n|---|---|",  # a table may interrupt a paragraph: left to markdown-it
    "| a | b |\n|---|---|\nprose right after",  # which markdown-it reads as a row
    "| a | b |\n|---|",  # header and delimiter differ in cells: not a table
    "| a | b |\n|---|-x-|",
    "| a |\n|---|\n row not starting with a pipe |",
    "| a |\n|---|\n\n+\n",  # a bullet with nothing after it
    "| a |\n|---|\n\n\x0c\n",  # white space that markdown-it does not take as blank
    "| a |\n|---|\n| b\rc |",  # markdown-it breaks the line at the carriage return
    "| a |\x0c\n|---|",
    "| a |\n|---|\n\n```\ncode\n```",
])
def test_tables_in_any_other_shape_are_left_to_markdown_it(text):
    assert split_tables(text.split("\n")) is None


def test_random_tables_read_like_markdown_it(vocab, monkeypatch):
    rng = random.Random(9)
    taken = 0
    for _ in range(150):
        parts = []
        for _ in range(rng.randrange(1, 4)):
            if rng.random() < 0.5:
                parts.append("\n".join([TABLE_LINES[0], TABLE_LINES[1]] + rng.sample(TABLE_LINES, rng.randrange(0, 4))))
            else:
                parts.append("\n".join(rng.choice(LINES) for _ in range(rng.randrange(1, 4))))
        text = rng.choice(["\n\n", "\n"]).join(parts)
        taken += split_tables(text.split("\n")) is not None
        assert_same_reading(text, vocab, monkeypatch)
    assert taken > 30


def test_a_carriage_return_inside_a_line_keeps_markdown_it_on_the_same_lines():
    blocks = markdown_it_blocks(["> quote", "", "a\rb", "c", "", "- ASIL: B\r\r"], 0)
    assert blocks.paragraphs == [[(2, 0, "a\rb"), (3, 0, "c")], [(5, 2, "ASIL: B")]]


@pytest.mark.parametrize("short", [False, True], ids=["full rows", "short rows"])
def test_a_table_larger_than_markdown_its_fill_limit_is_read_alike(vocab, monkeypatch, short):
    """Issue 12: a 100,000-row HARA went to markdown-it (minutes) because rows × columns passed its limit on
    filled-in cells; only rows missing cells count there. Short rows reaching the limit still go to it."""
    rows = [f"| HE-{i} |" if short else f"| HE-{i} | S3 | E4 | C3 | D | SG-1 |" for i in range(14_000)]
    text = "\n".join([TABLE_LINES[0], "|---|---|---|---|---|---|", *rows])
    assert (split_tables(text.split("\n")) is None) == short
    assert_same_reading(text, vocab, monkeypatch)
