"""The language server's state: open buffers, the core workspace, the configuration and the latest findings.

One object so that every feature sees the same picture. Open buffers override the disk; text typed in a
buffer reaches the core lazily (:meth:`Session.sync`), so a burst of keystrokes parses once, and every request
syncs first, so no answer is ever computed from stale text. Everything here runs on the server's event loop
thread; file reading is the only thing done elsewhere (see loading.py).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..checks.config import Config, ConfigError
from ..config import CorporaSettings, EditorSettings, IndexSettings, LLMConfig, closest
from ..config.model import problems
from ..checks.engine import Checker
from ..checks.findings import Finding, Severity
from ..checks import io_findings, io_rule_infos
from ..checks.registry import rule_infos
from ..model.document import Document
from ..model.vocabulary import load_vocabulary
from ..workspace import Workspace
from ..workspace.memory import too_big_to_check
from ..workspace.loader import DEFAULT_MAX_BYTES, LoadProblem, SourceFile, is_markdown, read_source
from .baseline_view import BaselineView
from .test_results import TestResultsView
from .documents import OpenDocument
from .folders import FolderConfig, FolderExcluders, folder_of, kind_conflicts, primary_kinds
from .positions import Codec, normalise, split_lines
from .uris import is_path, key_of, uri_of

if TYPE_CHECKING:
    from ..impact.review_state import ReviewState

log = logging.getLogger(__name__)

# Documents whose split lines are kept for position conversion (open buffers keep their own).
_LINE_CACHE_SIZE = 64
# Folder names never walked into by the loader; files below them are ignored when the client reports them.
_SKIPPED_PARTS = ("node_modules", "__pycache__", "site-packages", "venv")


OUT_OF_SYNC = ("the editor sent a change that could not be applied, so safereq no longer knows this document's "
               "text; it is not checked and no fixes are offered until it is closed and opened again")


class UnknownDocument(LookupError):
    """A request names a document the server does not know (not open, not in the workspace)."""


@dataclass
class Settings:
    """The client's ``safereq`` settings section (validated by config.model.EditorSettings), split into what
    the core and the agent need."""

    rules: dict[str, str] = field(default_factory=dict)
    io_rules: dict[str, str] = field(default_factory=dict)
    llm: LLMConfig = LLMConfig()
    index: IndexSettings = IndexSettings()
    corpora: CorporaSettings = CorporaSettings()


class Session:
    """Open documents, the workspace built from the workspace folders, and how to check it."""

    def __init__(self, encoding: str, folders: list[Path]) -> None:
        self.codec = Codec(encoding)
        self.folders = folders
        self.open: dict[str, OpenDocument] = {}
        self.ignored: set[str] = set()  # open buffers that are not Markdown: tracked, never checked
        self.file_config = Config()
        self.config_error: ConfigError | None = None  # the first folder's
        self.config_errors: list[ConfigError] = []  # every folder's, and [kinds] that are not used
        self.folder_configs: list[FolderConfig] = []
        self._folder_checkers: list[tuple[Config, Checker]] = []  # effective config and checker, by folder
        self._kinds = None
        self.settings = Settings()
        self.setting_problems: list[str] = []
        self.config = Config()
        self.workspace = Workspace(load_vocabulary())
        self.checker = Checker(self.config)
        self.problems: dict[str, LoadProblem] = {}
        self.loaded = False
        self.max_bytes = DEFAULT_MAX_BYTES
        self._dirty: set[str] = set()
        self._lines: dict[str, tuple[Document, list[str]]] = {}
        self._checked: tuple[int, Checker, int, dict[str, list[Finding]]] | None = None
        self._problem_generation = 0
        # The review file's state (trace/suspect-link), read with the configuration; its error, if any.
        self.review: ReviewState | None = None
        self.review_error: str | None = None
        self.baseline = BaselineView()  # the configuration's baseline: its findings are shown as hints
        self.test_results = TestResultsView()  # the configuration's JUnit results: evidence findings, hovers

    # -- configuration -------------------------------------------------------------------------------------
    @property
    def root(self) -> Path:
        """Where the configuration is looked for: the first workspace folder (else the working directory)."""
        return self.folders[0] if self.folders else Path.cwd()

    def load_configuration(self) -> None:
        """(Re)read every folder's configuration file (see folders.py); a broken one leaves that folder on the
        defaults and is remembered to be reported on its file. The first folder's is ``file_config``."""
        old_kinds = self._kinds
        self.folder_configs = [FolderConfig.load(folder) for folder in (self.folders or [self.root])]
        primary = self.folder_configs[0]
        self.file_config, self.config_error = primary.file_config, primary.error
        self.config_errors = [c.error for c in self.folder_configs if c.error is not None]
        self.config_errors += kind_conflicts(self.folder_configs)
        self._kinds = primary_kinds(self.folder_configs)
        if self._kinds != old_kinds:
            self._rebuild_workspace()
        self._apply()
        self.reload_review()

    @property
    def review_root(self) -> Path:
        """Where ``safereq-review.jsonl`` lives: beside the configuration file, else the workspace root."""
        return self.file_config.source.parent if self.file_config.source else self.root

    def reload_review(self) -> None:
        """(Re)read the review file; a broken one is remembered and reported, and compares like none."""
        from ..impact.review_state import ReviewStateError, load

        try:
            self.review, self.review_error = load(self.review_root), None
        except ReviewStateError as exc:
            log.warning("review file: %s", exc)
            self.review, self.review_error = None, str(exc)
        for _config, checker in self._folder_checkers:
            checker.set_review(self.review)
        self._checked = None

    def apply_settings(self, raw: Any) -> None:
        """Take the client's settings; entries that are not valid are left out and listed in ``setting_problems``."""
        self.settings = Settings()
        self.setting_problems = []
        if not isinstance(raw, dict):
            raw = {}
        raw = _nest(raw)
        rules = raw.get("rules") or {}
        if not isinstance(rules, dict):
            self.setting_problems.append("safereq.rules must be an object of rule id → severity")
            rules = {}
        for rule_id, value in rules.items():
            if rule_id in io_rule_infos() or rule_id == "io":
                self._take_io_setting(rule_id, value)
                continue
            try:
                Config().merged({"rules": {rule_id: value}})
            except ConfigError as exc:
                self.setting_problems.append(f"safereq.rules: {exc.message}")
                continue
            self.settings.rules[rule_id] = value
        for key in raw:
            if key not in EditorSettings.model_fields:
                self.setting_problems.append(f"unknown setting 'safereq.{key}'{closest(key, EditorSettings.model_fields)}")
        for name in ("llm", "index", "corpora"):
            if name not in raw:
                continue
            try:  # one section at a time, so that a mistake in one leaves the others in force
                section = EditorSettings.model_validate({name: raw[name]})
            except ValidationError as exc:
                self.setting_problems.extend(f"safereq.{name}: {p.message}" for p in problems(exc, EditorSettings))
                continue
            setattr(self.settings, name, getattr(section, name))
        self._apply()

    def _take_io_setting(self, rule_id: str, value: Any) -> None:
        """The io/* rules are not in the check registry (see checks/families/io.py), so they are validated here."""
        text = str(value).strip().lower()
        if text not in ("off", "on"):
            try:
                Severity.parse(text)
            except ValueError as exc:
                self.setting_problems.append(f"safereq.rules: rule '{rule_id}': {exc}")
                return
        for rid in io_rule_infos():
            if rid == rule_id or rule_id == "io":
                self.settings.io_rules[rid] = text

    def _apply(self) -> None:
        """The effective configuration (file, then client settings on top) and a checker for it.

        An unchanged configuration keeps the checker and its caches: editors re-send settings often (VS Code
        on every settings edit anywhere), and a new checker means checking every document again.
        """
        checkers: list[tuple[Config, Checker]] = []
        for i, folder in enumerate(self.folder_configs or [None]):
            file_config = folder.file_config if folder is not None else self.file_config
            try:
                config = file_config.merged({"rules": self.settings.rules})
            except ConfigError as exc:  # validated entry by entry already; defensive
                self.setting_problems.append(str(exc))
                config = file_config
            kept = self._folder_checkers[i] if i < len(self._folder_checkers) else None
            if kept is None or kept[0] != config:
                kept = (config, Checker(config))
                kept[1].set_review(self.review)
            checkers.append(kept)
        self._folder_checkers = checkers
        self.config, self.checker = checkers[0]
        self._checked = None

    def _rebuild_workspace(self) -> None:
        """A new vocabulary (configured kinds) changes how every document parses: parse them all again."""
        texts = {path: doc.text for path, doc in self.workspace.documents.items()}
        self.workspace = Workspace(load_vocabulary(self._kinds or None))
        for path, text in texts.items():
            self.workspace.update(path, text)
        self._lines.clear()
        self._checked = None

    def io_severity(self, rule_id: str) -> Severity | None:
        info = io_rule_infos()[rule_id]
        setting = self.settings.io_rules.get(rule_id)
        if setting is not None:
            return None if setting == "off" else info.severity if setting == "on" else Severity.parse(setting)
        return self.config.severity(rule_id, info.severity, True)

    # -- documents -----------------------------------------------------------------------------------------
    def open_document(self, uri: str, text: str, version: int | None, language_id: str = "") -> str:
        """Track a buffer; only Markdown ones (by language id or file name) become part of the workspace."""
        key = key_of(uri)
        self.open[key] = OpenDocument(uri, text, version, language_id)
        if language_id.lower() == "markdown" or is_markdown(Path(key)):
            self._dirty.add(key)
        else:
            self.ignored.add(key)
        return key

    def open_document_for(self, uri: str) -> OpenDocument:
        doc = self.open.get(key_of(uri))
        if doc is None:
            raise UnknownDocument(f"{uri} is not open (didChange without didOpen)")
        return doc

    def change_document(self, uri: str, version: int | None, changes) -> str:
        """Apply an editor's change; a :class:`ChangeError` (the document is now diverged) still marks it dirty."""
        doc = self.open_document_for(uri)
        key = key_of(uri)
        if key not in self.ignored:
            self._dirty.add(key)
        doc.apply(version, changes, self.codec)
        return key

    def diverged(self, keys: Iterable[str] | None = None) -> list[str]:
        """The open documents (of ``keys``, or all) whose text the server no longer knows."""
        wanted = self.open if keys is None else [k for k in keys if k in self.open]
        return sorted(k for k in wanted if self.open[k].diverged is not None)

    def close_document(self, uri: str) -> str:
        """Forget the buffer; the document reverts to what is on disk (or leaves the workspace)."""
        key = key_of(uri)
        self.open.pop(key, None)
        self._dirty.discard(key)
        if key in self.ignored:
            self.ignored.discard(key)
            return key
        if is_path(key) and self.in_scope(Path(key)) and os.path.exists(key):
            self.load_from_disk(key)
        else:
            self._remove(key)
        return key

    def sync(self) -> None:
        """Bring the workspace up to date with the open buffers."""
        if not self._dirty:
            return
        for key in sorted(self._dirty):
            doc = self.open.get(key)
            if doc is None:
                continue
            if doc.diverged is not None:
                self.workspace.remove(key)
                self._set_problem(key, LoadProblem(key, "io/out-of-sync", OUT_OF_SYNC))
                continue
            text = doc.text
            if len(text) * 4 > self.max_bytes and len(text.encode("utf-8", errors="replace")) > self.max_bytes:
                self.workspace.remove(key)
                self._set_problem(key, LoadProblem(key, "io/too-large", f"document is larger than the "
                                                   f"{self.max_bytes // (1024 * 1024)} MB limit; not checked"))
                continue
            reason = too_big_to_check(len(text))
            if reason is not None:
                self.workspace.remove(key)
                self._set_problem(key, LoadProblem(key, "io/too-large", f"document {reason}"))
                continue
            self._clear_problem(key)
            self.workspace.update(key, text)
        self._dirty.clear()

    def reread_if_changed(self, keys: Iterable[str] | None = None) -> list[str]:
        """Read again the closed files (of ``keys``, or all in the workspace) whose content on disk is not the
        text the workspace holds, e.g. changed by another program without a file event; returns them.

        Content is compared, not modification times, which can be coarser than the change.
        """
        wanted = list(self.workspace.documents) if keys is None else list(keys)
        changed = []
        for key in wanted:
            current = self.workspace.documents.get(key)
            if key in self.open or current is None or not is_path(key):
                continue
            result = read_source(Path(key), max_bytes=self.max_bytes, display=key)
            if isinstance(result, SourceFile) and normalise(result.text) == current.text:
                continue
            if isinstance(result, LoadProblem) and result.code == "io/not-found":
                self._remove(key)
            else:
                self.add_source(key, result)
            changed.append(key)
        return changed

    def load_from_disk(self, key: str) -> None:
        """Read one file (unless a buffer overrides it) into the workspace."""
        if key in self.open:
            return
        self.add_source(key, read_source(Path(key), max_bytes=self.max_bytes, display=key))

    def add_source(self, key: str, result: SourceFile | LoadProblem) -> None:
        """Put a file read from disk into the workspace, or record why it could not be read."""
        if key in self.open:
            return
        if isinstance(result, LoadProblem):
            self.workspace.remove(key)
            self._set_problem(key, result)
        else:
            self._clear_problem(key)
            self.workspace.update(key, normalise(result.text))

    def remove_path(self, key: str) -> None:
        """A file (or everything below a folder) disappeared from disk; open buffers stay."""
        prefix = key.rstrip(os.sep) + os.sep
        for path in [p for p in (*self.workspace.documents, *self.problems) if p == key or p.startswith(prefix)]:
            if path not in self.open:
                self._remove(path)

    def _remove(self, key: str) -> None:
        self.workspace.remove(key)
        self._clear_problem(key)
        self._lines.pop(key, None)

    def _set_problem(self, key: str, problem: LoadProblem) -> None:
        self.problems[key] = LoadProblem(key, problem.code, problem.message, problem.span)
        self._problem_generation += 1

    def _clear_problem(self, key: str) -> None:
        if self.problems.pop(key, None) is not None:
            self._problem_generation += 1

    def in_scope(self, path: Path) -> bool:
        """True for a Markdown file inside a workspace folder that the loader would read."""
        if not is_markdown(path):
            return False
        i = folder_of(path, self.folders)
        if i is None:
            return False
        rel = path.relative_to(self.folders[i])
        if any(part.startswith(".") or part in _SKIPPED_PARTS for part in rel.parts):
            return False
        return not self.excluder().excluded(path)

    def excluder(self) -> FolderExcluders:
        """Each folder's excludes, for the files under it."""
        return FolderExcluders(self.folder_configs)

    def checker_for(self, key: str) -> Checker:
        """The checker of the folder ``key`` is in (the first folder's for a document outside them all)."""
        i = folder_of(Path(key), self.folders) if is_path(key) and len(self._folder_checkers) > 1 else None
        return self._folder_checkers[i][1] if i is not None and i < len(self._folder_checkers) else self.checker

    # -- lookups for features ------------------------------------------------------------------------------
    def key(self, uri: str) -> str:
        """The workspace key of a document a request names; :class:`UnknownDocument` when there is none."""
        key = key_of(uri)
        self.sync()
        if key not in self.workspace.documents:
            if key in self.open and self.open[key].diverged is not None:
                raise UnknownDocument(f"{uri}: {OUT_OF_SYNC}")
            if key in self.ignored:
                raise UnknownDocument(f"{uri} is not a Markdown document; safereq reads Markdown only")
            if key in self.problems:
                raise UnknownDocument(f"{uri} could not be read: {self.problems[key].message}")
            raise UnknownDocument(f"unknown document {uri}: it is neither open nor in the workspace")
        return key

    def document(self, uri: str) -> Document:
        return self.workspace.documents[self.key(uri)]

    def lines(self, key: str) -> list[str]:
        """The document's lines as the client counts them (for position conversion)."""
        doc = self.open.get(key)
        if doc is not None:
            return doc.lines
        current = self.workspace.documents.get(key)
        if current is None:
            return [""]
        cached = self._lines.pop(key, None)
        if cached is None or cached[0] is not current:
            cached = (current, split_lines(current.text))
        self._lines[key] = cached  # most recently used last
        if len(self._lines) > _LINE_CACHE_SIZE:
            del self._lines[next(iter(self._lines))]
        return cached[1]

    def uri(self, key: str) -> str:
        doc = self.open.get(key)
        return doc.uri if doc is not None else uri_of(key)

    def version(self, key: str) -> int | None:
        doc = self.open.get(key)
        return doc.version if doc is not None else None

    def position(self, uri: str, pos) -> tuple[str, int, int]:
        """(key, line, column in code points) of a request's position; errors for unknown documents and lines."""
        key = self.key(uri)
        line, col = self.codec.to_core(self.lines(key), pos)
        return key, line, col

    # -- checking ------------------------------------------------------------------------------------------
    def findings(self) -> dict[str, list[Finding]]:
        """Current findings by document key (synced first; cached until the workspace or the rules change)."""
        self.sync()
        checkers = tuple(c for _config, c in self._folder_checkers) or (self.checker,)
        stamp = (self.workspace.generation, checkers, self._problem_generation)
        if self._checked is not None and self._checked[:3] == stamp:
            return self._checked[3]
        by_key: dict[str, list[Finding]] = {}
        for checker, paths in self._paths_by_checker():
            for finding in checker.check(self.workspace, paths):
                by_key.setdefault(finding.path, []).append(finding)
        severities = {rid: self.io_severity(rid) for rid in io_rule_infos()}
        for finding in io_findings(self.problems.values(), severities):
            by_key.setdefault(finding.path, []).append(finding)
        for key, found in self.test_results.findings(self).items():
            by_key[key] = sorted(by_key.get(key, []) + found, key=Finding.sort_key)
        by_key = self.baseline.apply(self, by_key)
        self._checked = (*stamp, by_key)
        return by_key

    def _paths_by_checker(self) -> list[tuple[Checker, list[str] | None]]:
        """Which documents each folder's checker checks (all of them with one folder: the common case)."""
        if len(self._folder_checkers) <= 1:
            return [(self.checker, None)]
        groups: dict[int, list[str]] = {}
        for key in self.workspace.documents:
            checker = self.checker_for(key)
            groups.setdefault(id(checker), []).append(key)
        by_id = {id(c): c for _config, c in self._folder_checkers}
        return [(by_id[i], paths) for i, paths in groups.items()]

    def rule_info(self, rule_id: str):
        return rule_infos().get(rule_id) or io_rule_infos().get(rule_id)


def _nest(raw: dict[str, Any]) -> dict[str, Any]:
    """Accept both nested settings and dotted keys (``{"llm.baseUrl": ...}``), and a leading ``safereq.``."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        parts = str(key).split(".")
        if parts[0] == "safereq" and len(parts) > 1:
            parts = parts[1:]
        if parts[0] == "rules" and len(parts) > 1:  # rule ids contain no dots, but keep them whole anyway
            parts = ["rules", ".".join(parts[1:])]
        target = out
        for part in parts[:-1]:
            target = target.setdefault(part, {}) if isinstance(target.get(part, {}), dict) else {}
        if isinstance(value, dict) and isinstance(target.get(parts[-1]), dict):
            target[parts[-1]].update(value)
        else:
            target[parts[-1]] = value
    return out
