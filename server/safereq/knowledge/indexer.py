"""``safereq index``: bring the index up to date with a set of files, incrementally and safely.

For each file: hash its bytes; skip it if the index already holds that hash; otherwise chunk it, embed only
the chunks whose text is new (vectors of unchanged chunk texts are reused from the table: the embedding
cache is keyed by content hash), and replace the file's rows in one commit. A file that fails (binary,
malformed PDF, …) is reported with a message and the run goes on; the index keeps its previous rows for it.

Text first, vectors after: the run writes every file's rows with the vectors it already has (the table's
cache, the shipped seed) and none for new texts, builds the full-text index, and only then embeds what is
missing, one committed batch at a time. Full-text search works as soon as the text is in, and a run that is
stopped (cancelled, killed) leaves rows without vectors that the next run fills in: the rows are the queue.
``Indexer.run(..., vectors=False)`` stops after the text.

Progress is reported through a callback (``ProgressEvent``), which the CLI draws as a bar on stderr and the
language server turns into work-done progress. The callback may raise :class:`IndexCancelled` to stop the run
at the next file, PDF page or embedding batch (the language server's Cancel); what was written stays.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .config import KnowledgeConfig
from .embeddings import Embedder, EmbeddingError, make_embedder
from .ingest import Chunk, IngestError
from .ingest.chunker import CHUNKER_VERSION
from .ingest.files import chunk_job, read_bytes
from .ingest.readers import SUPPORTED_SUFFIXES, source_kind
from .manifest import load_manifest
from .paths import SHIPPED_PREFIX, corpora_dir
from .types import IndexCancelled, IndexReport, ProgressCallback, ProgressEvent

log = logging.getLogger(__name__)

SKIP_DIRS = {".git", ".safereq", ".venv", "node_modules", "__pycache__", ".hg", ".svn"}


class IndexError_(Exception):
    """A run that cannot start (no files, bad configuration); the message is for the user."""


@dataclass(frozen=True, slots=True)
class Job:
    """One file to index and how to name it."""

    path: Path
    source: str  # the key stored in the table: "corpora:<rel>" or the absolute path
    kind: str  # "document" | "catalogue"
    document: str | None = None
    year: str | None = None
    title: str | None = None
    root_label: str | None = None


def _label(rel: Path) -> str | None:
    """"functional-safety/README.md" → "Functional Safety"; "scenarios/car-following.md" → "Scenarios / Car Following"."""
    parts = list(rel.with_suffix("").parts)
    if parts and parts[-1].lower() in ("readme", "index"):
        parts = parts[:-1]
    parts = [p for p in parts if p.lower() != "docs"]
    return " / ".join(p.replace("-", " ").replace("_", " ").title() for p in parts) or None


def shipped_jobs(corpora: Path | None = None) -> list[Job]:
    """The files of every source in ``corpora/manifest.yaml``."""
    corpora = corpora or corpora_dir()
    jobs: list[Job] = []
    for src in load_manifest(corpora):
        base = corpora / src.id if (corpora / src.id).is_dir() else corpora
        multi = len(src.files) > 1
        for path in src.files:
            rel = path.relative_to(corpora).as_posix()
            label = _label(path.relative_to(base)) if multi and src.kind == "document" else None
            jobs.append(Job(path, SHIPPED_PREFIX + rel, src.kind, src.document or None, src.year or None,
                            src.title or None, label))
    return jobs


def path_jobs(paths: Iterable[Path], document: str | None = None) -> tuple[list[Job], list[str], list[tuple[str, str]]]:
    """Jobs for user paths (files, or folders walked for supported files); also the folder prefixes walked."""
    jobs: list[Job] = []
    roots: list[str] = []
    problems: list[tuple[str, str]] = []
    for p in paths:
        p = Path(p).expanduser()
        if p.is_dir():
            root = p.resolve()
            roots.append(str(root))
            for f in sorted(root.rglob("*")):
                if f.is_file() and f.suffix.lower() in SUPPORTED_SUFFIXES - {".yaml", ".yml"} \
                        and not SKIP_DIRS.intersection(f.relative_to(root).parts):
                    jobs.append(Job(f, str(f), "document"))
        elif p.is_file():
            kind = source_kind(p)
            if kind is None:
                problems.append((str(p), f"unsupported file type {p.suffix or '(none)'}"))
                continue
            jobs.append(Job(p, str(p.resolve()), "catalogue" if kind == "catalogue" else "document", document))
        else:
            problems.append((str(p), "no such file or folder"))
    return jobs, roots, problems


CONFLICT_RETRIES = 3  # runs again after a commit that lost a race with another writer


def is_commit_conflict(exc: BaseException) -> bool:
    """LanceDB refused a commit because another writer committed first (nothing was written; safe to retry)."""
    text = str(exc).lower()
    # "Incompatible transaction": the vector phase's update lost to another writer's commit of the same rows.
    return ("commit conflict" in text or "preempted by concurrent transaction" in text
            or "incompatible transaction" in text)


class Indexer:
    """Runs index jobs against one index folder with one embedder (loaded lazily, on the first new chunk)."""

    def __init__(self, config: KnowledgeConfig, progress: ProgressCallback | None = None,
                 embedder: Embedder | None | str = "auto"):
        from .integrity import IndexUnusable, check_path
        from .store import Store

        self.config = config
        self.progress = progress or (lambda event: None)
        check_path(config.index_dir)
        self.embedder = make_embedder(config.embed) if embedder == "auto" else embedder
        try:
            if isinstance(config.index_dir, Path):  # an object store has no folders to create
                config.index_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise IndexUnusable(f"cannot create the index folder {config.index_dir}: {exc.strerror or exc}") from None
        self.store = Store(config.index_dir, reader=False)

    def _emit(self, phase: str, done: int, total: int, message: str = "") -> None:
        try:
            self.progress(ProgressEvent(phase, done, total, message))
        except IndexCancelled:
            raise
        except Exception:  # noqa: BLE001 - a broken progress sink must not stop indexing
            log.debug("progress callback failed", exc_info=True)

    def run(self, jobs: list[Job], *, prune_prefixes: Iterable[str] = (), force: bool = False,
            rebuild: bool = False, vectors: bool = True) -> IndexReport:
        """Index ``jobs``; a damaged index is first repaired (see :mod:`.integrity`), or rebuilt with ``rebuild``."""
        from .integrity import REPAIR_HINT, short
        from .store import Store, StoreError

        started = time.perf_counter()
        landed: list[str] = []  # files an attempt that then lost a race had already committed
        for attempt in range(CONFLICT_RETRIES + 1):
            report = IndexReport()
            try:
                done = self._run(jobs, list(prune_prefixes), force, rebuild and attempt == 0, vectors, report, started)
                done.indexed[:0] = [f for f in landed if f not in done.indexed]
                done.skipped[:] = [f for f in done.skipped if f not in landed]
                return done
            except StoreError:
                raise
            except (OSError, RuntimeError) as exc:  # LanceDB's I/O failures: disk full, permissions, damage
                log.debug("writing the index failed", exc_info=True)
                if not is_commit_conflict(exc):
                    raise StoreError(f"writing the index at {self.config.index_dir} failed: {short(exc)}; "
                                     f"{REPAIR_HINT}") from None
                if attempt == CONFLICT_RETRIES:
                    raise StoreError(f"another writer kept committing to the index at {self.config.index_dir} "
                                     f"({short(exc)}); run 'safereq index' again when it is done") from None
                # Every commit is atomic and the run incremental: running again redoes only what did not land.
                log.info("another writer committed to %s at the same time; running again", self.config.index_dir)
                landed += [f for f in report.indexed if f not in landed]
                self.store = Store(self.config.index_dir, reader=False)
        raise AssertionError("unreachable")

    def _repair(self, rebuild: bool, report: IndexReport) -> bool:
        """Bring a damaged index back to a good state before the run; True if the search index must be rebuilt."""
        from .integrity import check_writable, fall_back, inspect, remove_table
        from .store import Store

        index_dir = self.config.index_dir
        check_writable(index_dir)
        if rebuild:
            remove_table(index_dir)
            report.repaired = f"rebuilt the index at {index_dir} from scratch"
        else:
            health = inspect(index_dir)
            if health.state == "damaged":
                report.repaired = fall_back(index_dir, health.problem).describe(health.problem)
            elif health.state == "search-index":
                report.repaired = f"the index's full-text search was damaged ({health.problem}); built it again"
            else:
                return health.state == "incomplete"  # resumed: the run builds the full-text index at its end
        log.info("%s", report.repaired)  # the report carries it to the user (a warning would say it twice)
        self.store = Store(index_dir, reader=False)  # a fresh handle: the files changed under the old one
        return True

    def _run(self, jobs: list[Job], prune_prefixes: list[str], force: bool, rebuild: bool, vectors: bool,
             report: IndexReport,
             started: float) -> IndexReport:
        repaired = self._repair(rebuild, report)
        model_id = self.embedder.model_id if self.embedder else "none"
        dim = self.embedder.dim if self.embedder else 0
        if self.store.ensure(model_id, dim):
            force = True
        known = self.store.source_hashes()
        seen = {j.source for j in jobs}
        stale = [s for s in known for pre in prune_prefixes if s.startswith(pre) and s not in seen]
        if stale:
            self.store.delete_sources(stale)
            report.removed.extend(sorted(set(stale)))
        total = len(jobs)
        try:
            self._index_jobs(jobs, known, force, report)
            self._emit("finish", total, total, "building the full-text index")
            changed = bool(report.indexed or report.removed or force or repaired)
            if changed:
                self.store.finish_text()
            report.text_seconds = time.perf_counter() - started
            report.vectors_pending = self.store.pending_count()
            self._emit("text-ready", total, total, f"text ready; vectors pending for {report.vectors_pending} chunks"
                       if report.vectors_pending else "text ready")
            if vectors and self.embedder is not None and report.vectors_pending:
                changed = True
                try:
                    self._fill_vectors(report)
                except EmbeddingError as exc:  # the text stays searchable; the next run tries the rest again
                    report.failed.append(("vectors", f"{exc}; {report.vectors_pending} chunks have no vector "
                                                     "yet (full-text search works; run safereq index again)"))
            if changed:
                self.store.finish()
        except IndexCancelled:
            # Every file written so far is complete (one commit each); full-text search also reads rows the
            # search index does not cover yet, so skipping its rebuild loses nothing but speed.
            report.cancelled = True
            report.vectors_pending = self.store.pending_count()
            log.info("indexing cancelled after %d file(s)", len(report.indexed))
        report.seconds = time.perf_counter() - started
        try:
            self._emit("done", total, total, "cancelled" if report.cancelled else "")
        except IndexCancelled:
            pass  # the run is over either way
        return report

    def _index_jobs(self, jobs: list[Job], known: dict[str, tuple[str, str]], force: bool,
                    report: IndexReport) -> None:
        total = len(jobs)
        for n, job in enumerate(jobs):
            self._emit("index", n, total, job.path.name)
            try:
                data = read_bytes(job.path)
                digest = hashlib.sha256(data).hexdigest()
                if not force and known.get(job.source) == (digest, CHUNKER_VERSION):
                    report.skipped.append(job.source)
                    continue
                chunks, pages = chunk_job(job, data, lambda i, count, name=job.path.name:
                                          self._emit("page", i, count, name))
                rows, hits = self._rows(job, digest, chunks)
                if rows:
                    self.store.write_source(job.source, rows)
                elif job.source in known:
                    self.store.delete_sources([job.source])  # the file is empty now
                else:
                    report.empty.append(job.source)  # nothing of it in the index, nor to put there
                    continue
            except (IngestError, ValueError) as exc:
                report.failed.append((job.source, str(exc)))
                continue
            report.indexed.append(job.source)
            report.chunks_written += len(rows)
            report.embed_cache_hits += hits
            report.pages += pages

    def _rows(self, job: Job, digest: str, chunks: list[Chunk]) -> tuple[list[dict], int]:
        """The rows of one file, with the vectors already known (table cache, shipped seed) and how many those were."""
        from .ingest.chunker import DocumentMeta

        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        hashes = [c.embed_hash for c in chunks]
        vectors: dict[str, list[float]] = {}
        if self.embedder is not None:
            vectors = self.store.cached_vectors(hashes)
            if job.source.startswith(SHIPPED_PREFIX):
                from .seed import load_seed, seed_path

                seed = load_seed(seed_path(self.embedder.model_id))
                vectors.update((h, seed[h]) for h in hashes if h not in vectors and h in seed)
        reused = sum(1 for h in hashes if h in vectors)
        rows = []
        for c, h in zip(chunks, hashes, strict=True):
            meta = DocumentMeta(c.document, c.year, c.doc_title)
            row = {
                "id": hashlib.sha1(f"{job.source}\x00{c.ordinal}".encode()).hexdigest()[:24],
                "source": job.source, "source_hash": digest, "chunker": CHUNKER_VERSION, "indexed_at": now,
                "document": c.document, "year": c.year, "doc_title": c.doc_title,
                "standard": meta.standard, "part": meta.part, "clause": c.clause, "title": c.title,
                "parent": c.parent, "path": json.dumps([list(p) for p in c.path], ensure_ascii=False),
                "kind": c.kind, "text": c.text, "search_text": c.embed_text, "embed_hash": h,
                "page": c.page or 0, "ordinal": c.ordinal,
            }
            if self.embedder is not None:
                row["vector"] = vectors.get(h)  # None: filled in by _fill_vectors after the text phase
            rows.append(row)
        return rows, reused

    def _fill_vectors(self, report: IndexReport) -> None:
        """Embed the rows that have no vector yet, one committed batch at a time (stoppable, resumable)."""
        assert self.embedder is not None
        started = time.perf_counter()
        pending = self.store.pending_rows()
        by_hash: dict[str, list[str]] = {}
        texts: dict[str, str] = {}
        for row in pending:
            by_hash.setdefault(row["embed_hash"], []).append(row["id"])
            texts.setdefault(row["embed_hash"], row["search_text"])
        cached = self.store.cached_vectors(by_hash)  # another file may hold the same text already
        if cached:
            self._write_vectors(by_hash, cached)
        todo = [h for h in by_hash if h not in cached]
        bulk, close, per_commit = bulk_passage_embedder(self.embedder)
        try:
            for i in range(0, len(todo), per_commit):
                self._emit("vectors", i, len(todo), f"{i}/{len(todo)} chunks")
                batch = todo[i:i + per_commit]
                vectors = bulk([texts[h] for h in batch])
                self._write_vectors(by_hash, dict(zip(batch, vectors, strict=True)))
                report.embedded += len(batch)
            self._emit("vectors", len(todo), len(todo), f"{len(todo)}/{len(todo)} chunks")
        finally:
            close()
            report.vector_seconds += time.perf_counter() - started
            report.vectors_pending = self.store.pending_count()

    def _write_vectors(self, by_hash: dict[str, list[str]], vectors: dict[str, list[float]]) -> None:
        ids = [i for h in vectors for i in by_hash[h]]
        self.store.set_vectors(ids, [vectors[h] for h in vectors for _ in by_hash[h]])


VECTOR_BATCH = 32  # chunks per commit of vectors: what a stop loses at most, and how often progress moves


def bulk_passage_embedder(embedder: Embedder) -> tuple[Callable[[list[str]], list[list[float]]],
                                                       Callable[[], None], int]:
    """How to embed many passages with ``embedder``: the bundled model over worker processes, else itself.

    Returns (embed, close, chunks per commit). The OpenAI-compatible embedder batches and runs its requests
    concurrently itself; it gets enough chunks per commit to keep all of its requests in flight.
    """
    from .embeddings import E5Embedder, OpenAIEmbedder

    if isinstance(embedder, E5Embedder):
        from .embed_pool import E5ProcessPool, default_processes

        processes = default_processes()
        if processes > 1:
            pool = E5ProcessPool(processes, embedder.max_tokens)
            return pool.embed_passages, pool.close, VECTOR_BATCH
    if isinstance(embedder, OpenAIEmbedder):
        return embedder.embed_passages, lambda: None, max(VECTOR_BATCH, embedder.in_flight_chunks)
    return embedder.embed_passages, lambda: None, VECTOR_BATCH


def index_paths(config: KnowledgeConfig, paths: Iterable[Path] = (), *, document: str | None = None,
                progress: ProgressCallback | None = None, force: bool = False, rebuild: bool = False,
                vectors: bool = True,
                embedder: Embedder | None | str = "auto") -> IndexReport:
    """Index ``paths`` (files or folders), or the shipped corpora when ``paths`` is empty; ``rebuild`` starts
    from an empty table (the cure for an index damaged beyond its last good version)."""
    paths = list(paths)
    if paths:
        jobs, roots, problems = path_jobs(paths, document)
        prune = [r.rstrip("/") + "/" for r in roots]
    else:
        jobs, problems, prune = shipped_jobs(), [], [SHIPPED_PREFIX]
    if not jobs and not problems:
        raise IndexError_("nothing to index: no Markdown, text or PDF files found")
    if not (force or rebuild or problems):
        from .freshness import unchanged_report

        fresh = unchanged_report(config, jobs, prune, vectors=vectors, embedder=embedder)
        if fresh is not None:  # nothing to write: the writer (and LanceDB's import) is not needed
            return fresh
    indexer = Indexer(config, progress, embedder)
    report = indexer.run(jobs, prune_prefixes=prune, force=force, rebuild=rebuild, vectors=vectors)
    report.failed[:0] = problems
    return report
