"""The values the knowledge base hands to its callers (CLI, language server, agent).

Plain frozen dataclasses with no heavy imports, so the language server can type against them before LanceDB
is loaded. Every search result carries enough to show *and check* a citation: the document, the clause id,
its title, the page where known, the score and the exact indexed text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


def display_document(document: str, year: str) -> str:
    """"ISO 26262-9" + "2018" → "ISO 26262-9:2018"; documents without a year are shown as they are."""
    return f"{document}:{year}" if year and document.startswith(("ISO", "IEC", "SAE")) else document


def cite(document: str, year: str, clause: str, title: str = "") -> str:
    """A human citation such as "ISO 26262-9:2018 §5.4.10" or "Voyage OAS — Safety Requirements"."""
    doc = display_document(document, year)
    if not clause:
        return f"{doc} — {title}" if title else doc
    return f"{doc} §{clause}" if clause[0].isdigit() else f"{doc} {clause}"


@dataclass(frozen=True, slots=True)
class Hit:
    """One ranked chunk. ``text`` is the exact indexed text (without the contextual header)."""

    document: str
    year: str
    clause: str
    title: str
    text: str
    score: float
    page: int | None = None
    source: str = ""
    kind: str = "text"
    path: tuple[str, ...] = ()
    chunk_id: str = ""
    parent: str = ""

    @property
    def citation(self) -> str:
        return cite(self.document, self.year, self.clause, self.title)

    def to_json(self) -> dict[str, object]:
        """The ``--json`` shape: document (with edition), clause, title, score, text, plus page/source/kind."""
        return {
            "document": display_document(self.document, self.year),
            "clause": self.clause,
            "title": self.title,
            "score": round(self.score, 6),
            "text": self.text,
            "page": self.page,
            "source": self.source,
            "kind": self.kind,
        }


@dataclass(frozen=True, slots=True)
class ClauseText:
    """A whole clause read back from the index (all of its chunks in order), for hovers and citation checks."""

    document: str
    year: str
    clause: str
    title: str
    text: str
    kind: str
    pages: tuple[int, ...] = ()
    source: str = ""
    children: tuple[tuple[str, str], ...] = ()

    @property
    def citation(self) -> str:
        return cite(self.document, self.year, self.clause, self.title)


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """One indexed document: its id, edition, title, how many chunks and from which files."""

    document: str
    year: str
    title: str
    chunks: int
    sources: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class IndexedFile:
    """One indexed file, as ``safereq index --status`` lists it."""

    source: str
    document: str
    content_hash: str
    indexed_at: str
    chunks: int
    chunker: str = ""


@dataclass(frozen=True, slots=True)
class ProgressEvent:
    """Progress of a long operation: ``phase`` names the step, ``done``/``total`` count its units."""

    phase: str
    done: int
    total: int
    message: str = ""

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0


ProgressCallback = Callable[[ProgressEvent], None]


class IndexCancelled(Exception):
    """Raised by a progress callback to stop an indexing run cleanly (the language server's Cancel button).

    The run stops at the next file, PDF page or embedding batch; files already written stay (each is one
    commit), the rest keep their previous version, and the report comes back with ``cancelled`` set.
    """


@dataclass(slots=True)
class IndexReport:
    """What one ``index`` run did: files indexed, skipped (unchanged) and failed (with a message each)."""

    indexed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # files with no text to index (not in the index, not unchanged)
    removed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    chunks_written: int = 0
    embedded: int = 0
    embed_cache_hits: int = 0
    pages: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    text_seconds: float = 0.0  # from the start until full-text search covered every file of the run
    vector_seconds: float = 0.0  # spent filling in vectors after the text
    vectors_pending: int = 0  # chunks still without a vector when the run ended (the next run fills them)
    repaired: str = ""  # how a damaged index was repaired before the run (see knowledge/integrity.py), if it was
