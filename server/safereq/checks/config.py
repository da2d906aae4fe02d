"""Configuration: ``[tool.safereq]`` in pyproject.toml or a ``safereq.toml``, validated with exact locations.

Example::

    [tool.safereq]
    exclude = ["drafts/**"]

    [tool.safereq.rules]
    "wording/vague-term" = "error"
    "ears/no-pattern" = "info"      # off by default; this enables it
    "trace/orphan" = "off"

    [tool.safereq.kinds]
    SYSR = { name = "system requirement", category = "requirement" }

    [tool.safereq.words.en]
    vague-terms = ["seamless"]

Settings from an editor (workspace/configuration) are merged on top with :meth:`Config.merged`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .findings import Severity

CONFIG_FILES = ("safereq.toml", "pyproject.toml")
CATEGORIES = ("hazard", "safety-goal", "safety-requirement", "requirement", "claim", "verification")
_KEYS = ("rules", "kinds", "words", "exclude", "index", "llm", "corpora")


class ConfigError(Exception):
    """A configuration problem with the file and 1-based line it is on."""

    def __init__(self, path: Path | None, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}: " if path and line else (f"{path}: " if path else "")
        super().__init__(f"{where}{message}")


@dataclass(frozen=True)
class Config:
    """Rule severities ("off" disables), extra kinds, extra words and other settings; ``source`` is the file."""

    rules: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, dict[str, str]] = field(default_factory=dict)
    words: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    index: dict[str, Any] = field(default_factory=dict)
    llm: dict[str, Any] = field(default_factory=dict)
    corpora: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None

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

    def merged(self, overrides: dict[str, Any]) -> Config:
        """This configuration with editor settings on top (rules merged key by key)."""
        rules = dict(self.rules)
        rules.update(_validate_rules(overrides.get("rules") or {}, None, ""))
        return replace(self, rules=rules)


def _line_of(text: str, key: str) -> int | None:
    """The first line that defines ``key`` (quoted or bare), to point errors at it.

    In a pyproject.toml the search starts at the first ``[tool.safereq`` table, so that a key of the same
    name in another tool's table (``exclude`` of a linter, say) is not blamed.
    """
    k = re.escape(key)
    pattern = re.compile(r"^[ \t]*(?:\"" + k + r"\"|'" + k + r"'|" + k + r")[ \t]*=", re.MULTILINE)
    m = pattern.search(text, max(text.find("[tool.safereq"), 0))
    return text.count("\n", 0, m.start()) + 1 if m else None


def _validate_rules(rules: Any, path: Path | None, text: str) -> dict[str, str]:
    from .registry import rule_infos

    if not isinstance(rules, dict):
        raise ConfigError(path, _line_of(text, "rules"), "'rules' must be a table of rule id = severity")
    known = rule_infos()
    out: dict[str, str] = {}
    for rule_id, value in rules.items():
        families = {r.split("/")[0] for r in known}
        if rule_id not in known and rule_id not in families:
            from rapidfuzz import process

            guess = process.extractOne(rule_id, list(known))
            hint = f"; did you mean '{guess[0]}'?" if guess and guess[1] > 70 else ""
            raise ConfigError(path, _line_of(text, rule_id), f"unknown rule '{rule_id}'{hint}")
        if not isinstance(value, str):
            raise ConfigError(path, _line_of(text, rule_id), f"rule '{rule_id}': expected a string severity")
        value = value.strip().lower()
        if value not in ("off", "on"):
            try:
                Severity.parse(value)
            except ValueError as exc:
                raise ConfigError(path, _line_of(text, rule_id), f"rule '{rule_id}': {exc}") from None
        if rule_id in families:
            for rid in known:
                if rid.startswith(rule_id + "/"):
                    out[rid] = value
        else:
            out[rule_id] = value
    return out


def _validate(data: dict[str, Any], path: Path | None, text: str) -> Config:
    for key in data:
        if key not in _KEYS:
            raise ConfigError(path, _line_of(text, key) or _section_line(text, key),
                              f"unknown setting '{key}' (known: {', '.join(_KEYS)})")
    rules = _validate_rules(data.get("rules", {}), path, text)
    kinds = data.get("kinds", {})
    if not isinstance(kinds, dict):
        raise ConfigError(path, _line_of(text, "kinds"), "'kinds' must be a table")
    for prefix, spec in kinds.items():
        line = _line_of(text, prefix)
        if not re.fullmatch(r"[A-Z]+", prefix):
            raise ConfigError(path, line, f"kind '{prefix}': a kind is the upper-case letters an ID starts with")
        if not isinstance(spec, dict) or spec.get("category", "requirement") not in CATEGORIES:
            raise ConfigError(path, line, f"kind '{prefix}': category must be one of {', '.join(CATEGORIES)}")
    words = data.get("words", {})
    if not isinstance(words, dict) or not all(
        isinstance(lists, dict) and all(isinstance(v, list) and all(isinstance(w, str) for w in v) for v in lists.values())
        for lists in words.values()
    ):
        raise ConfigError(path, _section_line(text, "words"), "'words' must be tables of string lists, e.g. [tool.safereq.words.en] vague-terms = [\"seamless\"]")
    exclude = data.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(e, str) for e in exclude):
        raise ConfigError(path, _line_of(text, "exclude"), "'exclude' must be a list of glob patterns")
    for key in ("index", "llm", "corpora"):
        if not isinstance(data.get(key, {}), dict):
            raise ConfigError(path, _section_line(text, key), f"'{key}' must be a table")
    return Config(rules, kinds, words, tuple(exclude), data.get("index", {}), data.get("llm", {}),
                  data.get("corpora", {}), path)


def _section_line(text: str, key: str) -> int | None:
    m = re.search(r"^[ \t]*\[(?:tool\.safereq\.)?" + re.escape(key) + r"[\].]", text, re.MULTILINE)
    return text.count("\n", 0, m.start()) + 1 if m else None


def load_config_file(path: Path) -> Config:
    """Read one configuration file; raise :class:`ConfigError` with file and line on any problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, None, f"cannot read configuration: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = int(m.group(1)) if m else (len(text.rstrip("\n").split("\n")) if "end of document" in str(exc) else None)
        raise ConfigError(path, line, f"invalid TOML: {exc}") from None
    except RecursionError:  # tomllib parses nested arrays and inline tables recursively
        raise ConfigError(path, None, "invalid TOML: arrays or inline tables nested too deeply") from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("safereq")
        if data is None:
            return Config(source=None)
    if not isinstance(data, dict):
        raise ConfigError(path, None, "[tool.safereq] must be a table")
    return _validate(data, path, text)


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
