"""Check a large workspace on several cores: parse in this process, check documents in forked workers.

Item- and document-scope rules read one document each, so documents can be checked independently; only the
workspace-scope rules (trace graph, ASIL inheritance) need everything. The documents are parsed here in
batches, and as soon as a batch is parsed a worker is forked to check it: the worker sees the parsed
documents without any copying (fork), checks them while this process parses the next batch, and sends back
only its findings, which are few and cheap to pickle. When the last batch is parsed this process runs the
workspace-scope rules while the last workers finish. So parsing and checking overlap, and on two cores a
cold check costs about the parse plus the workspace-scope rules, not the sum of everything.

One more worker, the scorer, starts first: it loads numpy and rapidfuzz while the documents are parsed, and
then narrows the "did you mean" candidates of the dangling links (``trace.narrow_pools``, a function of
strings alone) while this process builds the trace graph. Those imports and that scoring would otherwise
be a fifth of the critical path.

Measured and rejected: parsing in the workers (pickling the parsed documents back costs as much as parsing
them; a helper that parsed and checked the last quarter of the text and sent its documents back made the
20,000-requirement check slower, 2.4 s against 2.1 s); checking the last batch here after the workspace-scope rules, so that no forked child shares this
process's pages while those rules touch every item (copy-on-write then copies each page touched, and the
trace graph took twice as long), was no faster overall on two cores; batches of decreasing size neither.

A worker that fails in any way (killed, out of memory, an exception) costs time, never findings: its
documents are checked here. Forking is used only where the platform's ``fork`` is dependable (Linux) and the
workspace is large enough to repay it; elsewhere, and with ``jobs=1``, everything runs in this process, with
the same result.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ...workspace import Workspace
from ...workspace.graph import trace_graph
from .checker import Checker
from .disk_cache import dataclass_reducers, dumps

if TYPE_CHECKING:  # multiprocessing is imported when workers are started, not by a warm re-run
    from multiprocessing.connection import Connection
from ..findings import Edit, Finding, Fix, Related

_log = logging.getLogger(__name__)

MIN_BYTES = 1_000_000  # below this, starting workers costs more than it saves
BATCHES_PER_JOB = 2  # batches per worker core: more overlap better, each costs a fork


class Source(Protocol):
    path: str
    text: str


# Findings travel (to the parent, to the check cache) rebuilt from their fields: pickle's own way for slotted
# dataclasses calls dataclasses.fields per object, most of the cost of reading thousands of findings back.
COMPACT = dataclass_reducers([Finding, Fix, Related, Edit])


def dumps_compact(value: Any) -> bytes:
    """``value`` pickled with findings in the compact form (read back with ``pickle.loads``)."""
    return dumps(value, COMPACT)


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    return sys.platform.startswith("linux")


def parse_and_check(
    sources: Sequence[Source], ws: Workspace, checker: Checker, jobs: int, *, min_bytes: int | None = None,
    known: Mapping[str, list[Finding]] | None = None,
) -> list[Finding]:
    """Load ``sources`` into ``ws`` and return ``checker.check(ws)``, using up to ``jobs`` processes when the
    sources add up to at least ``min_bytes`` (default ``MIN_BYTES``). ``known`` holds item- and document-scope
    findings found before (the persistent cache): those documents are parsed but not checked again."""
    _load(sources, ws, checker, jobs, min_bytes, known or {}, workspace_rules=True)
    return checker.check(ws)  # reports what the workers found, checks here what a failed worker did not


def local_check(sources: Sequence[Source], ws: Workspace, checker: Checker, jobs: int, *,
                min_bytes: int | None = None) -> dict[str, list[Finding]]:
    """Load ``sources`` into ``ws`` and return their item- and document-scope findings by path (no
    workspace-scope rules), on up to ``jobs`` processes as :func:`parse_and_check` does."""
    _load(sources, ws, checker, jobs, min_bytes, {}, workspace_rules=False)
    return checker.local_findings(ws, [source.path for source in sources])


def _load(sources: Sequence[Source], ws: Workspace, checker: Checker, jobs: int, min_bytes: int | None,
          known: Mapping[str, list[Finding]], *, workspace_rules: bool) -> None:
    """Parse ``sources`` into ``ws`` and have the local findings of each ready in ``checker`` (adopted from
    ``known`` or from a worker, or left for ``checker`` to find); with ``workspace_rules``, run those too."""
    size = sum(len(source.text) for source in sources if source.path not in known)
    if jobs <= 1 or len(sources) < 2 or size < (MIN_BYTES if min_bytes is None else min_bytes) or not can_fork():
        for source in sources:
            ws.update(source.path, source.text)
            if source.path in known:
                checker.adopt_local(ws.documents[source.path], known[source.path])
        return
    import multiprocessing

    context = multiprocessing.get_context("fork")
    scorer = (_fork(context, _score, duplex=True)
              if workspace_rules and "trace/dangling-link" in checker.severities else None)
    workers: list[tuple[Any, Connection]] = []
    try:
        for batch in _batches(sources, min(len(sources), jobs * BATCHES_PER_JOB)):
            for source in batch:
                ws.update(source.path, source.text)
                if source.path in known:
                    checker.adopt_local(ws.documents[source.path], known[source.path])
            todo = sorted({source.path for source in batch if source.path not in known})
            worker = _fork(context, _work, checker, ws, todo) if todo else None
            if worker is not None:
                workers.append(worker)
        if scorer is not None:
            _use_scorer(scorer, ws, checker)
        if workspace_rules:
            checker.check(ws, paths=())  # the workspace-scope rules, while the last workers run
        for proc, receive in workers:
            result = _receive(receive)
            proc.join()
            if result is None:
                _log.warning("a check worker failed (exit status %s); its documents are checked here", proc.exitcode)
                continue
            found, failures = result
            for path, findings in found.items():
                checker.adopt_local(ws.documents[path], findings)
            checker.failures.update(failures)
    except BaseException:  # interrupted (Ctrl-C, the memory guard): the workers must not run on, orphaned
        for proc, _receive_end in workers:
            proc.kill()
        if scorer is not None:
            scorer[0].kill()
        raise


def _batches(sources: Sequence[Source], count: int) -> list[list[Source]]:
    """``sources`` in order, cut into ``count`` runs of about equal size."""
    total = sum(len(source.text) for source in sources)
    batches: list[list[Source]] = [[]]
    done = 0
    for source in sources:
        if batches[-1] and done >= total * len(batches) / count:
            batches.append([])
        batches[-1].append(source)
        done += len(source.text)
    return batches


def _fork(context: Any, target: Callable[..., None], *args: Any, duplex: bool = False) -> tuple[Any, Connection] | None:
    """Start ``target(*args, conn)`` in a forked process; (the process, this end of the pipe to it), or None
    when no process can be started (no more processes or memory: this process then does that work)."""
    mine, theirs = context.Pipe(duplex=duplex)
    proc = context.Process(target=target, args=(*args, theirs), daemon=True)
    try:
        proc.start()
    except OSError as exc:
        _log.warning("could not start a worker (%s); doing its work here instead", exc)
        mine.close()
        theirs.close()
        return None
    theirs.close()
    return proc, mine


def _work(checker: Checker, ws: Workspace, paths: list[str], send: Connection) -> None:
    """In the worker: the findings of ``paths`` and any rule failures, sent back through ``send``.

    Rules that raise are isolated by the checker; anything else ends the worker quietly (no traceback on
    the user's terminal) and the parent, finding nothing sent, checks these documents itself.
    """
    try:
        found = checker.local_findings(ws, paths)
        send.send_bytes(dumps_compact((found, checker.failures)))
        send.close()
    except BaseException:  # noqa: BLE001 - the parent reports the failure and redoes the work
        os._exit(70)


def _score(conn: Connection) -> None:
    """In the scorer: load the scoring libraries at once, then answer one request, if one comes."""
    try:
        import numpy  # noqa: F401  (what narrow_pools needs, loaded while the parent parses)
        from rapidfuzz import process  # noqa: F401

        from ..families.trace import narrow_pools

        request = conn.recv()
        if request is not None:
            targets, ids = request
            conn.send(narrow_pools(targets, ids))
        conn.close()
    except BaseException:  # noqa: BLE001 - the rule then narrows the candidates itself
        os._exit(70)


def _use_scorer(scorer: tuple[Any, Connection], ws: Workspace, checker: Checker) -> None:
    """Have the scorer narrow the candidates of the dangling links while the trace graph is built here."""
    from ..families.trace import BATCH_TARGETS, prime_suggestions, to_suggest

    proc, conn = scorer
    ids = ws.all_ids()
    targets = to_suggest(ws.linked_ids().difference(ids), ids, checker.config.external)
    try:
        if len(targets) < BATCH_TARGETS:  # the rule searches so few targets one by one
            conn.send(None)
            return
        conn.send((targets, ids))
        trace_graph(ws)
        pools = conn.recv()
    except (EOFError, OSError):
        _log.warning("the scorer failed (exit status %s); the dangling links are scored here", proc.exitcode)
        return
    finally:
        conn.close()
        proc.join()
    prime_suggestions(ws, ids, pools)


def _receive(receive: Connection) -> tuple[dict[str, list[Finding]], dict[str, str]] | None:
    import pickle

    try:
        return pickle.loads(receive.recv_bytes())
    except (EOFError, OSError, pickle.UnpicklingError):
        return None
    finally:
        receive.close()
