"""Parsing documents into items, attributes, links, HARA rows and clause references with exact spans."""

from safereq.model.incremental import parse_document

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
    for src in ("", "\x00\x01\x02", "#" * 10000, "| a |\n|---|\n" * 500, "```\n" * 3, "---\n" + "a: &a [*a]\n" + "---\n"):
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
