"""Section splitting, and re-splitting only around an edit, must equal a full split."""

import random

import pytest

from safereq.model.sections import changed_lines, resplit_sections, split_sections

BASE = "# Title\n\nIntro.\n\n" + "".join(
    f"## FSR-{i}: Title {i}\nThe function shall react within {i} ms.\n- ASIL: B\n\n" for i in range(1, 40)
)


def edits(text: str, rng: random.Random):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    choice = rng.randrange(7)
    if choice == 0:
        lines[i] += " more"
    elif choice == 1:
        lines.insert(i, "")
    elif choice == 2 and len(lines) > 1:
        del lines[i]
    elif choice == 3:
        lines.insert(i, "## REQ-99: new heading")
    elif choice == 4 and lines[i].startswith("#"):
        lines[i] = lines[i].lstrip("#")  # a heading stops being one
    elif choice == 5 and i + 1 < len(lines):
        lines[i] = lines[i] + " " + lines.pop(i + 1)  # two lines joined
    else:
        lines[i] = "#" + lines[i]
    return "\n".join(lines)


def assert_resplit(text, sections, new):
    """The re-split equals a full split, and what it says it kept is really the old sections."""
    sections_new, head, tail, line_delta, fenced = resplit_sections(text, sections, new, 0)
    assert fenced == ("```" in new or "~~~" in new)
    assert sections_new == split_sections(new)
    old_rows, new_rows = list(zip(*sections)), list(zip(*sections_new))
    assert new_rows[:head] == old_rows[:head]
    for (old_line, old_text, _), (new_line, new_text, _) in zip(old_rows[len(old_rows) - tail:], new_rows[len(new_rows) - tail:]):
        assert (new_text, new_line) == (old_text, old_line + line_delta)


@pytest.mark.parametrize("seed", range(25))
def test_resplit_equals_a_full_split(seed):
    rng = random.Random(seed)
    text = BASE
    sections = split_sections(text)
    for _ in range(20):
        new = edits(text, rng)
        assert_resplit(text, sections, new)
        text, sections = new, split_sections(new)


def test_fences_fall_back_to_a_full_split():
    text = "## A-1: x\n```\n## B-1: in code\n```\n## C-1: y\n"
    new = text.replace("```\n## B", "## B", 1)
    assert_resplit(text, split_sections(text), new)


def test_sections_skip_fenced_headings():
    text = "## A-1: x\n```\n## B-1: in code\n```\n## C-1: y\n"
    assert split_sections(text).lines == [0, 4]


@pytest.mark.parametrize("seed", range(10))
def test_resplit_equals_a_full_split_in_a_long_document(seed):
    rng = random.Random(1000 + seed)
    text = BASE * 8  # several hundred sections: whole blocks of sections are skipped at once
    sections = split_sections(text)
    for _ in range(10):
        new = edits(text, rng)
        assert_resplit(text, sections, new)
        text, sections = new, split_sections(new)


def test_headings_on_the_first_and_the_last_line_split():
    layout = split_sections("# A\ntext\n## B")
    assert layout.lines == [0, 2] and layout.texts == ["# A\ntext", "## B"] and layout.offsets == [0, 9]


def test_a_region_is_split_like_the_whole_text():
    text = BASE
    whole = split_sections(text)
    k = 10
    region = split_sections(text, whole.offsets[k], whole.offsets[k + 5], whole.lines[k])
    assert region == (whole.lines[k:k + 5], whole.texts[k:k + 5], whole.offsets[k:k + 5])


@pytest.mark.parametrize("seed", range(10))
def test_changed_lines_map_every_line_they_keep_to_the_same_text(seed):
    rng = random.Random(seed)
    for _ in range(300):
        words = ["a", "b", "ab", "", "x y", "## H"]
        old = "\n".join(rng.choice(words) for _ in range(rng.randrange(9)))
        new = edits(old, rng) if rng.random() < 0.7 else old[:rng.randrange(len(old) + 1)] + rng.choice(
            ["\n", "a", "\nb\n"]) + old[rng.randrange(len(old) + 1):]
        change = changed_lines(old, new, 1)
        old_lines, new_lines = old.split("\n"), new.split("\n")
        assert change.first <= min(change.old_end, change.new_end)
        assert len(old_lines) - change.old_end == len(new_lines) - change.new_end
        for line, text in enumerate(old_lines):
            now = change.maps(line)
            assert (now is None) == (change.first <= line < change.old_end)
            assert now is None or new_lines[now] == text


def test_changed_lines_are_tight_for_typing_and_for_inserting_or_deleting_lines():
    old = "".join(f"line {i}\n" for i in range(5000))  # longer than a compared block
    typed = old.replace("line 2500\n", "line 2500 more\n")
    inserted = old.replace("line 2500\n", "line 2500\nline 2500\n")  # the same text again: still one line
    deleted = old.replace("line 2500\n", "")
    assert changed_lines(old, typed, 1)[1:] == (2500, 2501, 2501)
    assert changed_lines(old, inserted, 1)[1:] == (2501, 2501, 2502)
    assert changed_lines(old, deleted, 1)[1:] == (2500, 2501, 2500)
    assert changed_lines(old, old, 1).maps(4999) == 4999
    # What the caller knows to be equal is taken on trust (the resplit has compared it already).
    assert changed_lines(old, typed, 1, same_before=len("line 0\n"), same_after=len("line 4999\n"),
                         line_before=1)[1:] == (2500, 2501, 2501)
