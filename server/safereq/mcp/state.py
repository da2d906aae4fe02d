"""The workspace the server serves: loaded once, kept current from the disk before every answer.

Each tool call first calls :meth:`Served.fresh`: the configuration and review file are re-read when their
stamps changed (a new configuration means a new checker, as in the language server), then the
:class:`~safereq.workspace.disk.DiskMirror` hands changed documents to ``Workspace.update`` and the checker's
caches re-check only what changed. Tools run on worker threads, so one lock serialises them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..checks import io_findings, io_rule_infos
from ..checks.config import Config, ConfigError, load_config, load_config_file
from ..checks.engine import Checker
from ..checks.findings import Finding
from ..impact import review_state
from ..model.vocabulary import load_vocabulary
from ..workspace import Workspace
from ..workspace.disk import DiskMirror
from ..workspace.loader import Excluder
from .confine import Confinement
from .errors import Refused

if TYPE_CHECKING:
    from ..model.document import Item

T = TypeVar("T")


@dataclass(frozen=True)
class Options:
    """How the server was started (``safereq mcp`` options)."""

    folders: tuple[Path, ...]
    config_file: Path | None = None
    index_dir: str | None = None
    offline: bool = False
    llm_base_url: str | None = None
    llm_model: str | None = None


def _stamp(path: Path | None) -> tuple[int, int] | None:
    try:
        st = os.stat(path) if path is not None else None
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size) if st is not None else None


class Served:
    """The configuration, workspace, checker and review state of the folders the server was started in."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.folders = [Path(os.path.abspath(f)) for f in options.folders]
        self.root = self.folders[0]
        self.confinement = Confinement(self.folders, self.root)
        self.lock = threading.RLock()
        self.config = Config()
        self.config_error: str | None = None
        self.review: review_state.ReviewState | None = None
        self.review_error: str | None = None
        self._stamps: tuple = ()
        self._knowledge = None
        self._memo: dict[str, tuple[tuple, object]] = {}
        self.records: dict = {}  # exchange.records.collect's documents kept between calls (coverage)
        self._loaded = False
        self._configured = 0  # counts (re)configurations: with the mirror's generation, what memo() keys on
        self.workspace = Workspace()
        self.checker = Checker(self.config)
        self.mirror = DiskMirror(self.workspace, self.folders, cwd=self.root)

    # -- keeping current --------------------------------------------------------------------------------
    def fresh(self) -> Served:
        """Bring everything up to date with the disk (see the module docstring); returns self."""
        with self.lock:
            stamps = (self._config_path(), _stamp(self._config_path()), _stamp(self.review_path))
            if stamps != self._stamps:
                self._configure()
                self._stamps = (self._config_path(), _stamp(self._config_path()), _stamp(self.review_path))
            if self._loaded:
                self.mirror.refresh()
            else:
                self._first_load()
                self._loaded = True
        return self

    def _first_load(self) -> None:
        """Read, parse and check everything, in worker processes on a large workspace as ``safereq check``
        does, with the collector paused (parsing makes no cycles); later refreshes are incremental. Only
        before the server serves: it forks, which a process with worker threads must not."""
        from ..checks import default_jobs, parse_and_check
        from ..workspace.memory import gc_paused

        with gc_paused():
            self.mirror.refresh(lambda sources: parse_and_check(sources, self.workspace, self.checker, default_jobs()))
            self.findings()

    def memo(self, name: str, compute: Callable[[], T]) -> T:
        """``compute()``, kept until the workspace, configuration or review file change (coverage and suspect
        links read the whole workspace: a second call on an unchanged one costs nothing)."""
        key = (self._configured, self.mirror.generation)
        kept = self._memo.get(name)
        if kept is None or kept[0] != key:
            kept = self._memo[name] = (key, compute())
        return kept[1]

    def _config_path(self) -> Path | None:
        if self.options.config_file is not None:
            return self.options.config_file
        return self.config.source

    @property
    def review_path(self) -> Path:
        """``safereq-review.jsonl`` beside the configuration file, else in the first folder."""
        root = self.config.source.parent if self.config.source else self.root
        return root / review_state.FILE_NAME

    def _configure(self) -> None:
        """(Re)read the configuration and review file; a broken one leaves the defaults and is reported."""
        self._configured += 1
        try:
            config = (load_config_file(self.options.config_file) if self.options.config_file
                      else load_config(self.root))
            self.config_error = None
        except ConfigError as exc:
            config, self.config_error = Config(), str(exc)
        if config != self.config or not self._loaded:
            base = config.source.parent if config.source else self.root
            excluder = Excluder(config.exclude, base)
            if config.kinds != self.config.kinds or not self._loaded:  # kinds change how every document parses
                self.workspace = Workspace(load_vocabulary(config.kinds) if config.kinds else None)
                self.mirror = DiskMirror(self.workspace, self.folders, cwd=self.root, excluder=excluder,
                                         accept=self.confinement.inside)
            else:  # the next refresh drops what is now excluded and reads what no longer is
                self.mirror.excluder = excluder
            self.config = config
            self.checker = Checker(config)
        try:
            self.review, self.review_error = review_state.load(self.review_path.parent), None
        except review_state.ReviewStateError as exc:
            self.review, self.review_error = None, str(exc)
        if config.rules.get("trace/suspect-link") == "off":
            self.checker.set_review(None)
        else:
            self.checker.set_review(self.review)

    # -- what tools read --------------------------------------------------------------------------------
    def findings(self, paths: list[str] | None = None) -> list[Finding]:
        """Every finding (or those of ``paths``), the load problems' among them, sorted as ``check`` sorts."""
        found = self.checker.check(self.workspace, paths)
        severities = {rid: self.config.severity(rid, info.severity, True) for rid, info in io_rule_infos().items()}
        problems = [p for p in self.mirror.problems.values() if paths is None or p.path in paths]
        if problems:
            found = sorted(found + io_findings(problems, severities), key=Finding.sort_key)
        return found

    def item(self, item_id: str) -> Item:
        """The item ``item_id`` names (its first definition); :class:`Refused` when there is none."""
        text = (item_id or "").strip()
        if not text or len(text) > 200:
            raise Refused("give an item ID such as FSR-1")
        found = self.workspace.item(text) or self.workspace.item(text.upper())
        if found is None:
            raise Refused(f"no item {text} in this workspace (find_items lists the IDs)")
        return found

    def document(self, raw: str) -> str:
        """The workspace's name of the document ``raw`` names; :class:`Refused` outside it or unknown."""
        key = self.confinement.confine(raw)
        if key not in self.workspace.documents:
            problem = self.mirror.problems.get(key)
            if problem is not None:
                raise Refused(f"{key} could not be read: {problem.message}")
            raise Refused(f"{key} is not a requirement document of this workspace")
        return key

    def knowledge(self):
        """The assistant's knowledge source, opened once (the index, else the clause catalogue)."""
        if self._knowledge is None:
            from ..agent.tasks.runner import open_knowledge

            self._knowledge = open_knowledge(self.options.index_dir, self.config, self.root)
        return self._knowledge
