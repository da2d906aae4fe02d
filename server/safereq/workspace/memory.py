"""The memory a check may use, and refusing or stopping a check that would use more (issue 12).

Checking holds every document's text, its parse, the trace graph and the findings at once, so the peak grows
with the input, and how fast depends on its shape: ``benchmarks/shapes/memory.py`` measures from about 3 bytes
of memory per byte of document (a wide table) through 15-20 (prose, one long paragraph) and 40-70 (ordinary
requirements, HARA tables) to over 100 (a document where every sentence or item has findings). The findings
cannot be known before checking, so no estimate made up front is an upper bound.

So the limit is enforced twice:

- **Up front**, a document that would exceed the limit even at the lowest cost of ordinary text
  (:data:`LEAST_PER_BYTE`) is refused before it is read, with ``io/too-large`` saying why.
- **While checking**, :class:`Guard` watches the process's resident memory (and its worker processes'); past
  the limit the check stops with :class:`MemoryLimitExceeded`, a clear message, instead of swapping the machine
  or being killed by the kernel minutes later.

The limit (:func:`limit_for`): what ``--max-memory`` says, or else ten times the input, but at least
:data:`FLOOR` so that every document under the default size limit stays checkable, and never more than the
memory available. It counts memory above what the process held before reading anything (the interpreter and
safereq, about 40 MB).
"""

from __future__ import annotations

import _thread
import gc
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

# Bytes of peak memory per byte of document at the least a document of ordinary text costs (prose sections
# and one long paragraph measure 15-20; only tables of many empty cells cost less).
LEAST_PER_BYTE = 15
# The default limit is this multiple of the input...
INPUT_MULTIPLE = 10
# ... but at least this much, so that a 10 MB document of ordinary requirements (about 450 MB) is checked.
FLOOR = 512 * 1024 * 1024
# How often the guard reads the resident memory (seconds); the limit can be passed by what is allocated in
# this time (a few MB).
POLL_SECONDS = 0.02


_last_read: tuple[float, int | None] | None = None  # (monotonic time, what available_bytes found then)


def available_bytes() -> int | None:
    """Memory available to this process: the smaller of the kernel's MemAvailable and the cgroup limit.

    None where neither can be read (not Linux). Read at most once per :data:`POLL_SECONDS`: the loader
    asks before reading each document, and three files opened per document were a tenth of a warm re-run
    of 201 files.
    """
    global _last_read
    now = time.monotonic()
    if _last_read is not None and now - _last_read[0] < POLL_SECONDS:
        return _last_read[1]
    free = _read_available()
    _last_read = (now, free)
    return free


def _read_available() -> int | None:
    found = []
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as f:
            limit = f.read().strip()
        if limit.isdigit():
            with open("/sys/fs/cgroup/memory.current", encoding="ascii") as f:
                found.append(int(limit) - int(f.read().strip()))
    except (OSError, ValueError):
        pass
    return min(found) if found else None


@dataclass(frozen=True, slots=True)
class Limit:
    """How much memory a check may use above the process's start, and how that figure was reached."""

    bytes: int
    why: str  # e.g. "10 times the 60 MB of documents" or "--max-memory"

    def describe(self) -> str:
        return f"{human(self.bytes)} ({self.why})"


def limit_for(input_bytes: int, max_memory: int | None = None) -> Limit:
    """The limit for checking ``input_bytes`` of documents: ``max_memory`` when given, else ten times the input
    but at least :data:`FLOOR`; in both cases no more than the memory available now."""
    if max_memory is not None:
        limit = Limit(max_memory, "set with --max-memory")
    elif input_bytes * INPUT_MULTIPLE > FLOOR:
        limit = Limit(input_bytes * INPUT_MULTIPLE, f"the default: {INPUT_MULTIPLE} times the {human(input_bytes)} of "
                                                    "documents; raise it with --max-memory")
    else:
        limit = Limit(FLOOR, f"the default for {human(input_bytes)} of documents: {INPUT_MULTIPLE} times their size, "
                             f"at least {human(FLOOR)}; raise it with --max-memory")
    free = available_bytes()
    if free is not None and free < limit.bytes:
        limit = Limit(free, "the memory available now; free some, or split the documents")
    return limit


def too_big_to_check(size: int, max_memory: int | None = None) -> str | None:
    """Why a document of ``size`` bytes is refused before it is read, or None when it may fit the limit."""
    limit = limit_for(size, max_memory)
    least = size * LEAST_PER_BYTE
    if least <= limit.bytes:
        return None
    return (f"checking it would need at least {human(least)} of memory, more than the limit of "
            f"{limit.describe()}; not checked (split the document)")


class MemoryLimitExceeded(Exception):
    """Checking used more memory than its limit and was stopped; nothing it found is reported."""

    def __init__(self, used: int, limit: Limit) -> None:
        super().__init__(f"checking stopped after using {human(used)} of memory, more than the limit of "
                         f"{limit.describe()}; nothing was reported (split the largest documents)")
        self.used, self.limit = used, limit


class Guard:
    """Stops the main thread's work once the process and its children hold more than ``limit`` above what the
    process held when the guard started.

    A daemon thread reads ``/proc`` every :data:`POLL_SECONDS` and interrupts the main thread
    (``_thread.interrupt_main``); leaving the guard turns that interruption into :class:`MemoryLimitExceeded`.
    A worker process forked while the guard runs adds the memory only it holds (a forked worker shares its
    parent's pages until it writes to them, so its own resident size would count the parent twice); children
    the process already had are not counted. Where ``/proc`` cannot be read (not Linux), the guard does nothing.
    """

    def __init__(self, limit: Limit, start: int | None = None) -> None:
        self.limit = limit
        self.start = resident_now() if start is None else start
        self._others = set(_children(os.getpid()))  # children that are not the check's (e.g. in a test runner)
        self.tripped_at: int | None = None
        self.tripped = threading.Event()  # set once the main thread was interrupted (tests wait on it)
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Guard:
        if self.start:
            self._thread = threading.Thread(target=self._watch, name="safereq-memory-guard", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind, value, traceback) -> bool:
        try:
            with self._lock:
                self._stop.set()
            if self._thread is not None:
                self._thread.join()
            _deliver_pending_interrupt()
        except KeyboardInterrupt:
            if self.tripped_at is None:
                raise
        if self.tripped_at is not None and (kind is None or issubclass(kind, KeyboardInterrupt)):
            raise MemoryLimitExceeded(self.tripped_at, self.limit) from None
        return False

    def used(self) -> int:
        """Bytes held now above the start, by this process and its children."""
        pid = os.getpid()
        total = (_resident(pid) or 0) + sum(_private(child) for child in _children(pid)
                                            if child not in self._others)
        return max(0, total - self.start)

    def _watch(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            used = self.used()
            if used > self.limit.bytes:
                with self._lock:  # never after __exit__ began: the interruption must land inside the guard
                    if not self._stop.is_set():
                        self.tripped_at = used
                        _thread.interrupt_main()
                        self.tripped.set()
                return


def _deliver_pending_interrupt() -> None:
    """A Python-level call: the interpreter runs pending signal handlers on entering it, so an interruption
    the watcher sent just before it stopped is raised here, inside the guard, not later in the caller."""


def resident_now() -> int:
    """This process's resident memory in bytes (0 where ``/proc`` cannot be read)."""
    return _resident(os.getpid()) or 0


def _resident(pid: int) -> int | None:
    """Resident memory of process ``pid`` in bytes, from ``/proc/<pid>/statm``; None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def _private(pid: int) -> int:
    """Memory held by process ``pid`` alone (not shared with its parent), from ``/proc/<pid>/smaps_rollup``."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            return sum(int(line.split()[1]) * 1024 for line in f if line.startswith(("Private_Clean:", "Private_Dirty:")))
    except (OSError, ValueError, IndexError):
        return 0


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (its check workers)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
            return [int(p) for p in f.read().split()]
    except (OSError, ValueError):
        return []


def human(size: int) -> str:
    """A size for messages: ``512 MB``, ``1.5 GB``."""
    for unit, factor in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if size >= factor:
            return f"{size / factor:.1f} {unit}".replace(".0 ", " ")
    return f"{size} bytes"


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while the workspace is built and checked.

    Parsing creates hundreds of thousands of long-lived objects and almost no reference cycles, so the
    collector's full passes walk an ever larger heap and free nothing: with 20,000 requirements they cost
    about a quarter of a cold check (benchmarks/run.py). Reference counting still frees everything else.
    The survivors are frozen before the collector resumes, or its first full pass would walk them all once
    more (half a second on that workspace).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
