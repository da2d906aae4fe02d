"""Incremental parsing: unchanged sections and items are reused, results equal a fresh parse."""

import random

import pytest

from safereq.model.incremental import parse_document

BASE = "".join(
    f"## FSR-{i}: Requirement {i}\nThe function shall react within {i} ms.\n\n- ASIL: B\n- Derived from: SG-1\n\n"
    for i in range(1, 51)
)


def snapshot(doc):
    return [(i.id, i.statement.text, i.heading_span, i.end_line, [(a.key, a.value, a.value_span) for a in i.attributes])
            for i in doc.items]


def test_edit_in_one_section_reuses_other_items(vocab):
    first = parse_document("d.md", BASE, vocab)
    edited = BASE.replace("react within 7 ms", "react within 8 ms")
    second = parse_document("d.md", edited, vocab, first)
    changed = [a.id for a, b in zip(first.items, second.items) if a is not b]
    assert changed == ["FSR-7"]
    assert snapshot(second) == snapshot(parse_document("d.md", edited, vocab))


def test_inserted_line_shifts_later_sections_exactly(vocab):
    first = parse_document("d.md", BASE, vocab)
    edited = BASE.replace("## FSR-3: Requirement 3\n", "## FSR-3: Requirement 3\nA new line.\n")
    second = parse_document("d.md", edited, vocab, first)
    assert snapshot(second) == snapshot(parse_document("d.md", edited, vocab))
    assert second.items[0] is first.items[0]


def test_front_matter_change_rebuilds_items(vocab):
    first = parse_document("d.md", "---\nlanguage: en\n---\n" + BASE, vocab)
    second = parse_document("d.md", "---\nlanguage: zh\n---\n" + BASE, vocab, first)
    assert all(a is not b for a, b in zip(first.items, second.items))


RICH = "# System\n\nIntro text.\n\n" + "".join(
    f"## FSR-{i}: Requirement {i}\nThe function shall react within {i} ms.\n\n- ASIL: B\n- Derived from: SG-1\n\n"
    + ("### Notes\nSee ISO 26262-3:2018 clause 6.4.2.\n\n" if i % 5 == 0 else "")
    + ("## Background\nProse only.\n\n" if i % 7 == 0 else "")
    for i in range(1, 31)
)
MUTATIONS = (
    lambda line: line + " more",
    lambda line: "",
    lambda line: "## REQ-99: a new item",
    lambda line: "### Sub heading",
    lambda line: "# Top heading",
    lambda line: line.lstrip("#").lstrip(),
    lambda line: "- Derived from: FSR-3",
    lambda line: "```",  # opens or closes fenced code: headings far below change meaning
    lambda line: "| ID | S | E | C | ASIL |\n|---|---|---|---|---|\n| HE-1 | S3 | E4 | C3 | D |",
)


def full_snapshot(doc):
    return (snapshot(doc), [(i.id, i.kind, i.level, i.language, i.title_span) for i in doc.items],
            [(p.code, p.span) for p in doc.problems], [(r.id, r.span) for r in doc.hara_rows],
            [(c.clause, c.span) for c in doc.clause_refs])


@pytest.mark.parametrize("seed", range(30))
def test_chained_random_edits_equal_a_fresh_parse(vocab, seed):
    """Each parse reuses the previous incremental one, so a wrong splice would accumulate and show."""
    rng = random.Random(seed)
    text = RICH
    doc = parse_document("d.md", text, vocab)
    for _ in range(15):
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        how = rng.randrange(len(MUTATIONS) + 2)
        if how == len(MUTATIONS):
            del lines[k]
        elif how == len(MUTATIONS) + 1:
            lines.insert(k, "An inserted line.")
        else:
            lines[k] = MUTATIONS[how](lines[k])
        new_text = "\n".join(lines)
        version = doc.sections.version
        new_doc = parse_document("d.md", new_text, vocab, doc)
        assert full_snapshot(new_doc) == full_snapshot(parse_document("d.md", new_text, vocab)), (seed, k, how)
        # What the parse says it replaced is exactly what changed (the workspace re-indexes only that).
        old_ids, new_ids = set(map(id, doc.items)), set(map(id, new_doc.items))
        assert new_doc.sections.base is doc.items
        assert set(map(id, new_doc.sections.added)) == new_ids - old_ids
        assert set(map(id, new_doc.sections.removed)) == old_ids - new_ids
        # Items before the edited line that no heading change could reach keep their identity.
        before = [i for i in doc.items if i.end_line < k - 1]
        assert all(a is b for a, b in zip(before, new_doc.items))
        # The line change maps every old line it did not replace to the same text, and leaves the edit alone.
        change = new_doc.sections.changes[-1]
        new_lines = new_text.split("\n")
        assert change.version == new_doc.sections.version == version + 1
        assert (change.first <= k + 3 or new_text == text) and all(new_lines[change.maps(x)] == line for x, line in enumerate(text.split("\n"))
                                          if change.maps(x) is not None)
        assert len(new_lines) - change.new_end == len(text.split("\n")) - change.old_end
        text, doc = new_text, new_doc


def test_moved_items_are_recorded_with_their_distance(vocab):
    first = parse_document("d.md", BASE, vocab)
    edited = BASE.replace("## FSR-3: Requirement 3\n", "## FSR-3: Requirement 3\nOne.\nTwo.\n")
    second = parse_document("d.md", edited, vocab, first)
    moved = second.sections.moved
    later = second.items[3:]
    assert later and all(moved[id(item)][1] == 2 for item in later)
    assert [moved[id(item)][0] for item in later] == first.items[3:]


def test_moved_items_keep_their_identity_and_report_where_they_are_now(vocab):
    first = parse_document("d.md", BASE, vocab)
    edited = BASE.replace("## FSR-3: Requirement 3\n", "## FSR-3: Requirement 3\nOne.\nTwo.\n")
    second = parse_document("d.md", edited, vocab, first)
    assert all(a is b for a, b in zip(first.items[3:], second.items[3:]))
    fresh = parse_document("d.md", edited, vocab)
    assert snapshot(second) == snapshot(fresh)
    assert [[link.span for a in i.attributes for link in a.links] for i in second.items] == [
        [link.span for a in i.attributes for link in a.links] for i in fresh.items]
    change = second.sections.changes[-1]
    assert (change.first, change.old_end, change.new_end) == (13, 13, 15)


def test_a_parse_is_made_incremental_from_the_latest_parse_only(vocab):
    """Moving sections moves them in the previous parse too, so that parse can seed one more parse only;
    another parse from it starts from scratch and is still right."""
    first = parse_document("d.md", BASE, vocab)
    one = BASE.replace("## FSR-3: Requirement 3\n", "## FSR-3: Requirement 3\nOne.\n")
    two = BASE.replace("## FSR-2: Requirement 2\n", "## FSR-2: Requirement 2\nOne.\nTwo.\n")
    parse_document("d.md", one, vocab, first)
    again = parse_document("d.md", two, vocab, first)
    assert first.sections is None and again.sections.version == 0
    assert snapshot(again) == snapshot(parse_document("d.md", two, vocab))


def test_a_line_is_read_from_its_section_as_written(vocab):
    text = "---\nkind: FSR\n---\n" + RICH.replace("\n", "\r\n", 40)
    doc = parse_document("d.md", text, vocab)
    edited = parse_document("d.md", text.replace("react within 3 ms", "react within 30 ms"), vocab, doc)
    for d in (doc, edited):
        lines = d.text.split("\n")
        assert [d.line(n) for n in range(len(lines) + 2)] == lines + ["", ""]
