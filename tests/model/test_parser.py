"""Parsing documents into items, attributes, links, HARA rows and clause references with exact spans."""

from safereq.model.document import Text
from safereq.model.incremental import parse_document
from safereq.model.parser import parse_section
from safereq.model.vocabulary import AttributeKey, Vocabulary

DOC = """\
---
language: en
---
# Lane centering

| ID | Hazardous event | S | E | C | ASIL | Safety goal |
|----|-----------------|---|---|---|------|-------------|
| HE-1 | Unintended steering | S3 | E4 | C3 | D | SG-1 |

## SG-1: Avoid unintended steering torque
The LCA shall not apply unintended steering torque.
- ASIL: D
- Hazard: HE-1

### FSR-1: Limit torque
The EPS **must** limit the torque request to 3 Nm, see ISO 26262-9:2018 §5.4.10.

**ASIL:** B(D)
Derived from: SG-1, SG-9
- Rationale: because it is
  a long rationale that shall be skipped

#### Notes
Extra prose belongs to the body.

## Other heading
Prose outside any item.

```
## FSR-99: not an item, inside a fence
```
### fsr-3: bad id
"""


def text_at(src: str, span) -> str:
    lines = src.split("\n")
    assert span.start_line == span.end_line
    return lines[span.start_line][span.start_col:span.end_col]


def test_items_and_their_bodies(vocab):
    doc = parse_document("d.md", DOC, vocab)
    assert [i.id for i in doc.items] == ["SG-1", "FSR-1"]
    sg, fsr = doc.items
    assert sg.kind == "SG" and sg.level == 2 and fsr.level == 3
    assert sg.statement.text == "The LCA shall not apply unintended steering torque."
    assert fsr.statement.text.endswith("Extra prose belongs to the body.")
    assert "rationale" not in fsr.statement.text
    assert fsr.end_line < DOC.split("\n").index("## Other heading")


def test_attribute_values_and_links_have_exact_spans(vocab):
    doc = parse_document("d.md", DOC, vocab)
    fsr = doc.items[1]
    asil = fsr.attribute("asil")
    assert asil.value == "B(D)" and text_at(DOC, asil.value_span) == "B(D)"
    links = fsr.links("derived-from")
    assert [(l.target, text_at(DOC, l.span)) for l in links] == [("SG-1", "SG-1"), ("SG-9", "SG-9")]
    rationale = fsr.attribute("rationale")
    assert rationale.value == "because it is a long rationale that shall be skipped"
    assert rationale.value_span.end_line == rationale.value_span.start_line + 1


def test_statement_offsets_map_back_to_the_source(vocab):
    doc = parse_document("d.md", DOC, vocab)
    fsr = doc.items[1]
    start = fsr.statement.text.index("must")
    assert text_at(DOC, fsr.statement.span_of(start, start + 4)) == "must"


def test_hara_rows(vocab):
    doc = parse_document("d.md", DOC, vocab)
    (row,) = doc.hara_rows
    assert row.id == "HE-1"
    assert {k: c.text for k, c in row.cells.items() if k in ("severity", "asil", "safety-goal")} == {
        "severity": "S3", "asil": "D", "safety-goal": "SG-1"}
    assert text_at(DOC, row.cells["exposure"].span) == "E4"


def test_clause_refs_outside_code_only(vocab):
    doc = parse_document("d.md", DOC, vocab)
    assert [r.key for r in doc.clause_refs] == ["ISO 26262-9 5.4.10"]
    assert doc.items[1].clause_refs[0].clause == "5.4.10"


def test_problems_for_malformed_ids_and_front_matter(vocab):
    doc = parse_document("d.md", DOC, vocab)
    assert [p.code for p in doc.problems] == ["format/malformed-id"]
    bad = parse_document("b.md", "---\nlanguage: [zh\n---\n## SG-1: x\n", vocab)
    assert bad.problems[0].code == "format/front-matter"
    assert [i.id for i in bad.items] == ["SG-1"]


def test_chinese_statement_and_full_width_colon(vocab):
    src = "## FSR-ZH-1：限制扭矩\n扭矩仲裁器应将扭矩请求限制在 3 Nm 以内。😀\n- ASIL：D\n- 派生自：SG-1\n"
    (item,) = parse_document("zh.md", src, vocab).items
    assert item.language == "zh" and item.title == "限制扭矩"
    assert item.attribute("asil").value == "D"
    assert [l.target for l in item.links("derived-from")] == ["SG-1"]
    start = item.statement.text.index("应")
    assert text_at(src, item.statement.span_of(start, start + 1)) == "应"


def test_front_matter_kind_applies_to_unknown_prefixes(vocab):
    doc = parse_document("k.md", "---\nkind: FSR\n---\n## LCA-1: x\nThe LCA shall stop.\n", vocab)
    assert doc.items[0].kind == "FSR"


def test_hostile_input_does_not_raise(vocab):
    for src in ("", "\x00\x01\x02", "#" * 10000, "| a |\n|---|\n" * 500, "```\n" * 3, "---\n" + "a: &a [*a]\n" + "---\n",
                "## SG-1: x\n> quote\n\nThe x\rshall y.\n- ASIL: B\r\r"):
        parse_document("h.md", src, vocab)


def test_a_span_starting_on_the_joining_space_starts_on_the_next_line(vocab):
    src = "## REQ-1: Two lines\nThe system shall\nstop the motor.\n"
    (item,) = parse_document("j.md", src, vocab).items
    joined = item.statement.text
    at = joined.index(" stop")
    assert item.statement.span_of(at, at + 5) == (2, 0, 2, 4)
    assert item.statement.span_of(0, at) == (1, 0, 1, 16)


def test_language_is_detected_per_statement(vocab):
    src = "---\nlanguage: zh\n---\n## REQ-1: 英文\nThe system shall stop.\n## REQ-2: 中文\n系统应停止。\n## REQ-3: 数字\n3 ms\n"
    assert [i.language for i in parse_document("l.md", src, vocab).items] == ["en", "zh", "zh"]


def test_crlf_line_ends_read_like_lf(vocab):
    crlf = parse_document("c.md", DOC.replace("\n", "\r\n"), vocab)
    lf = parse_document("l.md", DOC, vocab)
    assert [(i.id, i.title, i.statement.text, i.attributes) for i in crlf.items] == [
        (i.id, i.title, i.statement.text, i.attributes) for i in lf.items]


def test_the_spans_of_a_value_that_continues_on_the_next_lines(vocab):
    src = "## TSR-1: x\n- Derived from: SG-1,\n  SG-2 and\nSG-3\n"
    (item,) = parse_document("c.md", src, vocab).items
    (attr,) = item.attributes
    assert attr.value == "SG-1, SG-2 and SG-3" and attr.raw_key == "Derived from"
    assert attr.span == (1, 2, 3, 4) and attr.key_span == (1, 2, 1, 14) and attr.value_span == (1, 16, 3, 4)
    assert [(l.target, l.span) for l in attr.links] == [("SG-1", (1, 16, 1, 20)), ("SG-2 and", (2, 2, 2, 10)),
                                                      ("SG-3", (3, 0, 3, 4))]


def test_a_moved_section_equals_a_fresh_parse_at_its_new_line(vocab):
    src = DOC + "## FSR-2: x\n- Derived from: SG-1,\nSG-2\n**Verified by**: `TC-1`\n| ID | S | E | C | ASIL |\n"
    lines = src.split("\n")
    cuts = [k for k, line in enumerate(lines) if line.startswith("#")] + [len(lines)]
    for start, end in zip(cuts, cuts[1:]):
        text = "\n".join(lines[start:end])
        for moved_to in (start + 7, max(start - 3, 0), start + 1000):
            parsed = parse_section(text, start, vocab)
            parsed.move(moved_to - start)
            assert positions(parsed) == positions(parse_section(text, moved_to, vocab))


def positions(res):
    """Everything a moved section reports, with the positions it reports now."""
    statement = Text(res.statement, res.anchor)
    return (
        res.start, res.end, statement.text, statement.span if statement else None,
        [(a.key, a.value, a.span, a.key_span, a.value_span, [(k.target, k.span, k.valid) for k in a.links])
         for a in res.attributes],
        [(r.id, r.span, [(k, c.text, c.span) for k, c in r.cells.items()]) for r in res.hara_rows],
        [(c.key, c.span) for c in res.clause_refs], [(p.code, p.span) for p in res.problems],
    )


def test_a_repeated_line_reads_alike_wherever_it_is_and_per_vocabulary(vocab):
    src = "## TSR-1: a\n- Derived from: SG-1, SG-2\n- Owner: me\n\n## TSR-2: b\nx\n\n- Derived from: SG-1, SG-2\n"
    first, second = parse_document("r.md", src, vocab).items
    assert [(a.span, a.value_span, [l.span for l in a.links]) for a in second.attributes] == [
        ((7, 2, 7, 26), (7, 16, 7, 26), [(7, 16, 7, 20), (7, 22, 7, 26)])]
    assert first.attributes[0].links[0].span == (1, 16, 1, 20)
    assert first.statement.text == "Owner: me"  # not a key of the shipped vocabulary
    owners = Vocabulary(vocab.kinds, {**vocab.attributes, "owner": AttributeKey("owner", "text")})
    first = parse_document("r.md", src, owners).items[0]
    assert first.attribute("owner").value == "me" and not first.statement
