"""Hostile and awkward input: every refusal is a clear IngestError, never a traceback."""

import pytest

from safereq.knowledge.ingest import IngestError, chunk_source
from safereq.knowledge.ingest import readers
from safereq.knowledge.ingest.readers import read_source

from .knowledge_helpers import make_pdf


def test_pdf_text_layer_by_page(tmp_path):
    pdf = tmp_path / "note.pdf"
    pdf.write_bytes(make_pdf([["1 Scope", "First page text."], ["2 Method", "Second page text."]]))
    src = read_source(pdf)
    assert src.kind == "pdf" and src.has_pages and len(src.pages) == 2
    assert "Second page text." in src.pages[1]
    chunks = chunk_source(pdf, document="NOTE-1").chunks
    assert {(c.clause, c.page) for c in chunks} == {("1", 1), ("2", 2)}


@pytest.mark.parametrize("name,data,message", [
    ("bin.txt", b"abc\x00\x01\x02" * 100, "binary"),
    ("ctl.md", bytes(range(1, 32)) * 50, "binary"),
    ("fake.pdf", b"this is not a pdf at all", "not a PDF"),
    ("trunc.pdf", make_pdf([["1 Scope", "x"]])[:120], "PDF"),
    ("garbage.pdf", b"%PDF-1.4\n" + bytes(range(256)) * 40, "PDF"),
    ("image.png", b"\x89PNG\r\n", "unsupported file type"),
])
def test_hostile_files_are_refused_with_a_message(tmp_path, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(IngestError, match=message) as err:
        chunk_source(path)
    assert name in str(err.value)


def test_pdf_without_text_layer(tmp_path):
    path = tmp_path / "scan.pdf"
    path.write_bytes(make_pdf([[]]))
    with pytest.raises(IngestError, match="no text layer"):
        chunk_source(path)


def test_oversized_file_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "MAX_TEXT_BYTES", 1000)
    path = tmp_path / "big.txt"
    path.write_text("word " * 1000)
    with pytest.raises(IngestError, match="over the"):
        read_source(path)


def test_windows_1252_text_is_read(tmp_path):
    path = tmp_path / "legacy.txt"
    path.write_bytes("1 Scope\n\nThe driver’s seat – caf\xe9.\n".encode("cp1252"))
    assert "café" in read_source(path).pages[0]


def test_form_feeds_make_pages(tmp_path):
    path = tmp_path / "paged.txt"
    path.write_text("1 Scope\n\nFirst.\n\f2 Method\n\nSecond.\n\f")
    src = read_source(path)
    assert src.has_pages and len(src.pages) == 2
