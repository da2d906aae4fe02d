"""Markdown sources: headings give clauses or titled sections; tables and code blocks stay whole."""

from pathlib import Path

from safereq.knowledge.ingest import chunk_source
from safereq.knowledge.ingest.markdown import parse_markdown, split_heading

FIXTURE = Path(__file__).parent / "fixtures" / "corpus" / "brake-guide.md"


def test_numbered_and_unnumbered_sections():
    parsed = chunk_source(FIXTURE)
    assert parsed.meta.document == "brake-guide" and parsed.meta.title == "Brake controller guide"
    sections = [(c.clause, c.title, c.kind) for c in parsed.chunks]
    assert ("1", "Hazard analysis", "text") in sections
    assert ("2.1", "Avoid unintended braking", "text") in sections
    assert ("", "Test scenarios", "text") in sections
    assert all(c.page is None for c in parsed.chunks)


def test_pipe_table_with_caption_paragraph_is_one_chunk():
    table = next(c for c in chunk_source(FIXTURE).chunks if c.kind == "table")
    assert (table.clause, table.title, table.parent) == ("Table 7", "Safety goals and integrity levels", "2.1")
    assert table.text.splitlines()[0].startswith("Table 7:")
    assert "Avoid loss of braking" in table.text


def test_fenced_code_and_front_matter():
    chunks = chunk_source(FIXTURE).chunks
    assert all("title: Brake guide" not in c.text for c in chunks)
    code = next(c for c in chunks if "```text" in c.text)
    assert "scenario: motorway" in code.text and code.text.count("```") == 2


def test_split_heading_forms():
    assert split_heading("5.4.10 Requirements") == ("5.4.10", "Requirements")
    assert split_heading("Annex B — Examples") == ("Annex B", "Examples")
    assert split_heading("Overview") == ("", "Overview")
    assert split_heading("2018 in review") == ("", "2018 in review")


def test_setext_headings():
    blocks = parse_markdown("Title\n=====\n\ntext\n\n3 Scope\n-------\n\nmore\n")
    heads = [(b.clause, b.title, b.level) for b in blocks if hasattr(b, "level")]
    assert heads == [("", "Title", 1), ("3", "Scope", 2)]
