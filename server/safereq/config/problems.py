"""Configuration problems as a user reads them: the file, the 1-based line, what is wrong and the closest
valid name for a misspelt one.

pydantic reports a problem at a location (``("words", "en", "vague-term")``); the line is found in the TOML
text by looking for the location's table header and then its key, so ``[tool.safereq.words.en]
vague-term = [...]`` is blamed on the line of ``vague-term``, not on the first ``vague-term`` anywhere.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path


class ConfigError(Exception):
    """A configuration problem with the file and 1-based line it is on."""

    def __init__(self, path: Path | None, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}: " if path and line else (f"{path}: " if path else "")
        super().__init__(f"{where}{message}")


@dataclass(frozen=True)
class Problem:
    """One problem at a location of the settings (table keys from the top, list indexes as ints)."""

    loc: tuple[str | int, ...]
    message: str

    def error(self, path: Path | None, text: str, prefix: str = "") -> ConfigError:
        return ConfigError(path, line_of(text, self.loc, prefix) if text else None, self.message)


def closest(name: str, valid: Iterable[str]) -> str:
    """``; did you mean 'x'?`` for the valid name most like ``name``, or nothing when none is close."""
    choices = sorted(set(valid))
    match = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    if not match:  # a prefix ("vague" for "vague-terms") is a likely slip too
        match = [c for c in choices if c.startswith(name) or name.startswith(c)][:1] if len(name) >= 3 else []
    return f"; did you mean '{match[0]}'?" if match else ""


def dotted(loc: Sequence[str | int]) -> str:
    return ".".join(str(part) for part in loc)


def _key_pattern(key: str) -> str:
    k = re.escape(key)
    return r"(?:\"" + k + r"\"|'" + k + r"'|" + k + r")"


def line_of(text: str, loc: Sequence[str | int], prefix: str = "") -> int | None:
    """The line that defines the setting at ``loc`` (``prefix`` is ``tool.safereq.`` in a pyproject.toml).

    Looks for the deepest table header on the way (``[words.en]``, ``[tool.safereq.llm]``) and then for the
    next key of ``loc`` in that table (``key =``, a dotted ``key.sub =`` or an inline table ``KEY = {...}``);
    else the header's own line.
    """
    keys = [str(part) for part in loc if not isinstance(part, int)]
    base = [part for part in prefix.split(".") if part]
    headers = list(_HEADER.finditer(text))
    for depth in range(len(keys), -1, -1):
        table = base + keys[:depth]
        if table:
            wanted = r"\s*\.\s*".join(_key_pattern(k) for k in table)
            m = re.search(r"^[ \t]*\[" + wanted + r"\s*\]", text, re.MULTILINE)
            if m is None:
                continue
            begin = m.end()
        else:
            begin = 0  # the top level of a safereq.toml: before its first header
        rest = keys[depth:]
        if not rest:
            return text.count("\n", 0, begin) + 1 if table else None
        end = next((h.start() for h in headers if h.start() >= begin), len(text))
        k = re.compile(r"^[ \t]*" + _key_pattern(rest[0]) + r"[ \t]*[=.]", re.MULTILINE).search(text, begin, end)
        if k is not None:
            return text.count("\n", 0, k.start()) + 1
        if table:
            return text.count("\n", 0, begin) + 1
    return None


_HEADER = re.compile(r"^[ \t]*\[", re.MULTILINE)
