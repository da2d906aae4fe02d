"""Check a large workspace on several cores: the per-document checks are shared out to forked workers.

Item- and document-scope rules read one document each, so the documents of a cold ``safereq check`` can be
checked independently; only the workspace-scope rules (trace graph, ASIL inheritance) need everything.
The workers are forked *after* the workspace is parsed, so they see the parsed documents without any
copying, and send back only their findings, which are few and cheap to pickle. (Parsing in the workers
instead was measured: pickling parsed documents back costs as much as parsing them.) The parent checks its
own share, then the workspace-scope rules, while the workers run.

A worker that fails in any way (killed, out of memory, an exception) costs time, never findings: its
documents are checked in the parent. Forking is used only where the platform's ``fork`` is dependable
(Linux) and the workspace is large enough to repay it; elsewhere the check runs in one process, with the
same result.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence
from multiprocessing.connection import Connection

from ..workspace import Workspace
from .engine import Checker
from .findings import Finding

_log = logging.getLogger(__name__)

MIN_ITEMS = 4000  # below this, starting a worker costs more than it saves


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    return sys.platform.startswith("linux")


def check_workspace(checker: Checker, ws: Workspace, jobs: int, *, min_items: int | None = None) -> list[Finding]:
    """``checker.check(ws)``, with the per-document checks spread over up to ``jobs`` processes
    when the workspace has at least ``min_items`` items (default ``MIN_ITEMS``)."""
    paths = sorted(ws.documents)
    items = sum(len(ws.documents[p].items) for p in paths)
    if jobs <= 1 or len(paths) < 2 or items < (MIN_ITEMS if min_items is None else min_items) or not can_fork():
        return checker.check(ws)
    shares = _shares(ws, paths, min(jobs, len(paths)))
    import multiprocessing

    context = multiprocessing.get_context("fork")
    workers = []
    for share in shares[1:]:
        receive, send = context.Pipe(duplex=False)
        proc = context.Process(target=_work, args=(checker, ws, share, send), daemon=True)
        try:
            proc.start()
        except OSError as exc:  # no more processes or memory: the parent checks this share itself
            _log.warning("could not start a check worker (%s); checking in one process", exc)
            receive.close()
            send.close()
            continue
        send.close()
        workers.append((proc, receive))
    checker.local_findings(ws, shares[0])
    checker.check(ws, paths=())  # the workspace-scope rules, while the workers run
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
    return checker.check(ws)


def _shares(ws: Workspace, paths: Sequence[str], jobs: int) -> list[list[str]]:
    """``paths`` in ``jobs`` groups of about equal work (items), largest documents placed first."""
    shares: list[list[str]] = [[] for _ in range(jobs)]
    loads = [0] * jobs
    for path in sorted(paths, key=lambda p: -len(ws.documents[p].items)):
        k = loads.index(min(loads))
        shares[k].append(path)
        loads[k] += len(ws.documents[path].items) + 1
    return [share for share in shares if share]


def _work(checker: Checker, ws: Workspace, paths: list[str], send: Connection) -> None:
    """In the worker: the share's findings and any rule failures, sent back through ``send``."""
    found = checker.local_findings(ws, paths)
    send.send((found, checker.failures))
    send.close()


def _receive(receive: Connection) -> tuple[dict[str, list[Finding]], dict[str, str]] | None:
    try:
        return receive.recv()
    except (EOFError, OSError):
        return None
    finally:
        receive.close()
