"""The clause-reference grammar: every form the spec lists, normalised to one key."""

import pytest

from safereq.model.clauses import find_clause_refs, parse_clause_ref


@pytest.mark.parametrize(
    ("text", "document", "year", "clause"),
    [
        ("ISO 26262-9:2018 §5.4.10", "ISO 26262-9", "2018", "5.4.10"),
        ("ISO 26262-9, 5.4.10", "ISO 26262-9", None, "5.4.10"),
        ("ISO 21448:2022 clause 7.3", "ISO 21448", "2022", "7.3"),
        ("ISO/PAS 8800:2024 §8.2", "ISO/PAS 8800", "2024", "8.2"),
        ("UN R157 §5.1.1", "UN R157", None, "5.1.1"),
        ("ISO 26262-3:2018 Table 4", "ISO 26262-3", "2018", "Table 4"),
        ("ISO 26262-5:2018 Annex D", "ISO 26262-5", "2018", "Annex D"),
        ("ISO 26262-6", "ISO 26262-6", None, None),
    ],
)
def test_forms_parse_to_the_same_parts(text, document, year, clause):
    ref = parse_clause_ref(text)
    assert ref is not None
    assert (ref.document, ref.year, ref.clause) == (document, year, clause)


def test_variants_share_a_key():
    keys = {parse_clause_ref(t).key for t in ("ISO 26262-9:2018 §5.4.10", "ISO 26262-9, 5.4.10", "ISO 26262-9 clause 5.4.10")}
    assert keys == {"ISO 26262-9 5.4.10"}


def test_spans_in_a_line_with_chinese_text():
    line = "见 ISO 26262-9:2018 §5.4 和 ISO 21448:2022 clause 7.3。"
    refs = find_clause_refs(line, 4)
    assert [line[r.span.start_col:r.span.end_col] for r in refs] == ["ISO 26262-9:2018 §5.4", "ISO 21448:2022 clause 7.3"]
    assert all(r.span.start_line == 4 for r in refs)


def test_not_a_reference():
    assert find_clause_refs("The ISOLATION relay shall open.") == []
    assert parse_clause_ref("ISO") is None
