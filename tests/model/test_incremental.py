"""Incremental parsing: unchanged sections and items are reused, results equal a fresh parse."""

from safereq.model.parser import parse_document

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
