"""``safereq.indexKnowledgeBase``: bring the knowledge base up to date from the editor.

It indexes what ``safereq index`` with no PATH indexes (the shipped corpora) plus the files and folders of the
``safereq.corpora.paths`` setting (or ``corpora.paths`` in the configuration file), into the index folder of
``safereq.index.path`` (default ``<first workspace folder>/.safereq/index``, as the CLI). The run goes to a
worker thread: parsing holds the GIL in short slices and LanceDB and the embedding model release it, so
requests keep being answered. Progress is server-initiated work-done progress (a command handler cannot
see a token the client might have sent), cancellable: Cancel sets an event that the indexer's progress
callback turns into :class:`~safereq.knowledge.IndexCancelled`, which stops the run within a file, PDF page
or embedding batch. Each file is one LanceDB commit, so a cancelled run leaves every file at its previous or
its new version and the index usable. Cancelling the command request itself stops the run too.

A damaged index is repaired first (see :mod:`safereq.knowledge.integrity`): back to its last good version, or,
when none is left, rebuilt from scratch (what ``safereq index --rebuild`` does); the summary says which.

One run at a time: a second request for the same index and paths joins the running one (and gets its
summary, with ``"joined": true``); a request for another index or other paths is refused until it ends.
While a run is active the status is ``indexing``; afterwards the server's status follows again, and the
clause-hover reader is reopened on the new index.

Result: ``{"index", "files", "chunks", "skipped", "removed", "failed": [{"source", "error"}], "embedded",
"cancelled", "seconds", "message"}`` (``files``/``chunks``: written by this run; ``message``: one line for
the user). Importing this module is cheap; the knowledge base loads in the worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import failed, invalid
from .progress import Progress

if TYPE_CHECKING:
    from ..knowledge.types import IndexReport, ProgressEvent
    from .server import SafereqServer
    from .session import Session

log = logging.getLogger(__name__)

TITLE = "Indexing the knowledge base"
_FILES_SHARE = 95  # percent of the bar for the files; the search-index build takes the rest


@dataclass(frozen=True, slots=True)
class Plan:
    """What one run indexes: the shipped corpora, these extra paths, into this folder."""

    index_dir: Path
    paths: tuple[Path, ...]


def make_plan(session: Session) -> Plan:
    """The index folder and the extra corpora from the settings (client first, then configuration file)."""
    from .status import index_path

    if session.settings.corpora.paths is not None:
        raw, where = session.settings.corpora.paths, "the setting safereq.corpora.paths"
    else:
        raw, where = session.file_config.corpora.paths or [], "corpora.paths in the configuration file"
    if not all(p.strip() for p in raw):
        raise failed(f"{where} must be a list of file or folder paths, e.g. [\"standards/\"]")
    paths = []
    for p in raw:
        path = Path(os.path.expanduser(p.strip()))
        paths.append(path if path.is_absolute() else session.root / path)
    return Plan(index_path(session), tuple(paths))


@dataclass(eq=False)
class Run:
    """One indexing run: its plan, the event Cancel sets, and the task that drives it."""

    plan: Plan
    cancel_event: threading.Event = field(default_factory=threading.Event)
    task: asyncio.Task | None = None

    def cancel(self) -> None:
        self.cancel_event.set()


def active(ls: SafereqServer) -> Run | None:
    """The running indexing run, if any (the server's status says ``indexing`` while there is one)."""
    return ls.indexing


def status_message(run: Run) -> str:
    return f"indexing the knowledge base into {run.plan.index_dir}"


async def index_knowledge_base(ls: SafereqServer, args: list[Any]) -> dict[str, Any]:
    """The command: start a run (or join the one in progress) and answer with its summary."""
    if args:
        raise invalid("safereq.indexKnowledgeBase takes no arguments: it indexes the shipped corpora and the "
                      "paths of the safereq.corpora.paths setting into safereq.index.path")
    plan = make_plan(ls.session)
    current = active(ls)
    if current is not None:
        if current.plan != plan:
            raise failed(f"the knowledge base is already being indexed into {current.plan.index_dir}; "
                         "wait for that run to end or cancel it, then try again")
        assert current.task is not None
        return {**await asyncio.shield(current.task), "joined": True}
    run = Run(plan)
    ls.indexing = run
    run.task = asyncio.ensure_future(_drive(ls, run))
    run.task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved even with no awaiter
    try:
        return await asyncio.shield(run.task)
    except asyncio.CancelledError:  # the command request was cancelled ($/cancelRequest)
        run.cancel()
        raise


async def _drive(ls: SafereqServer, run: Run) -> dict[str, Any]:
    progress = Progress(ls, TITLE)

    def cancel() -> None:
        run.cancel()
        progress.report(None, "cancelling…")

    try:
        await progress.begin(on_cancel=cancel, message="starting")
        ls.send_status("indexing", status_message(run))
        future: Future = Future()
        sink = _ProgressSink(progress.report)
        threading.Thread(target=_work, args=(run.plan, run.cancel_event, sink, future),
                         name="safereq-index", daemon=True).start()
        try:
            report = await asyncio.wrap_future(future)
        except Exception as exc:
            message = _error_message(exc)
            progress.end(f"failed: {message}")
            raise failed(f"indexing the knowledge base failed: {message}") from None
        summary = summarise(run.plan.index_dir, report)
        progress.end(summary["message"])
        return summary
    finally:
        ls.indexing = None
        ls.knowledge.reload(run.plan.index_dir)
        ls.send_status()


def _work(plan: Plan, cancel: threading.Event, sink: _ProgressSink, future: Future) -> None:
    """The worker thread: index, and hand the report (or the error) to ``future``."""
    try:
        future.set_result(run_index(plan, cancel, sink))
    except BaseException as exc:  # noqa: BLE001 - every failure must reach the request, never the thread's void
        future.set_exception(exc)


def run_index(plan: Plan, cancel: threading.Event, sink: _ProgressSink) -> IndexReport:
    """Index the shipped corpora plus ``plan.paths`` into ``plan.index_dir``; stop when ``cancel`` is set."""
    os.environ.setdefault("LANCE_LOG", "error")  # Lance logs warnings on stderr otherwise
    from ..knowledge.config import KnowledgeConfig
    from ..knowledge.indexer import SHIPPED_PREFIX, Indexer, path_jobs, shipped_jobs
    from ..knowledge.types import IndexCancelled, IndexReport

    def progress(event: ProgressEvent) -> None:
        if cancel.is_set():
            raise IndexCancelled()
        sink(event)

    jobs = shipped_jobs()
    extra, roots, problems = path_jobs(plan.paths)
    jobs.extend(extra)
    sink.weigh([_size(job.path) for job in jobs])
    if cancel.is_set():
        return IndexReport(failed=problems, cancelled=True)
    from ..knowledge.integrity import IndexDamaged

    indexer = Indexer(KnowledgeConfig.resolve(plan.index_dir), progress)
    prune = [SHIPPED_PREFIX, *(r.rstrip("/") + "/" for r in roots)]
    try:
        report = indexer.run(jobs, prune_prefixes=prune)
    except IndexDamaged as exc:  # no good version left: the editor's command is the CLI's --rebuild here
        log.warning("%s; rebuilding", exc)
        report = indexer.run(jobs, prune_prefixes=prune, rebuild=True)
    report.failed[:0] = problems
    return report


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _error_message(exc: BaseException) -> str:
    """One line for the user; the traceback of an unexpected failure goes to the server log only."""
    from ..knowledge.embeddings import EmbeddingError
    from ..knowledge.indexer import IndexError_
    from ..knowledge.manifest import ManifestError

    expected: tuple[type[BaseException], ...] = (EmbeddingError, IndexError_, ManifestError, ValueError)
    try:
        from ..knowledge.store import StoreError  # imports LanceDB: only when it is there to import

        expected += (StoreError,)
    except ImportError:
        pass
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    if isinstance(exc, expected):
        return str(exc)
    log.error("indexing the knowledge base failed", exc_info=exc)
    return f"{type(exc).__name__}: {exc} (details in the server log)"


def summarise(index_dir: Path, report: IndexReport) -> dict[str, Any]:
    """The command's result (see the module docstring)."""
    files, chunks = len(report.indexed), report.chunks_written
    if report.cancelled:
        message = (f"cancelled after {files} file(s) ({chunks} chunks); the other files keep their previous "
                   f"version in {index_dir}")
    else:
        message = (f"{files} file(s) indexed ({chunks} chunks), {len(report.skipped)} unchanged, "
                   f"{len(report.removed)} removed, {len(report.failed)} failed → {index_dir}")
    if report.vectors_pending:
        message += f"; text ready, vectors pending for {report.vectors_pending} chunks"
    if report.repaired:
        message = f"{report.repaired}; {message}"
    if report.failed:
        source, error = report.failed[0]
        message += f"; {error if source in error else f'{source}: {error}'}"
    return {
        "index": str(index_dir), "files": files, "chunks": chunks, "skipped": len(report.skipped),
        "removed": len(report.removed), "failed": [{"source": s, "error": e} for s, e in report.failed],
        "embedded": report.embedded, "vectors_pending": report.vectors_pending, "cancelled": report.cancelled,
        "seconds": round(report.seconds, 2),
        "message": message,
    }


class _ProgressSink:
    """Turns the indexer's events (worker thread) into percentage + message.

    Events come per file, per PDF page and per committed batch of vectors, each a unit of real work, so they are passed
    on as they come (no time-based throttling, which would make the messages depend on the machine's speed).
    Files count by size (one PDF of the shipped corpora is most of the work, among 30 files); the
    percentage never goes back; the files take 95 %, building the search index the rest.
    """

    _FILE_OVERHEAD = 4096  # bytes a tiny file counts as: each file costs a hash, a read and a commit

    def __init__(self, report: Callable[[int, str], None]) -> None:
        self._report = report
        self._starts = [0.0, 1.0]  # where each file's share begins (fraction of all files), then 1.0
        self._file = 0
        self._percentage = 0

    def weigh(self, sizes: list[int]) -> None:
        """The sizes of the files about to be indexed, in order."""
        weights = [size + self._FILE_OVERHEAD for size in sizes]
        total, running, starts = sum(weights) or 1, 0, []
        for weight in weights:
            starts.append(running / total)
            running += weight
        self._starts = [*starts, 1.0]

    def __call__(self, event: ProgressEvent) -> None:
        phase = event.phase
        if phase == "index":
            self._file = min(event.done, len(self._starts) - 2)
            within, message = 0.0, f"{event.message} ({event.done + 1}/{event.total})"
        elif phase == "page":
            within, message = event.fraction, f"{event.message}: page {event.done + 1}/{event.total}"
        elif phase == "finish":
            self._percentage = max(self._percentage, _FILES_SHARE + 1)
            self._report(self._percentage, event.message or "building the search index")
            return
        elif phase == "text-ready":  # full-text search works from here on; vectors follow
            self._report(self._percentage, event.message)
            return
        elif phase == "vectors":  # the last few percent: vectors fill in after the text (may take minutes)
            self._percentage = max(self._percentage, _FILES_SHARE + 1 + int(3 * event.fraction))
            self._report(self._percentage, f"text ready; vectors {event.done}/{event.total} chunks")
            return
        else:  # "done": the end of the progress says how it went
            return
        start, end = self._starts[self._file], self._starts[self._file + 1]
        share = start + within * (end - start)
        self._percentage = max(self._percentage, int(_FILES_SHARE * share))
        self._report(self._percentage, message)
