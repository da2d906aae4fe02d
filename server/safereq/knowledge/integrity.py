"""Is an index folder usable? If not: what is wrong, what the user can do, and the way back to a good state.

An index is a cache of the corpora, so damage never costs the user's own text, but it must never end in a
traceback or, worse, in silently empty search results (a truncated data file makes LanceDB's full-text
search return nothing rather than fail). :func:`inspect` therefore reads every row of the latest version
and probes the full-text index with the words of chunks the table holds.

Ways back, in the order ``safereq index`` tries them:

* the full-text index alone is damaged: it is built again (the rows are intact);
* the latest version is damaged but an older one LanceDB still keeps reads completely: the manifests of the
  newer versions are moved to ``<index>/damaged/<time>/`` (kept for a post-mortem, never read again), which
  makes the good version the latest; the run then re-indexes whatever changed since;
* nothing readable is left: the user is told to run ``safereq index --rebuild``, which removes the table
  folder (``chunks.lance``, ours alone) and builds it from scratch.

On an object store (``s3://…``; see :mod:`.location`) there are no folders to move or probe: the check reads
the latest version through LanceDB the same way, going back restores the good version as a new version
(LanceDB's ``restore``, itself a conditional commit, so a reader or another writer never sees a half-state),
``--rebuild`` drops the table, and the path and write-permission probes are skipped (the store's own error
is reported on the first write instead).

Problems that are not damage (the index path is a regular file, the folder cannot be written) are reported
with what to do and never "repaired": safereq does not delete or chmod what it did not create.

Imports LanceDB (through :mod:`.store`): load this module only when an index is opened or written.
"""

from __future__ import annotations

import re
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from .faults import under_deadline
from .location import IndexLocation, ObjectStoreURI, redact_uri, storage_options
from .store_schema import META_MODEL, TABLE, TABLE_DIR, StoreError  # noqa: F401 - StoreError re-exported

QUARANTINE = "damaged"
_U64_MAX = 2**64 - 1

REPAIR_HINT = "run 'safereq index' to go back to its last good version, or 'safereq index --rebuild' to build it again"
REBUILD_HINT = "run 'safereq index --rebuild' to build it again"
RESUME_HINT = "run 'safereq index' again with the same paths to finish it (files already indexed are skipped)"


class IndexDamaged(StoreError):
    """The index exists but cannot be read as it is; the message says what is wrong and what to do."""

    exit_code = 3


class IndexUnusable(StoreError):
    """The index path cannot be used at all (a regular file, a folder that cannot be written)."""


@dataclass(frozen=True, slots=True)
class Health:
    """``state``: missing | ok | damaged | search-index (rows intact, full-text index damaged) | incomplete
    (a run stopped before the index could answer: no row yet, or no full-text index built yet)."""

    state: str
    problem: str = ""
    version: int | None = None
    rows: int = 0


@dataclass(frozen=True, slots=True)
class Fallback:
    """The result of going back to an older version: which one, its rows, and where the newer manifests went."""

    version: int
    rows: int
    quarantine: Path | None  # None on an object store: the good version was restored as a new one

    def describe(self, problem: str) -> str:
        if self.quarantine is None:
            return (f"the index was damaged ({problem}); went back to its last good version {self.version} "
                    f"({self.rows} chunks) by restoring it as the latest version")
        return (f"the index was damaged ({problem}); went back to its last good version {self.version} "
                f"({self.rows} chunks); the damaged versions were moved to {self.quarantine}")


def short(exc: BaseException) -> str:
    """LanceDB's message without its wrapper and Rust source location ("…, /root/.cargo/…/utils.rs:172:20")."""
    text = str(exc).strip() or type(exc).__name__
    text = re.sub(r",?\s*/\S+\.rs:\d+(:\d+)?", "", text)
    text = re.sub(r"^(lance error: )?(External error: )?(LanceError\(\w+\): )?", "", text)
    text = text.replace("Generic LocalFileSystem error: ", "").replace("Generic memory error: ", "")
    line = text.splitlines()[0].strip() if text else type(exc).__name__
    return redact_uri(line if len(line) <= 300 else line[:300] + " …")  # a store's debug dump is not a message


def path_problem(index_dir: IndexLocation) -> str | None:
    """Why ``index_dir`` cannot hold an index at all (a file is in the way), or None."""
    if isinstance(index_dir, ObjectStoreURI):
        return None
    for p in (index_dir, *index_dir.parents):
        if p.exists() and not p.is_dir():
            return (f"{p} is a regular file, not a folder: move it away, or choose another folder with --index-dir "
                    "(or safereq.index.path in the editor)")
    return None


def check_path(index_dir: IndexLocation) -> None:
    problem = path_problem(index_dir)
    if problem:
        raise IndexUnusable(f"cannot use the index at {index_dir}: {problem}")


def check_writable(index_dir: IndexLocation) -> None:
    """Write and remove a probe file, in the index folder and its table folder (a real test, also for root).

    Skipped on an object store: a probe object would need delete rights a writer may rightly lack.
    """
    if isinstance(index_dir, ObjectStoreURI):
        return
    for folder in (index_dir, index_dir / TABLE_DIR):
        if not folder.is_dir():
            continue
        probe = folder / f".safereq-write-probe-{uuid.uuid4().hex}"
        try:
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise IndexUnusable(
                f"cannot write to the index at {index_dir} ({exc.strerror or exc}): make the folder writable, or "
                "choose another one with --index-dir; searching the index as it is still works") from None


def versions(table_dir: Path) -> list[int]:
    """The versions whose manifests are in ``_versions``, newest first (both of Lance's naming schemes)."""
    found = []
    for m in (table_dir / "_versions").glob("*.manifest"):
        try:
            n = int(m.stem)
        except ValueError:
            continue
        found.append(_U64_MAX - n if n > 2**63 else n)
    return sorted(set(found), reverse=True)


def _manifest(table_dir: Path, version: int) -> Path | None:
    for name in (f"{_U64_MAX - version}.manifest", f"{version}.manifest"):
        if (table_dir / "_versions" / name).is_file():
            return table_dir / "_versions" / name
    return None


def _dataset(table_dir: IndexLocation, version: int | None = None):
    import lance

    return lance.dataset(str(table_dir), version=version, storage_options=storage_options(table_dir) or None)


def read_version(table_dir: IndexLocation, version: int | None = None) -> int:
    """Read every row and column of ``version`` (default: the latest); its row count. Raises on damage."""
    ds = _dataset(table_dir, version)
    if META_MODEL not in (ds.schema.metadata or {}):
        raise ValueError("the table has no safereq schema")
    rows = 0
    for batch in ds.to_batches(batch_size=2048):
        rows += batch.num_rows
    if rows != ds.count_rows():
        raise ValueError(f"{ds.count_rows()} rows recorded but {rows} readable")
    return rows


PROBE_ROWS = 3  # chunks probed; the index is declared damaged only when a search for each one's words finds nothing
PROBE_WORDS = 64  # words of a chunk in its probe query


def _probe_queries(reader) -> list[str]:
    """The words of the first chunks' search texts, one query per chunk: a search for a chunk's own words finds
    at least that chunk whatever the tokeniser makes of them (``Part6`` is one token, not ``part``), because
    the query is tokenised as the text was. Words only: the query never meets the parser's syntax."""
    out = []
    for row in reader.scan(None, ["search_text"], limit=PROBE_ROWS):
        words = re.findall(r"\w+", row["search_text"] or "")[:PROBE_WORDS]
        if words:
            out.append(" ".join(words))
    return out


def search_index_problem(index_dir: IndexLocation) -> str | None:
    """Why the full-text index cannot be trusted (missing, unreadable, or finds nothing for text it holds)."""
    from .reader import TableReader

    reader = TableReader(index_dir)
    if reader.count() == 0 or not reader.has_text_index():
        return None  # incomplete, not damaged: see _with_search_index
    queries = _probe_queries(reader)
    if not queries:
        return None
    for query in queries:
        try:
            if reader.fts(query, None, ["id"], 1):
                return None
        except Exception as exc:  # noqa: BLE001 - any failure of the index is the finding
            return f"its full-text index cannot be read ({short(exc)})"
    return "its full-text index finds nothing for words the index holds"


def inspect(index_dir: IndexLocation) -> Health:
    """The health of the index at ``index_dir`` (reads it all: call once per open or run, not per query).

    A store that fails (unreachable, no bucket, credentials refused, no answer before the deadline) raises
    its :mod:`.faults` error: that is not damage to the index."""
    if isinstance(index_dir, ObjectStoreURI):
        return under_deadline(index_dir, "checking the index", _inspect_remote, index_dir)
    index_dir = Path(index_dir)
    check_path(index_dir)
    table_dir = index_dir / TABLE_DIR
    if not table_dir.exists():
        return Health("missing")
    if not table_dir.is_dir():
        return Health("damaged", f"{TABLE_DIR} is a file, not the table's folder")
    if not (table_dir / "_versions").is_dir():
        return Health("damaged", "its version history (_versions) is missing")
    known = versions(table_dir)
    if not known:
        return Health("damaged", "its version history (_versions) holds no version")
    try:
        rows = read_version(table_dir)
    except Exception as exc:  # noqa: BLE001 - LanceDB raises assorted types for damaged files
        return Health("damaged", f"version {known[0]} cannot be read: {short(exc)}", known[0])
    return _with_search_index(index_dir, known[0], rows)


def _remote_versions(uri: ObjectStoreURI) -> list[int]:
    return sorted((int(v["version"]) for v in _dataset(uri / TABLE_DIR).versions()), reverse=True)


def _inspect_remote(uri: ObjectStoreURI) -> Health:
    """:func:`inspect` for an object store: the same reads, through LanceDB only (no folder listing)."""
    from .reader import TableReader

    if not TableReader(uri).exists():
        return Health("missing")
    try:
        known = _remote_versions(uri)
        rows = read_version(uri / TABLE_DIR)
    except StoreError:
        raise
    except Exception as exc:  # noqa: BLE001 - LanceDB raises assorted types for damaged objects
        from .faults import network_fault

        fault = network_fault(exc, uri, "reading the index")
        if fault is not None:
            raise fault from None
        return Health("damaged", f"its latest version cannot be read: {short(exc)}")
    return _with_search_index(uri, known[0] if known else None, rows)


def _with_search_index(index_dir: IndexLocation, version: int | None, rows: int) -> Health:
    from .reader import TableReader

    if rows == 0:
        return Health("incomplete", "nothing has been indexed into it yet: the first 'safereq index' stopped before "
                      "it wrote a file", version, rows)
    try:
        if not TableReader(index_dir).has_text_index():
            return Health("incomplete", "its full-text index has not been built yet: the 'safereq index' that "
                          "wrote it stopped before the end", version, rows)
        problem = search_index_problem(index_dir)
    except StoreError:
        raise
    except Exception as exc:  # noqa: BLE001
        problem = f"the table cannot be opened ({short(exc)})"
    if problem:
        return Health("search-index", problem, version, rows)
    return Health("ok", "", version, rows)


def damaged_message(index_dir: IndexLocation, health: Health) -> str:
    if health.state == "incomplete":
        return f"the index at {index_dir} is incomplete: {health.problem}; {RESUME_HINT}"
    hint = REPAIR_HINT if health.state == "damaged" else "run 'safereq index' to build its full-text index again"
    return f"the index at {index_dir} is damaged: {health.problem}; {hint}"


def health_error(index_dir: IndexLocation, health: Health) -> StoreError | None:
    """The error to raise for an index in this state before reading it; None when it can be read."""
    from .faults import IndexIncomplete

    if health.state == "incomplete":
        return IndexIncomplete(damaged_message(index_dir, health))
    if health.state in ("damaged", "search-index"):
        return IndexDamaged(damaged_message(index_dir, health))
    return None


def fall_back(index_dir: IndexLocation, problem: str) -> Fallback:
    """Make the newest fully readable older version the latest (see module docstring); IndexDamaged if none."""
    if isinstance(index_dir, ObjectStoreURI):
        return under_deadline(index_dir, "going back to a good version", _fall_back_remote, index_dir, problem)
    table_dir = Path(index_dir) / TABLE_DIR
    known = versions(table_dir) if table_dir.is_dir() else []
    for version in known[1:]:
        try:
            rows = read_version(table_dir, version)
        except Exception:  # noqa: BLE001 - try the next older one
            continue
        quarantine = Path(index_dir) / QUARANTINE / time.strftime("%Y%m%d-%H%M%S")
        quarantine.mkdir(parents=True, exist_ok=True)
        for newer in (v for v in known if v > version):
            manifest = _manifest(table_dir, newer)
            if manifest is not None:
                shutil.move(str(manifest), str(quarantine / manifest.name))
        hint = table_dir / "_versions" / "latest_version_hint.json"
        if hint.exists():
            shutil.move(str(hint), str(quarantine / hint.name))
        return Fallback(version, rows, quarantine)
    raise IndexDamaged(f"the index at {index_dir} is damaged ({problem}) and no older version of it can be read; "
                       f"{REBUILD_HINT}")


def _fall_back_remote(uri: ObjectStoreURI, problem: str) -> Fallback:
    try:
        known = _remote_versions(uri)
    except Exception:  # noqa: BLE001 - not even the version list: nothing to go back to
        known = []
    for version in known[1:]:
        try:
            rows = read_version(uri / TABLE_DIR, version)
            _dataset(uri / TABLE_DIR, version).restore()
        except Exception:  # noqa: BLE001 - try the next older one
            continue
        return Fallback(version, rows, None)
    raise IndexDamaged(f"the index at {uri} is damaged ({problem}) and no older version of it can be read; "
                       f"{REBUILD_HINT}")


def remove_table(index_dir: IndexLocation) -> None:
    """For ``--rebuild``: remove the table folder (and earlier quarantined manifests), nothing else."""
    if isinstance(index_dir, ObjectStoreURI):
        from .store import Store

        store = Store(index_dir, reader=False)
        if store.exists():
            under_deadline(index_dir, "removing the index", store.db.drop_table, TABLE)
        return
    for name in (TABLE_DIR, QUARANTINE):
        target = Path(index_dir) / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
