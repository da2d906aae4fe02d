"""Test results in the editor: the configuration's ``test-results`` (JUnit XML, report/test_evidence.py), read
when the configuration is and again when one of the files changes on disk, matched to the workspace's
verification items as it is now. They give the ``evidence/*`` findings and the results hovers show beside
each ``Verified by`` link. Without ``test-results`` nothing is read and nothing is added.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..checks.findings import Finding

if TYPE_CHECKING:
    from ..exchange.junit import TestCase
    from ..report.test_evidence import Evidence
    from .session import Session

log = logging.getLogger(__name__)


class TestResultsView:
    def __init__(self) -> None:
        self._key: tuple | None = None  # (patterns, root) the files were found for
        self._stamps: tuple = ()
        self._cases: list[TestCase] = []
        self._matched: tuple[int, Evidence] | None = None  # (workspace generation, evidence)
        self.problems: list[str] = []

    def _files(self, session: Session) -> tuple[tuple[str, ...], Path] | None:
        config = session.config
        if not config.test_results:
            return None
        return tuple(config.test_results), config.root or session.root

    def evidence(self, session: Session) -> Evidence | None:
        """The results matched to the workspace now, or None when none are configured."""
        from ..exchange.junit import expand, read_all
        from ..report.test_evidence import match, verification_ids

        wanted = self._files(session)
        if wanted is None:
            self._key, self._cases, self._matched = None, [], None
            return None
        if wanted != self._key:
            self._key, self._stamps = wanted, ()
        files = expand(*wanted)
        stamps = tuple((str(f), *_stat(f)) for f in files)
        if stamps != self._stamps:
            self._cases, self.problems, _files = read_all(*wanted)
            for problem in self.problems:
                log.warning("test results: %s", problem)
            self._stamps, self._matched = stamps, None
        generation = session.workspace.generation
        if self._matched is None or self._matched[0] != generation:
            evidence = match(self._cases, verification_ids(session.workspace), session.config.test_id_pattern)
            evidence.files, evidence.problems = files, self.problems
            self._matched = (generation, evidence)
        return self._matched[1]

    def findings(self, session: Session) -> dict[str, list[Finding]]:
        """The evidence findings by document key."""
        from ..report.test_evidence import findings

        evidence = self.evidence(session)
        if evidence is None:
            return {}
        out: dict[str, list[Finding]] = {}
        for f in findings(session.workspace, evidence, session.checker.severities):
            out.setdefault(f.path, []).append(f)
        return out


def _stat(path: Path) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (0, 0)
    return st.st_mtime_ns, st.st_size
