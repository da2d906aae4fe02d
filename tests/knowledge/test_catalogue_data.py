"""Validate the shipped clause catalogue (corpora/catalogue/*.yaml).

The catalogue is hand-written data that the knowledge layer indexes and the
language server shows on hover; a malformed entry, a duplicate clause id or
an overlong summary would surface to users as wrong or noisy help.  These
tests pin the agreed format so that edits to the data cannot silently break
the loader or drift towards copying the standards' text.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import yaml

CATALOGUE = Path(__file__).resolve().parents[2] / "corpora" / "catalogue"

SOURCE = "safereq clause catalogue (clause numbers and titles are facts; summaries are our own words)"
MAX_SUMMARY_WORDS = 60

# file stem -> (document field, edition year, main clauses that must be present)
EXPECTED: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "iso-26262-1": ("ISO 26262-1", 2018, ("1", "2", "3", "4")),
    "iso-26262-2": ("ISO 26262-2", 2018, ("1", "2", "3", "4", "5", "6", "7")),
    "iso-26262-3": ("ISO 26262-3", 2018, ("1", "2", "3", "4", "5", "6", "7")),
    "iso-26262-4": ("ISO 26262-4", 2018, ("1", "2", "3", "4", "5", "6", "7", "8")),
    "iso-26262-5": ("ISO 26262-5", 2018, ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")),
    "iso-26262-6": ("ISO 26262-6", 2018, ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11")),
    "iso-26262-7": ("ISO 26262-7", 2018, ("1", "2", "3", "4", "5", "6", "7")),
    "iso-26262-8": (
        "ISO 26262-8",
        2018,
        ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16"),
    ),
    "iso-26262-9": ("ISO 26262-9", 2018, ("1", "2", "3", "4", "5", "6", "7", "8")),
    "iso-26262-10": ("ISO 26262-10", 2018, ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11")),
    "iso-26262-11": ("ISO 26262-11", 2018, ("1", "2", "3", "4", "5")),
    "iso-26262-12": ("ISO 26262-12", 2018, ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")),
    "iso-21448": (
        "ISO 21448",
        2022,
        ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"),
    ),
    "iso-pas-8800": (
        "ISO/PAS 8800",
        2024,
        ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15"),
    ),
}

# Clause ids: numbered clauses, annexes and their subclauses, and tables.
NUMBERED = re.compile(r"^\d+(\.\d+)*$")
ANNEX = re.compile(r"^Annex ([A-Z])$")
ANNEX_SUB = re.compile(r"^([A-Z])((\.\d+)+)$")
TABLE = re.compile(r"^Table (?:([A-Z])\.)?(\d+)$")

REQUIRED_KEYS = {"clause", "title", "summary"}
OPTIONAL_KEYS = {"title_zh", "summary_zh", "confidence", "title_is_ours"}
TOP_KEYS = {"document", "year", "title", "source", "clauses"}


def sort_key(clause_id: str) -> tuple:
    """Order entries: numbered clauses, then annexes, then tables, each in natural order."""
    if NUMBERED.match(clause_id):
        return (0, tuple(int(p) for p in clause_id.split(".")))
    if m := ANNEX.match(clause_id):
        return (1, m.group(1), ())
    if m := ANNEX_SUB.match(clause_id):
        return (1, m.group(1), tuple(int(p) for p in m.group(2)[1:].split(".")))
    if m := TABLE.match(clause_id):
        return (2, m.group(1) or "", int(m.group(2)))
    raise AssertionError(f"unrecognised clause id {clause_id!r}")


@functools.lru_cache(maxsize=None)
def load(stem: str) -> dict:
    """One catalogue file, parsed once for the whole module (the tests only read it)."""
    with (CATALOGUE / f"{stem}.yaml").open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@pytest.fixture(scope="module", params=sorted(EXPECTED))
def doc(request) -> tuple[str, dict]:
    return request.param, load(request.param)


def test_exactly_the_expected_files_exist():
    stems = {p.stem for p in CATALOGUE.glob("*.yaml")}
    assert stems == set(EXPECTED)


def test_header(doc):
    stem, data = doc
    document, year, _ = EXPECTED[stem]
    assert set(data) == TOP_KEYS
    assert data["document"] == document
    assert data["year"] == year
    assert isinstance(data["title"], str) and data["title"].startswith("Road vehicles")
    assert data["source"] == SOURCE
    assert isinstance(data["clauses"], list) and data["clauses"]


def test_entry_schema(doc):
    stem, data = doc
    for entry in data["clauses"]:
        assert isinstance(entry, dict), entry
        keys = set(entry)
        assert REQUIRED_KEYS <= keys, (stem, entry)
        assert keys <= REQUIRED_KEYS | OPTIONAL_KEYS, (stem, entry)
        for key in REQUIRED_KEYS:
            assert isinstance(entry[key], str) and entry[key].strip(), (stem, entry)
        sort_key(entry["clause"])  # raises on an unknown id form
        if "confidence" in entry:
            # high is the default and is left out; only medium is written.
            assert entry["confidence"] == "medium", (stem, entry)
        if "title_is_ours" in entry:
            assert entry["title_is_ours"] is True, (stem, entry)
            # Only untitled requirement paragraphs (x.y.z or deeper) get our own titles.
            assert entry["clause"].count(".") >= 2, (stem, entry)


def test_clause_ids_unique(doc):
    stem, data = doc
    ids = [e["clause"] for e in data["clauses"]]
    dupes = {i for i in ids if ids.count(i) > 1}
    assert not dupes, (stem, dupes)


def test_clause_ordering(doc):
    stem, data = doc
    keys = [sort_key(e["clause"]) for e in data["clauses"]]
    for (a, ka), (b, kb) in zip(
        zip(data["clauses"], keys), zip(data["clauses"][1:], keys[1:])
    ):
        assert ka < kb, f"{stem}: {a['clause']!r} is listed before {b['clause']!r}"


def test_subclauses_have_their_parent(doc):
    """A numbered subclause only appears under a listed parent (e.g. 6.4.3 needs 6.4 or 6)."""
    stem, data = doc
    ids = {e["clause"] for e in data["clauses"]}
    for clause_id in ids:
        if NUMBERED.match(clause_id) and "." in clause_id:
            top = clause_id.split(".")[0]
            assert top in ids, (stem, clause_id)


def test_main_clauses_present(doc):
    stem, data = doc
    ids = {e["clause"] for e in data["clauses"]}
    missing = [c for c in EXPECTED[stem][2] if c not in ids]
    assert not missing, (stem, missing)


def test_summaries_are_short_and_not_quotations(doc):
    stem, data = doc
    for entry in data["clauses"]:
        summary = entry["summary"]
        words = len(summary.split())
        assert words <= MAX_SUMMARY_WORDS, (stem, entry["clause"], words)
        # Our own paraphrase: no quoted passages and not a bare restatement of the title.
        assert '"' not in summary and "“" not in summary and "”" not in summary, (stem, entry["clause"])
        assert summary.strip().rstrip(".").lower() != entry["title"].strip().lower(), (
            stem,
            entry["clause"],
        )


def test_summaries_not_repeated_within_a_document(doc):
    stem, data = doc
    seen: dict[str, str] = {}
    for entry in data["clauses"]:
        text = entry["summary"].strip().lower()
        assert text not in seen, (stem, entry["clause"], seen.get(text))
        seen[text] = entry["clause"]


def test_hara_tables_are_catalogued():
    """Spot check of content the checker relies on: the S/E/C classes and ASIL matrix."""
    part3 = {e["clause"]: e for e in load("iso-26262-3")["clauses"]}
    for table in ("Table 1", "Table 2", "Table 3", "Table 4"):
        assert table in part3
    assert all(s in part3["Table 1"]["summary"] for s in ("S0", "S1", "S2", "S3"))
    assert all(e in part3["Table 2"]["summary"] for e in ("E0", "E1", "E2", "E3", "E4"))
    assert all(c in part3["Table 3"]["summary"] for c in ("C0", "C1", "C2", "C3"))
    assert "ASIL D" in part3["Table 4"]["summary"]


def test_catalogue_size_is_in_the_agreed_range():
    total = sum(len(load(stem)["clauses"]) for stem in EXPECTED)
    assert 500 <= total <= 900, total


# --- the edition check (scripts/check_catalogue.py against a public clause list of ISO 26262:2018) ---------

CONFIRMED_FILE = CATALOGUE / "confirmed" / "iso-26262-2018.txt"


def confirmed_lines() -> set[str]:
    return {line.strip() for line in CONFIRMED_FILE.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


def test_every_confirmed_line_names_a_catalogue_entry():
    """The committed lists hold only clauses the catalogue has: an entry renumbered or removed leaves no stale line."""
    have = {f"{load(stem)['document']}:{load(stem)['year']} {e['clause']}"
            for stem in EXPECTED for e in load(stem)["clauses"]}
    listed = {line.strip() for path in (CATALOGUE / "confirmed").glob("*.txt")
              for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")}
    stale = listed - have
    assert not stale, sorted(stale)
    assert len(confirmed_lines()) >= 500


def test_an_unconfirmed_iso_26262_entry_says_so():
    """Every ISO 26262 entry is either in the confirmed list, or is one whose subject the clause list cannot
    confirm (a table, a requirement paragraph with a title of ours), or is marked ``confidence: medium``; and no
    confirmed entry still carries ``confidence: medium``."""
    confirmed = confirmed_lines()
    for stem in (s for s in EXPECTED if s.startswith("iso-26262-")):
        data = load(stem)
        for e in data["clauses"]:
            key = f"{data['document']}:{data['year']} {e['clause']}"
            if key in confirmed:
                assert "confidence" not in e and not e.get("title_is_ours"), key
            else:
                assert e["clause"].startswith("Table") or e.get("title_is_ours") or e.get("confidence") == "medium", key


@pytest.mark.parametrize(("stem", "clause", "title"), [
    # ISO 26262-3:2018 renumbered the functional safety concept's requirements (2011: 7.4.3 allocation, 7.4.5
    # verification): allocation is part of 7.4.2, 7.4.3 is the validation criteria, 7.4.4 the verification.
    ("iso-26262-3", "6.4.1", "Initiation of the hazard analysis and risk assessment"),
    ("iso-26262-3", "6.4.5", "Management of variances of T&B in hazard analysis and risk assessment"),
    ("iso-26262-3", "6.4.6", "Verification"),
    ("iso-26262-3", "7.4.2", "Derivation of functional safety concept"),
    ("iso-26262-3", "7.4.3", "Safety validation criteria"),
    ("iso-26262-3", "7.4.4", "Verification of the functional safety concept"),
    ("iso-26262-1", "3.137", "safety culture"),
    ("iso-26262-8", "9.4.3", "Verification execution and evaluation"),
    ("iso-26262-12", "6.2", "Requirements and recommendations"),
])
def test_entries_corrected_for_the_2018_edition(stem, clause, title):
    entries = {e["clause"]: e for e in load(stem)["clauses"]}
    assert entries[clause]["title"] == title
    assert f"{load(stem)['document']}:2018 {clause}" in confirmed_lines()


@pytest.mark.parametrize(("stem", "clause"), [
    ("iso-26262-3", "7.4.5"), ("iso-26262-8", "9.4.4"),
    ("iso-26262-12", "6.4"), ("iso-26262-12", "7.4"), ("iso-26262-12", "9.4"),
])
def test_clauses_the_2018_edition_does_not_have_are_gone(stem, clause):
    assert clause not in {e["clause"] for e in load(stem)["clauses"]}


def test_only_what_a_public_clause_list_shows_is_confirmed():
    """No public clause list of ISO/PAS 8800:2024 was found, and the one of ISO 21448:2022 ends at 7.4."""
    from safereq.knowledge.catalogue import load_catalogue

    cat = load_catalogue(CATALOGUE)
    assert cat.entries("ISO/PAS 8800") and not any(e.confirmed for e in cat.entries("ISO/PAS 8800"))
    assert cat.is_confirmed("ISO 21448", "7.3.4") and cat.is_confirmed("ISO 21448", "4.2.2")
    assert not cat.is_confirmed("ISO 21448", "7.5") and not cat.is_confirmed("ISO 21448", "9")
    assert cat.is_confirmed("ISO 26262-3", "7.4.3")
    assert not cat.is_confirmed("ISO 26262-3", "Table 4")
    assert not cat.is_confirmed("ISO 26262-3", "7.4.5")


def test_every_confirmed_line_marks_its_entry_confirmed():
    """The loader reads every line of the lists, annexes and tables too ("Annex D" holds a space)."""
    from safereq.knowledge.catalogue import load_catalogue

    cat = load_catalogue(CATALOGUE)
    confirmed = {f"{e.document}:{e.year} {e.clause}" for e in cat.entries() if e.confirmed}
    listed = {line.strip() for path in (CATALOGUE / "confirmed").glob("*.txt")
              for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")}
    assert confirmed == listed
    assert cat.is_confirmed("ISO 26262-6", "Annex D")
