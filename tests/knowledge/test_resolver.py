"""The clause resolver and clause-tree browsing, answered from the index."""

import pytest


@pytest.mark.parametrize("ref", ["ISO 99999-2:2020 §5.2.1", "ISO 99999-2, 5.2.1", "ISO 99999-2 clause 5.2.1",
                                 "ISO 99999-2:2018 §5.2.1"])
def test_resolve_reference_variants(kb, ref):
    clause = kb.resolve(ref)
    assert clause is not None
    assert (clause.document, clause.clause, clause.title) == ("ISO 99999-2", "5.2.1", "Watchdog timeout")
    assert clause.kind == "text"  # the indexed full text wins over the catalogue summary
    assert clause.year == "2020" and clause.pages == (2,)
    assert clause.citation == "ISO 99999-2:2020 §5.2.1"


def test_resolve_tables_annexes_and_catalogue_only_clauses(kb):
    assert kb.resolve("ISO 99999-2 Table 3").text.startswith("Table 3")
    b2 = kb.read("ISO 99999-2", "Annex B.2")
    assert b2.clause == "B.2" and "temperature limit" in b2.text
    assert kb.resolve("ISO 99999-2 Annex B").children == (("B.1", "General"), ("B.2", "Overheating"))
    assert kb.resolve("ISO 99999-2 §9.9") is None
    assert kb.resolve("nonsense") is None


def test_heading_without_text_is_known_by_its_children(kb):
    five = kb.resolve("ISO 99999-2 §5")
    assert five is not None and five.title == "Widget safety requirements"
    assert [c for c, _t in five.children] == ["5.1", "5.2", "5.3"]


def test_children_and_documents(kb):
    assert kb.children("ISO 99999-2", "5.2") == [("5.2.1", "Watchdog timeout")]
    top = [c for c, _t in kb.children("ISO 99999-2")]
    assert top[:2] == ["1", "5"] and "Annex B" in top
    docs = {d.document: d for d in kb.documents()}
    assert set(docs) == {"ISO 99999-2", "brake-guide", "pump-note"}
    assert docs["ISO 99999-2"].year == "2020" and len(docs["ISO 99999-2"].sources) == 2
