"""The knowledge base, as clause hovers need it: opened in a background thread the first time a hover asks,
never at start-up (LanceDB and pyarrow take seconds to import), and read with a time limit.

Until the index is open, or when none was built, hovers fall back to the shipped clause catalogue; the first
clause hover after start-up therefore shows the catalogue and starts opening the index, and later hovers show
the indexed clause text. Only reading is done here (no embedding model is loaded: resolving a clause needs
none); indexing is :mod:`.indexing`, which calls :meth:`KnowledgeReader.reload` after each run so that hovers
read the new index (a first index, or a table rebuilt for another embedder, needs a fresh handle).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..knowledge.types import ClauseText
    from ..model.clauses import ClauseRef

log = logging.getLogger(__name__)

READ_TIMEOUT = 0.5


class KnowledgeReader:
    """One index, opened lazily; states: closed → opening → open | failed (a new path or a reload starts over)."""

    def __init__(self, on_open: Callable[[], None] | None = None) -> None:
        """``on_open`` is called on the event loop once an index has been opened (to update the status)."""
        self._on_open = on_open
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        self._path: Path | None = None
        self._generation = 0  # bumped on every reset: an open that started before it is discarded
        self._state = "closed"
        self._kb = None
        self.error: str | None = None
        self.damaged: str | None = None  # why the index cannot be used, when it is damaged (for the status)

    @property
    def state(self) -> str:
        return self._state

    def _open(self, path: Path, generation: int) -> None:
        os.environ.setdefault("LANCE_LOG", "error")  # Lance logs warnings on stderr otherwise
        try:
            from ..knowledge import open_knowledge_base
            from ..knowledge.integrity import IndexDamaged
        except ImportError as exc:  # an optional dependency is missing
            log.warning("knowledge base at %s not opened: %s", path, exc)
            self._settle(generation, None, exc, damaged=False)
            return
        try:
            kb = open_knowledge_base(path, embedder=None)
        except Exception as exc:  # no index, a damaged one
            log.warning("knowledge base at %s not opened: %s", path, exc)
            self._settle(generation, None, exc, damaged=isinstance(exc, IndexDamaged))
            return
        self._settle(generation, kb, None, damaged=False)
        log.info("knowledge base opened: %s", path)

    def _settle(self, generation: int, kb, exc: Exception | None, damaged: bool) -> None:
        """Record how opening ended (unless a reset came meanwhile) and let the status follow."""
        with self._lock:
            if self._generation != generation:
                return
            if kb is not None:
                self._kb, self._state = kb, "open"
            else:
                self._state, self.error, self.damaged = "failed", str(exc), str(exc) if damaged else None
        if (kb is not None or damaged) and self._on_open is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(self._on_open)

    def _reset(self, path: Path) -> None:
        """Forget the current handle (caller holds the lock)."""
        self._path, self._state, self._kb, self.error, self.damaged = path, "closed", None, None, None
        self._generation += 1

    def _ensure(self, path: Path) -> str:
        with self._lock:
            if self._path != path:
                self._reset(path)
            if self._state == "closed" and path.is_dir():
                self._state = "opening"
                self._loop = asyncio.get_running_loop()
                threading.Thread(target=self._open, args=(path, self._generation), name="safereq-knowledge",
                                 daemon=True).start()
            return self._state

    def reload(self, path: Path) -> None:
        """The index at ``path`` was (re)built: drop the old handle and open the new one now (in the background),
        so the next clause hover reads it and the status says if it is damaged."""
        with self._lock:
            self._reset(path)
        self._ensure(path)  # LanceDB is loaded by the run already; opening now also tells the status of damage

    async def clause(self, path: Path, ref: ClauseRef) -> ClauseText | None:
        """The indexed text of the clause ``ref`` names, or None (index not open yet, absent, or too slow)."""
        if self._ensure(path) != "open" or not ref.clause:
            return None
        kb = self._kb
        try:
            loop = asyncio.get_running_loop()
            return await asyncio.wait_for(loop.run_in_executor(None, kb.resolve, ref), READ_TIMEOUT)
        except Exception as exc:
            log.warning("reading %s from the knowledge base failed: %s", ref, exc)
            return None
