"""Clause ids: one canonical form per clause, parents, containment and document order."""

from safereq.knowledge.clause_ids import ancestors, is_within, normalise_clause, parent_clause, sort_key


def test_normalise_variants_meet_on_one_id():
    assert normalise_clause("§ 5.4.10.") == "5.4.10"
    assert normalise_clause("clause 5.4.10") == "5.4.10"
    assert normalise_clause("Annex B.2") == "B.2"
    assert normalise_clause("annex b") == "Annex B"
    assert normalise_clause("table  4") == "Table 4"
    assert normalise_clause("b.2") == "B.2"
    assert normalise_clause("TASK 101") == "Task 101"
    assert normalise_clause(None) == ""


def test_parents_and_ancestors():
    assert parent_clause("5.4.10") == "5.4"
    assert parent_clause("5") == ""
    assert parent_clause("B.2") == "Annex B"
    assert parent_clause("B.2", "Appendix") == "Appendix B"
    assert parent_clause("B.2.1") == "B.2"
    assert parent_clause("Table 4") == ""
    assert ancestors("5.4.10") == ["5", "5.4"]


def test_is_within_respects_number_boundaries():
    assert is_within("5.4.10", "5.4")
    assert is_within("5.4", "5.4")
    assert not is_within("5.40", "5.4")
    assert is_within("B.2.1", "Annex B")
    assert not is_within("C.1", "Annex B")


def test_sort_key_is_document_order():
    ids = ["Table 2", "B.1", "Annex B", "5.10", "5.2", "Task 101", "1", "", "Table II"]
    assert sorted(ids, key=sort_key) == ["", "1", "5.2", "5.10", "Task 101", "Annex B", "B.1", "Table 2", "Table II"]
