"""Read-only access to the chunks table through Lance's dataset API, for every search and clause read.

Why not LanceDB here: ``import lancedb`` costs 1.2–2.5 s (about 1 s of it the generated REST client
LanceDB loads for remote namespaces), ``import lance`` about 0.35 s, and the assistant only reads. Both
run the same Lance engine underneath (full-text search is a BM25 match query on ``search_text``, vector
search a cosine nearest-neighbour query with Lance's default probes), so results are the same; the
writer (:mod:`.store`, with LanceDB's ``merge_insert`` and index building) is unchanged.

Like a LanceDB table opened with ``read_consistency_interval=0``, every read first moves to the latest
committed version, so a running language server sees a new index version as soon as it lands.
"""

from __future__ import annotations

import json
import os

from .faults import IndexMissing, network_fault, one_line, store_call
from .location import IndexLocation, ObjectStoreURI, index_location, storage_options
from .store_schema import FILE_COLUMNS, META_DIM, META_MODEL, TABLE_DIR, StoreError, indexed_files
from .types import IndexedFile

os.environ.setdefault("LANCE_LOG", "error")  # Rust WARNs on stderr are noise for the CLI and the LSP log

import lance  # noqa: E402


class TableReader:
    """The chunks table of one index folder, read-only. Raises :class:`StoreError` when there is none."""

    def __init__(self, index_dir: IndexLocation | str):
        self.index_dir = index_location(index_dir)
        self._ds = None

    def _open(self):
        try:
            return lance.dataset(str(self.index_dir / TABLE_DIR), storage_options=storage_options(self.index_dir) or None)
        except Exception as exc:  # noqa: BLE001 - lance raises assorted types for a missing table
            if isinstance(self.index_dir, ObjectStoreURI):
                fault = network_fault(exc, self.index_dir, "opening the index")
                if fault is not None:
                    raise fault from None
                if not _not_found(exc):
                    raise StoreError(f"cannot open the index at {self.index_dir}: "
                                     f"{one_line(exc, self.index_dir)}") from None
            raise IndexMissing(f"no index at {self.index_dir}; run 'safereq index' first") from None

    @property
    def dataset(self):
        """The dataset at its latest committed version (checked on every read, as LanceDB readers do)."""
        if self._ds is None:
            self._ds = self._open()
        else:
            latest = self._ds.latest_version
            if latest != self._ds.version:
                self._ds = self._ds.checkout_version(latest)
        return self._ds

    @store_call("opening the index")
    def exists(self) -> bool:
        """Whether the table is there; a store that fails otherwise (unreachable, no bucket …) raises."""
        try:
            self.dataset  # noqa: B018
        except IndexMissing:
            return False
        return True

    # -- schema ----------------------------------------------------------------------------------------
    @store_call("reading the index")
    def model(self) -> tuple[str, int]:
        meta = self.dataset.schema.metadata or {}
        return meta.get(META_MODEL, b"").decode(), int(meta.get(META_DIM, b"0") or 0)

    @store_call("reading the index")
    def has_vectors(self) -> bool:
        return "vector" in self.dataset.schema.names

    @store_call("reading the index")
    def has_text_index(self) -> bool:
        return any(d.field_names == ["search_text"] for d in self.dataset.describe_indices())

    # -- reads -----------------------------------------------------------------------------------------
    @store_call("reading the index")
    def count(self, where: str | None = None) -> int:
        return self.dataset.count_rows(where) if self.exists() else 0

    @store_call("reading the index")
    def pending_count(self) -> int:
        """Rows written without a vector yet (text indexed first, vectors filled in afterwards)."""
        if not self.exists() or not self.has_vectors():
            return 0
        return self.count("vector IS NULL")

    @store_call("reading the index")
    def scan(self, where: str | None, columns: list[str], limit: int | None = None) -> list[dict]:
        return self.dataset.to_table(columns=columns, filter=where, limit=limit).to_pylist()

    @store_call("reading the index")
    def columns(self, columns: list[str]) -> dict[str, list]:
        """Whole columns of every row (for listings of documents and files)."""
        tbl = self.dataset.to_table(columns=columns)
        return {c: tbl.column(c).to_pylist() for c in columns}

    @store_call("searching the index")
    def fts(self, query: str, where: str | None, columns: list[str], limit: int) -> list[dict]:
        """BM25 match query on ``search_text``, filtered before ranking; rows carry ``_score``."""
        return self.dataset.to_table(columns=[*columns, "_score"], filter=where, prefilter=bool(where), limit=limit,
                                     full_text_query={"query": query, "columns": ["search_text"]}).to_pylist()

    @store_call("searching the index")
    def nearest(self, vector: list[float], where: str | None, columns: list[str], limit: int) -> list[dict]:
        """Cosine nearest neighbours on ``vector``, filtered before ranking; rows carry ``_distance``.

        The query goes in as a float32 Arrow array: Lance converts a list through pandas' path, which
        imports numpy.ma (a tenth of a second of a search's start-up) for the same float32 values."""
        import pyarrow as pa  # loaded with lance already

        query = pa.array(vector, type=pa.float32())
        return self.dataset.to_table(columns=[*columns, "_distance"], filter=where, prefilter=bool(where),
                                     nearest={"column": "vector", "q": query, "k": limit,
                                              "metric": "cosine"}).to_pylist()

    @store_call("reading the index")
    def files(self) -> list[IndexedFile]:
        return indexed_files(self.columns(FILE_COLUMNS)) if self.exists() else []

    def path_of(self, row: dict) -> tuple[tuple[str, str], ...]:
        try:
            return tuple((str(c), str(t)) for c, t in json.loads(row.get("path") or "[]"))
        except (ValueError, TypeError):
            return ()


def _not_found(exc: BaseException) -> bool:
    """Lance's words for a dataset that is not there (as against one it could not read)."""
    text = f"{exc}".lower()
    return "not found" in text or "does not exist" in text or "no such file" in text
