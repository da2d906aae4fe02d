"""Baselined findings in the editor: shown as hints, not errors, so that a legacy document is readable.

The baseline file is the configuration's ``baseline`` (report/baseline.py reads and matches it, the same
code ``safereq check --baseline`` uses). It is read again when its modification time or size changes. A
document's findings are matched again only when they changed: the checker hands back the same Finding
objects for an unchanged document, so a keystroke in one document costs nothing in the others.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from operator import is_
from pathlib import Path
from typing import TYPE_CHECKING

from ..checks.findings import Finding, Severity

if TYPE_CHECKING:
    from ..report.baseline import Baseline
    from .session import Session

log = logging.getLogger(__name__)
NOTE = " (in the baseline)"


class BaselineView:
    def __init__(self) -> None:
        self._file: tuple[Path, int, int] | None = None
        self._baseline: Baseline | None = None
        self._done: dict[str, tuple[list[Finding], list[Finding]]] = {}  # key -> (findings, as shown)
        self.error: str | None = None

    def _load(self, path: Path | None) -> Baseline | None:
        from ..report.baseline import Baseline, BaselineError

        if path is None:
            self._file, self._baseline, self.error = None, None, None
            return None
        try:
            st = path.stat()
        except OSError:
            self._file, self._baseline, self.error = None, None, None  # no baseline (yet): nothing is baselined
            return None
        stamp = (path, st.st_mtime_ns, st.st_size)
        if stamp != self._file:
            self._file, self._done = stamp, {}
            try:
                self._baseline, self.error = Baseline.load(path), None
            except (BaselineError, FileNotFoundError) as exc:
                log.warning("baseline: %s", exc)
                self._baseline, self.error = None, str(exc)
        return self._baseline

    def apply(self, session: Session, by_key: dict[str, list[Finding]]) -> dict[str, list[Finding]]:
        """``by_key`` with each baselined finding turned into a hint that says so."""
        config = session.config
        path = (config.root or session.root) / config.baseline if config.baseline else None
        baseline = self._load(path)
        if baseline is None:
            self._done = {}
            return by_key
        out: dict[str, list[Finding]] = {}
        for key, found in by_key.items():
            done = self._done.get(key)
            if done is None or len(done[0]) != len(found) or not all(map(is_, done[0], found)):
                _new, known = baseline.split(found, session.workspace, Path.cwd())
                ids = {id(f) for f in known}
                shown = [replace(f, severity=Severity.HINT, message=f.message + NOTE) if id(f) in ids else f
                         for f in found] if ids else found
                done = self._done[key] = (found, shown)
            out[key] = done[1]
        for gone in set(self._done) - set(by_key):
            del self._done[gone]
        return out
