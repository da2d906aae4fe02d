"""Structure recovery for plain text and PDF text layers: clauses, tables, running headers, front matter."""

from pathlib import Path

from safereq.knowledge.ingest import chunk_source
from safereq.knowledge.ingest.blocks import Heading, Paragraph, Table
from safereq.knowledge.ingest.text_structure import parse_text

FIXTURE = Path(__file__).parent / "fixtures" / "corpus" / "widget-standard.txt"


def _headings(blocks):
    return [(b.clause, b.title) for b in blocks if isinstance(b, Heading)]


def test_fixture_standard_is_split_by_clause_with_pages_and_paths():
    parsed = chunk_source(FIXTURE)
    assert (parsed.meta.document, parsed.meta.year) == ("ISO 99999-2", "2020")  # from the running header
    assert parsed.pages == 3
    by_clause = {c.clause: c for c in parsed.chunks}
    assert by_clause["5.2.1"].title == "Watchdog timeout"
    assert by_clause["5.2.1"].text.startswith("The watchdog timeout shall be shorter")
    assert [p[0] for p in by_clause["5.2.1"].path] == ["5", "5.2", "5.2.1"]
    assert by_clause["5.3"].page == 3
    assert by_clause["B.2"].parent == "Annex B"
    assert "ISO 99999-2:2020" in by_clause["5.2.1"].header and "5.2.1 Watchdog timeout" in by_clause["5.2.1"].header
    text = "\n".join(c.text for c in parsed.chunks)
    assert "Fictional Standards Body" not in text  # running footer dropped
    assert "ISO 99999-2:2020(E)" not in text  # running header dropped
    assert "......" not in text  # table of contents dropped


def test_table_is_one_chunk_with_its_caption_and_parent():
    table = next(c for c in chunk_source(FIXTURE).chunks if c.kind == "table")
    assert table.clause == "Table 3" and table.title == "Methods for watchdog testing"
    assert table.parent == "5.2.1"
    assert "Timeout injection" in table.text and "Clock drift simulation" in table.text


def test_numbered_foreword_before_scope_is_front_matter():
    blocks = parse_text(("Foreword\n1. This is a numbered paragraph of the foreword.\n"
                         "2. Another one that could look like a clause.\n\n1 SCOPE\n\nText.\n",), False)
    assert _headings(blocks) == [("1", "SCOPE")]


def test_sequence_rule_rejects_list_items_and_table_rows():
    text = ("1 INTRODUCTION\n\nThe objectives are:\n  1. Identify the hazards.\n  2. Determine the severity "
            "levels pertaining to the hazards\n\n1.1 Objectives\n\n16    37\n\n1.2 Method\n\n2 ANALYSIS\n")
    assert _headings(parse_text((text,), False)) == [("1", "INTRODUCTION"), ("1.1", "Objectives"),
                                                    ("1.2", "Method"), ("2", "ANALYSIS")]


def test_inline_titles_tasks_and_appendices():
    text = ("1. SCOPE\n\n1.1 Scope. This practice covers widgets.\n\n3.2.1 is not next.\n\n"
            "TASK 101\nWIDGET HAZARD ANALYSIS\n\n101.1 Purpose. Task 101 finds hazards.\n\n"
            "APPENDIX A\nGUIDANCE\n\nA.1 Scope. Informative.\n\nAppendix F. Below are examples of x:\n")
    assert _headings(parse_text((text,), False)) == [
        ("1", "SCOPE"), ("1.1", "Scope"), ("Task 101", "WIDGET HAZARD ANALYSIS"), ("101.1", "Purpose"),
        ("Appendix A", "GUIDANCE"), ("A.1", "Scope")]


def test_prose_ends_a_table_and_sentence_references_are_not_captions():
    text = ("1 Scope\n\nTable 1 — Levels\n\n  Level   Name\n  1       Low\n\n"
            "This paragraph is running text long enough to count as prose rather than a table row, and it\n"
            "ends with a full stop as sentences do in the body of a standard.\n\nAs listed in\nTable 21.\n")
    blocks = parse_text((text,), False)
    tables = [b for b in blocks if isinstance(b, Table)]
    assert len(tables) == 1 and "Low" in tables[0].text and "running text" not in tables[0].text
    assert any(isinstance(b, Paragraph) and "running text" in b.text for b in blocks)


def test_long_paragraphs_are_cut_at_sentences():
    sentence = "The widget controller shall keep its watchdog alive while it runs. "
    parsed = chunk_source(FIXTURE.with_name("long.txt"), (("1 Scope\n\n" + sentence * 80)).encode())
    assert len(parsed.chunks) > 1
    assert all(len(c.text) <= 1800 for c in parsed.chunks)
    assert all(c.text.endswith(".") for c in parsed.chunks)
