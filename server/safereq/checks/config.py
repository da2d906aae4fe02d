"""The checks' view of the configuration: ``[tool.safereq]`` in pyproject.toml or a ``safereq.toml``.

Example::

    [tool.safereq]
    exclude = ["drafts/**"]
    external-ids = ["TC-*"]

    [tool.safereq.rules]
    "wording/vague-term" = "error"
    "ears/no-pattern" = "info"      # off by default; this enables it
    "trace/orphan" = "off"

    [tool.safereq.kinds]
    SYSR = { name = "system requirement", category = "requirement" }

    [tool.safereq.words.en]
    vague-terms = ["seamless"]

The file is validated by the one configuration model (safereq.config.model.ProjectFile) with the names only
the checks know (rule IDs, word lists); every problem is a :class:`ConfigError` with the file, the line and,
for a misspelt name, the closest valid one. Settings from an editor are merged on top with
:meth:`Config.merged`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import ConfigError
from .findings import Severity

if TYPE_CHECKING:
    from ..config import CorporaSettings, IndexSettings, Known, LLMConfig, ProjectFile

CONFIG_FILES = ("safereq.toml", "pyproject.toml")

__all__ = ["CONFIG_FILES", "Config", "ConfigError", "find_config", "known_names", "load_config",
           "load_config_file"]


@dataclass(frozen=True)
class Config:
    """Rule severities ("off" disables), extra kinds, extra words and other settings; ``source`` is the file."""

    rules: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, dict[str, str]] = field(default_factory=dict)
    words: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    # [index], [llm], [corpora] as validated, None for the defaults: read through the properties below, so
    # that a check without a configuration file never imports pydantic (a fifth of its start-up).
    index_settings: IndexSettings | None = None
    llm_settings: LLMConfig | None = None
    corpora_settings: CorporaSettings | None = None
    source: Path | None = None
    external_ids: tuple[str, ...] = ()
    external_id_url: str | None = None
    impact_keys: tuple[str, ...] = ()  # [impact] attributes: what linked items also depend on
    baseline: str | None = None  # the baseline file, relative to the configuration file's folder
    test_results: tuple[str, ...] = ()  # JUnit XML files (globs), relative to the same folder
    test_id_pattern: str | None = None  # a regular expression whose first group is a verification item's ID
    cache: str | bool = True  # `safereq check`'s cache: True = .safereq/cache, a folder, or False (off)

    @property
    def index(self) -> IndexSettings:
        if self.index_settings is not None:
            return self.index_settings
        from ..config.model import IndexSettings

        return IndexSettings()

    @property
    def llm(self) -> LLMConfig:
        if self.llm_settings is not None:
            return self.llm_settings
        from ..config.model import LLMConfig

        return LLMConfig()

    @property
    def corpora(self) -> CorporaSettings:
        if self.corpora_settings is not None:
            return self.corpora_settings
        from ..config.model import CorporaSettings

        return CorporaSettings()

    @property
    def root(self) -> Path | None:
        """The folder the configuration's relative paths start at (the configuration file's)."""
        return self.source.parent if self.source else None

    def severity(self, rule_id: str, default: Severity, enabled: bool) -> Severity | None:
        """The severity to report ``rule_id`` with, or None when the rule is off."""
        setting = self.rules.get(rule_id)
        if setting is None:
            return default if enabled else None
        if setting == "off":
            return None
        if setting == "on":
            return default
        return Severity.parse(setting)

    def extra_words(self, language: str, list_name: str) -> list[str]:
        return list(self.words.get(language, {}).get(list_name, []))

    def not_modal(self, language: str) -> tuple[str, ...]:
        """The project's extra not-modal words of ``language``: every reader of modal verbs takes them (the
        checks, the EARS hover, the agent)."""
        return tuple(self.extra_words(language, "not-modal"))

    def external(self, item_id: str) -> str | None:
        """The ``external-ids`` pattern ``item_id`` matches (an item kept outside the workspace), or None."""
        if not self.external_ids:
            return None
        m = _external_regex(self.external_ids).fullmatch(item_id)
        return m.lastgroup and self.external_ids[int(m.lastgroup[1:])] if m else None

    def external_url(self, item_id: str) -> str | None:
        """Where the external item ``item_id`` can be looked at (``external-id-url`` with its ID)."""
        return self.external_id_url.replace("{id}", item_id) if self.external_id_url else None

    def cache_dir(self, cwd: Path) -> Path | None:
        """Where ``safereq check`` keeps its cache: relative to the configuration file's folder (else ``cwd``);
        None when the configuration turns it off."""
        if self.cache is False:
            return None
        base = self.source.parent if self.source is not None else cwd
        return base / (".safereq/cache" if self.cache is True else self.cache)

    def merged(self, overrides: dict[str, Any]) -> Config:
        """This configuration with editor settings on top (rules merged key by key)."""
        rules = dict(self.rules)
        rules.update(_expand(validated({"rules": overrides.get("rules") or {}}, None, "").rules))
        return replace(self, rules=rules)


@cache
def _external_regex(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One expression for all ``external-ids`` patterns (``*``: any run of ID characters), a group each."""
    return re.compile("|".join(f"(?P<p{k}>{re.escape(p).replace(chr(92) + '*', '[A-Za-z0-9._-]*')})"
                               for k, p in enumerate(patterns)))


@cache
def known_names() -> Known:
    """The rule IDs, families and word lists the configuration may name (from the rule registry)."""
    from ..config.model import Known
    from .families.io import all_rule_infos
    from .registry import word_list_names

    rules = frozenset(all_rule_infos())
    return Known(rules, word_list_names(), frozenset(r.split("/")[0] for r in rules))


def validated(data: dict[str, Any], path: Path | None, text: str, prefix: str = "") -> ProjectFile:
    """``data`` (a parsed project file) as the typed model; the first problem (by line) as a ConfigError."""
    from pydantic import ValidationError

    from ..config.model import ProjectFile, problems

    try:
        return ProjectFile.model_validate(data, context={"known": known_names()})
    except ValidationError as exc:
        found = [p.error(path, text, prefix) for p in problems(exc, ProjectFile)]
        raise min(found, key=lambda e: e.line or 0) from None


def _expand(rules: dict[str, str]) -> dict[str, str]:
    """Rule settings with each family name replaced by its rules, in the order written."""
    known = known_names()
    out: dict[str, str] = {}
    for rule_id, value in rules.items():
        if rule_id in known.families and rule_id not in known.rules:
            out.update({rid: value for rid in sorted(known.rules) if rid.startswith(rule_id + "/")})
        else:
            out[rule_id] = value
    return out


def _config(project: ProjectFile, path: Path | None) -> Config:
    kinds = {prefix: spec.model_dump(exclude_none=True) for prefix, spec in project.kinds.items()}
    given = project.model_fields_set  # a section the file does not have stays None (the defaults, made lazily)
    return Config(_expand(project.rules), kinds, project.words, tuple(project.exclude),
                  project.index if "index" in given else None, project.llm if "llm" in given else None,
                  project.corpora if "corpora" in given else None, path, tuple(project.external_ids),
                  project.external_id_url, tuple(project.impact.attributes), project.baseline,
                  tuple(project.test_results), project.test_id_pattern, cache=project.cache)


def load_config_file(path: Path) -> Config:
    """Read one configuration file; raise :class:`ConfigError` with file and line on any problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, None, f"cannot read configuration: {exc}") from None
    import tomllib  # here: a re-run takes the validated configuration from the user's cache, and no TOML

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = int(m.group(1)) if m else (len(text.rstrip("\n").split("\n")) if "end of document" in str(exc) else None)
        raise ConfigError(path, line, f"invalid TOML: {exc}") from None
    except RecursionError:  # tomllib parses nested arrays and inline tables recursively
        raise ConfigError(path, None, "invalid TOML: arrays or inline tables nested too deeply") from None
    prefix = ""
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("safereq")
        if data is None:
            return Config(source=None)
        prefix = "tool.safereq."
    if not isinstance(data, dict):
        raise ConfigError(path, None, "[tool.safereq] must be a table")
    return _config(validated(data, path, text, prefix), path)


def find_config(start: Path) -> Path | None:
    """The nearest safereq.toml, or pyproject.toml with a [tool.safereq] table, at or above ``start``."""
    start = start if start.is_dir() else start.parent
    for folder in (start, *start.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if candidate.is_file():
                if name == "pyproject.toml" and "[tool.safereq" not in candidate.read_text(encoding="utf-8", errors="replace"):
                    continue
                return candidate
    return None


def load_config(start: Path) -> Config:
    """The configuration that applies to files under ``start`` (defaults when there is none)."""
    path = find_config(start.resolve())
    return load_config_file(path) if path else Config()


def __getattr__(name: str):
    """``CATEGORIES`` as before, without importing the configuration model on import."""
    if name == "CATEGORIES":
        from ..config.model import CATEGORIES

        return CATEGORIES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
