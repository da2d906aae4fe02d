"""Turn one source file into clause-aware chunks: read it, name the document, find its structure, chunk it.

The entry point is :func:`chunk_source`. Naming matters: a user's licensed "ISO 26262-6" PDF must be filed
as ``ISO 26262-6`` (edition 2018) so that filters, the clause resolver and citations line up with the
catalogue. The name comes from, in order: an explicit ``document`` argument, the standard named in the
running header of the pages, the first standard named on the first page, and finally the file name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...model.clauses import find_clause_refs, parse_clause_ref
from .chunker import Chunk, DocumentMeta, assemble
from .markdown import parse_markdown
from .readers import IngestError, SourceText, read_source, source_kind
from .text_structure import boilerplate_lines, parse_text

__all__ = ["Chunk", "DocumentMeta", "IngestError", "ParsedSource", "chunk_source", "identify", "source_kind"]


@dataclass(frozen=True, slots=True)
class ParsedSource:
    meta: DocumentMeta
    chunks: list[Chunk]
    pages: int


def _standard_refs(lines: list[str]) -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    for line in lines:
        for ref in find_clause_refs(line):
            if ref.document.startswith(("ISO", "IEC", "SAE")):
                counts[(ref.document, ref.year or "")] += 1
    return counts


def _catalogue_title(document: str) -> str:
    from ..catalogue import get_catalogue

    doc = get_catalogue().document(document)
    return doc.title if doc else ""


def identify(path: Path, src: SourceText, document: str | None = None, title: str | None = None) -> DocumentMeta:
    """Name the document a source holds (see the module docstring for the order of evidence)."""
    if document:
        ref = parse_clause_ref(document)
        if ref is not None:
            return DocumentMeta(ref.document, ref.year or "", title or _catalogue_title(ref.document))
        return DocumentMeta(document.strip(), "", title or "")
    if src.kind in ("pdf", "text"):
        header = sorted(boilerplate_lines(src.pages)) if src.has_pages else []
        counts = _standard_refs(header) or _standard_refs(src.pages[0].splitlines()[:60])
        if counts:
            (doc, year), _ = counts.most_common(1)[0]
            if not year:
                years = [y for (d, y) in counts if d == doc and y]
                year = years[0] if years else ""
            return DocumentMeta(doc, year, title or _catalogue_title(doc))
    if src.kind == "markdown":
        m = re.search(r"^#\s+(.+)$", src.pages[0], re.MULTILINE)
        if m and not title:
            title = m.group(1).strip()
    return DocumentMeta(path.stem, "", title or "")


def chunk_source(path: Path, data: bytes | None = None, *, document: str | None = None,
                 year: str | None = None, title: str | None = None,
                 root_label: str | None = None, on_page: Callable[[int, int], None] | None = None) -> ParsedSource:
    """Chunks of one Markdown, text or PDF file. Raises :class:`IngestError` with a user-facing message.

    ``on_page(done, total)`` is called before each PDF page is read (the slow part), for progress and so that
    a cancellation raised from it stops within a page.
    """
    src = read_source(path, data, on_page)
    if src.kind == "catalogue":
        raise IngestError(f"{path}: a YAML file is indexed only as part of a clause catalogue")
    meta = identify(path, src, document, title)
    if year:
        meta = DocumentMeta(meta.document, year, meta.title)
    blocks = parse_markdown(src.pages[0]) if src.kind == "markdown" else parse_text(src.pages, src.has_pages)
    root = ("", root_label) if root_label else None
    chunks = assemble(meta, blocks, root)
    return ParsedSource(meta, chunks, len(src.pages) if src.has_pages else 0)
