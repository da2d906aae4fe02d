"""The names the chunks table is read and written by, without importing LanceDB or pyarrow.

Shared by the writer (:mod:`.store`, LanceDB), the read-only path (:mod:`.reader`, Lance datasets) and the
integrity check, so that opening an index to read it never pays for LanceDB's import.
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import IndexedFile

TABLE = "chunks"
TABLE_DIR = TABLE + ".lance"
SCHEMA_VERSION = "2"
META_MODEL = b"safereq.embed_model"
META_DIM = b"safereq.embed_dim"
META_SCHEMA = b"safereq.schema"

STRING_FIELDS = ("id", "source", "source_hash", "chunker", "indexed_at", "document", "year", "doc_title", "standard",
                 "part", "clause", "title", "parent", "path", "kind", "text", "search_text", "embed_hash")
LIGHT_COLUMNS = ["id", "source", "document", "year", "doc_title", "clause", "title", "parent", "path", "kind",
                 "page", "ordinal", "text"]
FILE_COLUMNS = ["source", "source_hash", "chunker", "indexed_at", "document"]


class StoreError(Exception):
    """A problem with the index's store, said in one line; ``exit_code`` is the commands' exit status for it."""

    exit_code = 2


def quote(value: str) -> str:
    """A SQL string literal for a Lance filter (values come from users and documents: always quote)."""
    return "'" + value.replace("'", "''") + "'"


def indexed_files(columns: dict[str, Sequence]) -> list[IndexedFile]:
    """One :class:`IndexedFile` per source, from the :data:`FILE_COLUMNS` of every row."""
    agg: dict[str, list] = {}
    for src, h, ver, at, doc in zip(*(columns[c] for c in FILE_COLUMNS), strict=True):
        entry = agg.setdefault(src, [doc, h, at, 0, ver])
        entry[3] += 1
    return sorted((IndexedFile(s, d, h, at, n, v) for s, (d, h, at, n, v) in agg.items()), key=lambda f: f.source)
