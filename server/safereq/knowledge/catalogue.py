"""The clause catalogue: clause numbers, titles and our own one-line summaries of ISO 26262, ISO 21448, ISO/PAS 8800.

This is the cheap path. It reads the YAML files under ``corpora/catalogue/`` with PyYAML only (no LanceDB, no
model), so the language server can answer a clause hover, and the checker can tell a real clause from a
mistyped one, before the index is loaded or even when none was ever built.

File format (one file per document part)::

    document: ISO 26262-9
    year: 2018
    title: "Road vehicles — Functional safety — Part 9: ..."
    source: "..."
    clauses:
      - clause: "5.4.10"
        title: "..."
        summary: "..."

Which entries are *confirmed* (their number, and title where the edition gives one, checked against a public
clause list of that edition) is not written in the entries but in ``confirmed/*.txt`` beside them, one
``DOCUMENT:YEAR CLAUSE`` a line, so that the check (``scripts/check_catalogue.py``) owns it. An unconfirmed
entry is still shown, with a warning, and is never cited as verified.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from ..model.clauses import ClauseRef, clause_ref_with_clause, parse_clause_ref
from .clause_ids import normalise_clause, parent_clause, sort_key

log = logging.getLogger(__name__)

_MAX_FILE_BYTES = 5_000_000
_CONFIRMED_LINE = re.compile(r"^(.+?):(\d{4}) (\S.*)$")


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """One catalogued clause: facts (number, title) and a summary in our own words."""

    document: str
    year: str
    clause: str
    title: str
    summary: str
    document_title: str = ""
    confirmed: bool = False
    title_zh: str = ""  # the title and summary in Chinese, our own words too, for answers to Chinese questions
    summary_zh: str = ""

    @property
    def parent(self) -> str:
        return parent_clause(self.clause)


@dataclass(frozen=True, slots=True)
class CatalogueDocument:
    document: str
    year: str
    title: str
    source: str
    path: str


class Catalogue:
    """All catalogue files of one directory, indexed by (document, clause). Immutable once loaded."""

    def __init__(self, documents: list[CatalogueDocument], entries: list[CatalogueEntry]):
        self._documents = {d.document: d for d in documents}
        self._entries: dict[tuple[str, str], CatalogueEntry] = {}
        self._children: dict[tuple[str, str], list[str]] = {}
        for e in entries:
            self._entries[(e.document, e.clause)] = e
        for (doc, clause) in self._entries:
            self._children.setdefault((doc, self._parent_in(doc, clause)), []).append(clause)
        for kids in self._children.values():
            kids.sort(key=sort_key)

    def _parent_in(self, document: str, clause: str) -> str:
        """The nearest catalogued ancestor (a catalogue may skip a level)."""
        cur = parent_clause(clause)
        while cur and (document, cur) not in self._entries:
            cur = parent_clause(cur)
        return cur

    def __len__(self) -> int:
        return len(self._entries)

    def documents(self) -> list[CatalogueDocument]:
        return sorted(self._documents.values(), key=lambda d: _doc_sort_key(d.document))

    def entries(self, document: str | None = None) -> list[CatalogueEntry]:
        out = [e for e in self._entries.values() if document is None or e.document == document]
        return sorted(out, key=lambda e: (_doc_sort_key(e.document), sort_key(e.clause)))

    def get(self, document: str, clause: str) -> CatalogueEntry | None:
        return self._entries.get((document, normalise_clause(clause)))

    def lookup(self, ref: ClauseRef | str) -> CatalogueEntry | None:
        """The entry a reference names, ignoring the edition year (compare ``entry.year`` yourself)."""
        named = clause_ref_with_clause(ref)
        return self.get(named.document, named.clause) if named is not None else None

    def is_confirmed(self, document: str, clause: str) -> bool:
        """Whether the clause is catalogued and its number (and title) were confirmed for the edition."""
        entry = self.get(document, clause)
        return entry is not None and entry.confirmed

    def document(self, document: str) -> CatalogueDocument | None:
        return self._documents.get(document)

    def children(self, document: str, clause: str = "") -> list[CatalogueEntry]:
        """The catalogued clauses directly below ``clause`` ("" for the top level of the document)."""
        keys = self._children.get((document, normalise_clause(clause)), [])
        return [self._entries[(document, k)] for k in keys]

    def title_path(self, document: str, clause: str) -> list[tuple[str, str]]:
        """(clause, title) from the outermost catalogued ancestor down to ``clause`` itself."""
        out: list[tuple[str, str]] = []
        cur = normalise_clause(clause)
        while cur:
            e = self._entries.get((document, cur))
            if e:
                out.append((e.clause, e.title))
            cur = parent_clause(cur)
        return out[::-1]


def _doc_sort_key(document: str) -> tuple:
    head, _, part = document.partition("-")
    return (head, int(part) if part.isdigit() else 0, document)


def _as_str(value: object) -> str:
    return "" if value is None else str(value).strip()


def confirmed_ids(directory: Path) -> frozenset[tuple[str, str, str]]:
    """(document, year, clause) of every line of ``directory/confirmed/*.txt``; '#' starts a comment."""
    out: set[tuple[str, str, str]] = set()
    for path in sorted((directory / "confirmed").glob("*.txt")):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("confirmed-clause list left out: %s (%s)", path, exc)
            continue
        for line in lines:
            m = _CONFIRMED_LINE.match(line.split("#", 1)[0].strip())  # a clause id may hold a space ("Annex D")
            if m:
                out.add((m.group(1), m.group(2), normalise_clause(m.group(3))))
    return frozenset(out)


def parse_catalogue_file(path: Path, confirmed: frozenset[tuple[str, str, str]] | None = None,
                         ) -> tuple[CatalogueDocument, list[CatalogueEntry]]:
    """Read one catalogue file; raises ``ValueError`` with a readable message when it is malformed.

    ``confirmed`` is the set of confirmed clause ids (:func:`confirmed_ids` of the file's folder by default)."""
    import yaml

    if confirmed is None:
        confirmed = confirmed_ids(path.parent)

    if path.stat().st_size > _MAX_FILE_BYTES:
        raise ValueError(f"{path}: larger than {_MAX_FILE_BYTES} bytes; not a catalogue file")
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not valid YAML/UTF-8 ({exc.__class__.__name__})") from None
    if not isinstance(data, dict) or not isinstance(data.get("clauses"), list):
        raise ValueError(f"{path}: expected a mapping with 'document' and a 'clauses' list")
    ref = parse_clause_ref(_as_str(data.get("document")))
    if ref is None:
        raise ValueError(f"{path}: 'document' {data.get('document')!r} is not a standard reference")
    doc = CatalogueDocument(ref.document, _as_str(data.get("year")) or (ref.year or ""),
                            _as_str(data.get("title")), _as_str(data.get("source")), str(path))
    entries: list[CatalogueEntry] = []
    for i, item in enumerate(data["clauses"]):
        if not isinstance(item, dict) or not _as_str(item.get("clause")):
            log.warning("%s: clause entry %d has no 'clause'; skipped", path, i)
            continue
        clause = normalise_clause(_as_str(item.get("clause")))
        entries.append(CatalogueEntry(
            document=doc.document, year=doc.year, clause=clause,
            title=_as_str(item.get("title")), summary=_as_str(item.get("summary")), document_title=doc.title,
            confirmed=(doc.document, doc.year, clause) in confirmed,
            title_zh=_as_str(item.get("title_zh")), summary_zh=_as_str(item.get("summary_zh")),
        ))
    return doc, entries


def load_catalogue(directory: Path) -> Catalogue:
    """Every ``*.yaml`` file of ``directory``; a malformed file is logged and left out, never fatal."""
    documents: list[CatalogueDocument] = []
    entries: list[CatalogueEntry] = []
    confirmed = confirmed_ids(directory) if directory.is_dir() else frozenset()
    for path in sorted(directory.glob("*.y*ml")) if directory.is_dir() else []:
        try:
            doc, items = parse_catalogue_file(path, confirmed)
        except (ValueError, OSError) as exc:
            log.warning("catalogue file left out: %s", exc)
            continue
        documents.append(doc)
        entries.extend(items)
    return Catalogue(documents, entries)


_cache: dict[str, tuple[tuple, Catalogue]] = {}
_lock = threading.Lock()


def _stamp(directory: Path) -> tuple:
    try:
        files = [*directory.glob("*.y*ml"), *(directory / "confirmed").glob("*.txt")]
        return tuple(sorted((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files))
    except OSError:
        return ()


def get_catalogue(directory: Path | None = None) -> Catalogue:
    """The shipped catalogue (or the one in ``directory``), loaded once and reloaded when its files change."""
    if directory is None:
        from .paths import catalogue_dir

        directory = catalogue_dir()
    key = os.fspath(directory)
    stamp = _stamp(directory)
    with _lock:
        cached = _cache.get(key)
        if cached and cached[0] == stamp:
            return cached[1]
        cat = load_catalogue(directory)
        _cache[key] = (stamp, cat)
        return cat


def lookup(ref: ClauseRef | str) -> CatalogueEntry | None:
    """Cheap hover lookup in the shipped catalogue: "ISO 26262-9:2018 §5.4.10" → its entry, or None."""
    return get_catalogue().lookup(ref)


@dataclass(frozen=True, slots=True)
class ClauseNumbers:
    """The catalogue's documents, editions and clause numbers with titles, read without a YAML parser."""

    years: dict[str, str]  # document -> edition year
    titles: dict[tuple[str, str], str]  # (document, clause) -> title


_NUMBERS_LINE = re.compile(r'^(document|year):\s*"?([^"\n]+?)"?\s*$|^\s*-\s*clause:\s*"?([^"\n]+?)"?\s*$'
                           r'|^\s*title:\s*"?(.*?)"?\s*$')


@functools.cache
def clause_numbers() -> ClauseNumbers:
    """What the checker needs to tell a real clause from a mistyped one, in milliseconds (the full catalogue
    with its summaries takes ~0.2 s of YAML parsing): a line scan of the shipped files, which this project
    writes in one layout (``document:``, ``year:``, then ``- clause:`` each followed by its ``title:``)."""
    from .paths import catalogue_dir

    years: dict[str, str] = {}
    titles: dict[tuple[str, str], str] = {}
    for path in sorted(catalogue_dir().glob("*.yaml")):
        document, clause = "", ""
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for line in text.splitlines():
            m = _NUMBERS_LINE.match(line)
            if m is None:
                continue
            if m.group(1) == "document":
                document = m.group(2)
            elif m.group(1) == "year" and document:
                years[document] = m.group(2)
            elif m.group(3) and document:
                clause = normalise_clause(m.group(3))
                titles[(document, clause)] = ""
            elif m.group(4) is not None and clause and not titles.get((document, clause)):
                titles[(document, clause)] = m.group(4)
                clause = ""
    return ClauseNumbers(years, titles)
