"""Group structural blocks into clause-aware chunks, each with a contextual header for embedding.

A chunk never crosses a clause boundary, a table is one chunk (however long, up to the parser's cap), and
paragraphs of one clause are packed up to about ``TARGET_CHARS``; only a single over-long paragraph is cut,
at sentence ends. Every chunk knows its clause path, so a hit can be cited as "ISO 26262-9:2018 §5.4.10".

Before embedding, a short header naming the document, part and clause path is put in front of the chunk
text (contextual retrieval): "5.4.10" alone means nothing to an embedding model, "ISO 26262-9:2018 — Part 9
… > 5.4 … > 5.4.10 …" does. The exact chunk text is stored separately for citations.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from ..clause_ids import parent_clause
from ..types import display_document
from .blocks import Block, Heading, Paragraph, Table

# Bump when chunking changes: files indexed by another version are re-chunked (their unchanged chunk texts
# keep their vectors through the embedding cache, so a bump costs little).
CHUNKER_VERSION = "2"
TARGET_CHARS = 1100
MAX_CHARS = 1800


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    """Who a source is: ``document`` is the id used for filters and citations ("ISO 26262-9")."""

    document: str
    year: str = ""
    title: str = ""

    @property
    def standard(self) -> str:
        """"ISO 26262-9" → "ISO 26262"; other documents are their own standard."""
        m = re.match(r"^((?:ISO|IEC|SAE)(?:/\w+)? \d+)-\d+$", self.document)
        return m.group(1) if m else self.document

    @property
    def part(self) -> str:
        m = re.match(r"^(?:ISO|IEC|SAE)(?:/\w+)? \d+-(\d+)$", self.document)
        return m.group(1) if m else ""


@dataclass(slots=True)
class Chunk:
    document: str
    year: str
    doc_title: str
    clause: str
    title: str
    parent: str
    path: tuple[tuple[str, str], ...]
    kind: str
    page: int | None
    ordinal: int
    text: str
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def header(self) -> str:
        doc = display_document(self.document, self.year)
        first = f"{doc} — {self.doc_title}" if self.doc_title else doc
        trail = " > ".join(f"{c} {t}".strip() for c, t in self.path[-3:] if c or t)
        return f"{first}\n{trail}" if trail else first

    @property
    def embed_text(self) -> str:
        return f"{self.header}\n{self.text}"

    @property
    def embed_hash(self) -> str:
        return hashlib.sha256(self.embed_text.encode("utf-8")).hexdigest()[:32]


def _split_sentences(text: str, limit: int) -> list[str]:
    """Cut an over-long paragraph at sentence ends (or, failing that, at spaces) into pieces ≤ ``limit``."""
    sentences = re.split(r"(?<=[.!?;。；])\s+", text)
    pieces: list[str] = []
    cur = ""
    for s in sentences:
        while len(s) > limit:
            cut = s.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            if cur:
                pieces.append(cur)
                cur = ""
            pieces.append(s[:cut].rstrip())
            s = s[cut:].lstrip()
        if cur and len(cur) + 1 + len(s) > limit:
            pieces.append(cur)
            cur = s
        else:
            cur = f"{cur} {s}" if cur else s
    if cur:
        pieces.append(cur)
    return pieces


class _Section:
    __slots__ = ("clause", "title", "level", "page")

    def __init__(self, clause: str, title: str, level: int, page: int | None):
        self.clause, self.title, self.level, self.page = clause, title, level, page


def assemble(meta: DocumentMeta, blocks: list[Block], root: tuple[str, str] | None = None) -> list[Chunk]:
    """Chunks of one source in document order. ``root`` prefixes every path (e.g. a file label)."""
    chunks: list[Chunk] = []
    stack: list[_Section] = []
    pending: list[str] = []
    pending_page: list[int | None] = [None]
    annex_word = "Annex"

    def path() -> tuple[tuple[str, str], ...]:
        items = [(s.clause, s.title) for s in stack]
        return ((root,) if root else ()) + tuple(items)

    def current() -> tuple[str, str, str]:
        if not stack:
            return "", (root[1] if root else ""), ""
        top = stack[-1]
        parent = next((s.clause for s in reversed(stack[:-1]) if s.clause), parent_clause(top.clause, annex_word))
        return top.clause, top.title, parent

    def emit(text: str, kind: str, page: int | None, clause: str, title: str, parent: str,
             p: tuple[tuple[str, str], ...]) -> None:
        text = text.strip()
        if text:
            chunks.append(Chunk(meta.document, meta.year, meta.title, clause, title, parent, p, kind, page,
                                len(chunks), text))

    def flush() -> None:
        if pending:
            clause, title, parent = current()
            emit("\n\n".join(pending), "text", pending_page[0], clause, title, parent, path())
            pending.clear()

    for block in blocks:
        if isinstance(block, Heading):
            flush()
            if block.clause.startswith(("Annex ", "Appendix ")):
                annex_word = block.clause.split()[0]
            while stack and stack[-1].level >= block.level:
                stack.pop()
            stack.append(_Section(block.clause, block.title, block.level, block.page))
        elif isinstance(block, Table):
            flush()
            clause, title, parent = current()
            if block.label:
                emit(block.text, "table", block.page, block.label, block.caption, clause,
                     path() + ((block.label, block.caption),))
            else:
                emit(block.text, "table", block.page, clause, title, parent, path())
        elif isinstance(block, Paragraph):
            pieces = [block.text] if len(block.text) <= MAX_CHARS else _split_sentences(block.text, TARGET_CHARS)
            for piece in pieces:
                if pending and sum(len(x) + 2 for x in pending) + len(piece) > TARGET_CHARS:
                    flush()
                if not pending:
                    pending_page[0] = block.page
                pending.append(piece)
    flush()
    return chunks
