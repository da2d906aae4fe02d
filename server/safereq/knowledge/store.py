"""The LanceDB table that holds the chunks, and every read and write made on it.

One table, ``chunks``, per index folder. Each row is a chunk with its clause path, the exact text, the text
used for full-text search (contextual header + text), the embedding and the file it came from (path and
content hash, so unchanged files are skipped). The embedding model id and dimension are stored in the
table's schema metadata; an index built with another model is rebuilt rather than mixed.

Atomicity: every file is written with one ``merge_insert`` (insert/update its rows, delete its stale rows),
which commits a single new table version. Readers see either the old or the new rows of a file, never a
mix, and a crash mid-run leaves the last committed version in place. Searches and clause reads go through
:mod:`.reader` (Lance datasets, which follow new versions as they land), not through this module, so that
reading never pays for ``import lancedb``.

Heavy imports (lancedb, pyarrow) happen inside this module, which is itself imported only when writing.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable
from datetime import timedelta

from .faults import IndexMissing, one_line, store_call, under_deadline
from .location import IndexLocation, index_location, storage_options
from .store_schema import (FILE_COLUMNS, LIGHT_COLUMNS, META_DIM, META_MODEL, META_SCHEMA, SCHEMA_VERSION,  # noqa: F401
                           STRING_FIELDS, TABLE, StoreError, indexed_files, quote)
from .types import IndexedFile

os.environ.setdefault("LANCE_LOG", "error")  # Rust WARNs on stderr are noise for the CLI and the LSP log
os.environ.setdefault("LANCEDB_LOG", "error")

import lancedb  # noqa: E402
import pyarrow as pa  # noqa: E402
from lancedb.index import FTS, HnswSq  # noqa: E402

log = logging.getLogger(__name__)

VECTOR_INDEX_MIN_ROWS = 20_000


def make_schema(model_id: str, dim: int) -> pa.Schema:
    fields = [pa.field(name, pa.string()) for name in STRING_FIELDS]
    fields += [pa.field("page", pa.int32()), pa.field("ordinal", pa.int32())]
    if dim:
        fields.append(pa.field("vector", pa.list_(pa.float32(), dim)))
    return pa.schema(fields, metadata={META_MODEL: model_id.encode(), META_DIM: str(dim).encode(),
                                       META_SCHEMA: SCHEMA_VERSION.encode()})


class Store:
    """The chunks table of one index folder. ``writable`` stores create/replace the table when needed."""

    def __init__(self, index_dir: IndexLocation | str, *, reader: bool = True):
        self.index_dir = index_location(index_dir)
        kwargs: dict = {"read_consistency_interval": timedelta(0)} if reader else {}
        options = storage_options(self.index_dir)
        if options:
            kwargs["storage_options"] = options
        try:
            self.db = under_deadline(self.index_dir, "opening the index", lancedb.connect, str(self.index_dir), **kwargs)
        except StoreError:
            raise
        except Exception as exc:  # noqa: BLE001 - lancedb raises assorted types for a bad path
            log.debug("cannot open the index at %s: %s", self.index_dir, one_line(exc, self.index_dir))
            raise StoreError(f"cannot open the index at {self.index_dir}: {one_line(exc, self.index_dir)}") from None
        self._table = None

    # -- opening ---------------------------------------------------------------------------------------
    @store_call("opening the index")
    def exists(self) -> bool:
        return TABLE in (self.db.list_tables().tables or [])

    @property
    def table(self):
        if self._table is None:
            if not self.exists():
                raise IndexMissing(f"no index at {self.index_dir}; run 'safereq index' first")
            self._table = self.db.open_table(TABLE)
        return self._table

    @store_call("reading the index")
    def model(self) -> tuple[str, int]:
        meta = self.table.schema.metadata or {}
        return meta.get(META_MODEL, b"").decode(), int(meta.get(META_DIM, b"0") or 0)

    @store_call("reading the index")
    def has_vectors(self) -> bool:
        return "vector" in self.table.schema.names

    @store_call("creating the index")
    def ensure(self, model_id: str, dim: int) -> bool:
        """Create the table for this model, or recreate it if it was built with another one. True if (re)created."""
        if self.exists():
            have_model, have_dim = self.model()
            meta = self.table.schema.metadata or {}
            if (have_model, have_dim) == (model_id, dim) and meta.get(META_SCHEMA) == SCHEMA_VERSION.encode():
                return False
            log.warning("index was built with %s (%d-d); rebuilding for %s (%d-d)", have_model, have_dim,
                        model_id, dim)
            self._table = self.db.create_table(TABLE, schema=make_schema(model_id, dim), mode="overwrite")
            return True
        # exist_ok: a second writer that starts at the same moment opens the first one's table, never replaces it
        self._table = self.db.create_table(TABLE, schema=make_schema(model_id, dim), exist_ok=True)
        return True

    # -- reads -----------------------------------------------------------------------------------------
    @store_call("reading the index")
    def count(self) -> int:
        return self.table.count_rows() if self.exists() else 0

    @store_call("reading the index")
    def scan(self, where: str | None, columns: list[str], limit: int | None = None) -> list[dict]:
        q = self.table.search().select(columns)
        if where:
            q = q.where(where)
        return q.limit(limit).to_list() if limit else q.limit(None).to_list()

    @store_call("reading the index")
    def files(self) -> list[IndexedFile]:
        if not self.exists():
            return []
        rows = self.table.search().select(FILE_COLUMNS).limit(None).to_arrow()
        return indexed_files({c: rows.column(c).to_pylist() for c in FILE_COLUMNS})

    def source_hashes(self) -> dict[str, tuple[str, str]]:
        """source → (content hash, chunker version) of every indexed file."""
        return {f.source: (f.content_hash, f.chunker) for f in self.files()}

    @store_call("reading the index")
    def cached_vectors(self, hashes: Iterable[str]) -> dict[str, list[float]]:
        """Vectors already in the table for these embed hashes (the cache of unchanged chunk texts)."""
        wanted = sorted(set(hashes))
        out: dict[str, list[float]] = {}
        if not wanted or not self.exists() or not self.has_vectors():
            return out
        for i in range(0, len(wanted), 500):
            batch = wanted[i:i + 500]
            where = "vector IS NOT NULL AND embed_hash IN (" + ", ".join(quote(h) for h in batch) + ")"
            tbl = self.table.search().where(where).select(["embed_hash", "vector"]).limit(None).to_arrow()
            for h, v in zip(tbl.column("embed_hash").to_pylist(), tbl.column("vector").to_pylist(), strict=True):
                out[h] = v
        return out

    @store_call("reading the index")
    def pending_count(self) -> int:
        """Rows written without a vector yet (text indexed first, vectors filled in afterwards)."""
        if not self.exists() or not self.has_vectors():
            return 0
        return self.table.count_rows("vector IS NULL")

    @store_call("reading the index")
    def pending_rows(self) -> list[dict]:
        """(id, embed_hash, search_text) of every row still waiting for its vector, in table order."""
        if not self.pending_count():
            return []
        return (self.table.search().where("vector IS NULL").select(["id", "embed_hash", "search_text"])
                .limit(None).to_list())

    # -- writes ----------------------------------------------------------------------------------------
    @store_call("writing the index")
    def write_source(self, source: str, rows: list[dict]) -> None:
        """Replace every row of ``source`` with ``rows`` in one commit (one new table version).

        A row's vector may be None (not embedded yet): stored as null, found by full-text search only.
        """
        table = self.table
        data = pa.Table.from_pylist(rows, schema=table.schema)
        (table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all()
         .when_not_matched_by_source_delete(f"source = {quote(source)}").execute(data, on_bad_vectors="null"))

    @store_call("writing the index")
    def set_vectors(self, ids: list[str], vectors: list[list[float]]) -> None:
        """Fill the vectors of these rows in one commit; rows deleted meanwhile are left alone."""
        field = self.table.schema.field("vector")
        data = pa.table({"id": pa.array(ids, pa.string()), "vector": pa.array(vectors, field.type)})
        self.table.merge_insert("id").when_matched_update_all().execute(data)

    @store_call("writing the index")
    def delete_sources(self, sources: Iterable[str]) -> None:
        items = sorted(set(sources))
        for i in range(0, len(items), 200):
            self.table.delete("source IN (" + ", ".join(quote(s) for s in items[i:i + 200]) + ")")

    @store_call("building the full-text index")
    def finish_text(self) -> None:
        """After the text of a run is written: (re)build the full-text index, so search works from now on."""
        if self.table.count_rows() == 0:
            return
        self.table.create_index("search_text", config=FTS(with_position=False), replace=True)

    @store_call("finishing the index")
    def finish(self) -> None:
        """After the vectors are in: add a vector index on big tables, compact, drop old versions."""
        table = self.table
        if table.count_rows() == 0:
            return
        self.finish_text()  # rows given vectors were rewritten: index them again (fast; flat-searched meanwhile)
        if self.has_vectors() and table.count_rows() >= VECTOR_INDEX_MIN_ROWS and not self.pending_count():
            if not any(getattr(ix, "columns", None) == ["vector"] for ix in table.list_indices()):
                table.create_index("vector", config=HnswSq(distance_type="cosine"), replace=True)
        try:
            table.optimize(cleanup_older_than=timedelta(minutes=10))
        except Exception as exc:  # noqa: BLE001 - compaction is an optimisation; a failure must not lose the run
            log.warning("index compaction skipped: %s", exc)

    def path_of(self, row: dict) -> tuple[tuple[str, str], ...]:
        try:
            return tuple((str(c), str(t)) for c, t in json.loads(row.get("path") or "[]"))
        except (ValueError, TypeError):
            return ()
