"""Catalogue entries as chunks: one chunk per catalogued clause (title + our summary), with its clause path."""

from __future__ import annotations

from pathlib import Path

from ..catalogue import Catalogue, CatalogueEntry, parse_catalogue_file
from ..clause_ids import parent_clause
from .chunker import Chunk, DocumentMeta


def catalogue_chunks(path: Path) -> tuple[DocumentMeta, list[Chunk]]:
    """Chunks of one catalogue file; raises ``ValueError`` (with a readable message) when it is malformed."""
    doc, entries = parse_catalogue_file(path)
    cat = Catalogue([doc], entries)
    meta = DocumentMeta(doc.document, doc.year, doc.title)
    chunks = [_chunk(meta, cat, e, i) for i, e in enumerate(cat.entries(doc.document))]
    return meta, chunks


def _chunk(meta: DocumentMeta, cat: Catalogue, entry: CatalogueEntry, ordinal: int) -> Chunk:
    path = tuple(cat.title_path(entry.document, entry.clause)) or ((entry.clause, entry.title),)
    parent = parent_clause(entry.clause)
    text = entry.summary or entry.title
    return Chunk(meta.document, meta.year, meta.title, entry.clause, entry.title, parent, path, "catalogue",
                 None, ordinal, text)
