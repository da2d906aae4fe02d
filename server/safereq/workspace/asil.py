"""ASIL values, determination from S/E/C and decomposition schemes, with the tables read from rules/asil.yaml."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from ..data import load_rules_yaml

_ASIL_RE = re.compile(r"^(?:ASIL[ \t-]*)?(?P<level>QM|[A-D])(?:[ \t]*\((?:ASIL[ \t-]*)?(?P<orig>[A-D])\))?$", re.IGNORECASE)


def _tables() -> dict:
    return load_rules_yaml("asil.yaml")


@cache
def rank(level: str) -> int:
    """Position of an ASIL letter in increasing rigour: QM 0, A 1 … D 4."""
    return _tables()["levels"].index(level)


@dataclass(frozen=True, slots=True)
class AsilValue:
    """An ASIL as written: ``level`` (QM, A–D) and, for a decomposed ASIL such as ``B(D)``, the ``original``."""

    level: str
    original: str | None = None

    def __str__(self) -> str:
        return f"{self.level}({self.original})" if self.original else self.level

    @property
    def decomposed(self) -> bool:
        return self.original is not None

    @property
    def effective(self) -> str:
        """The ASIL that bounds what this element's parents may demand: the original one when decomposed."""
        return self.original or self.level


# Memoised: the same few values recur on thousands of items; bounded, as values are user text.
@lru_cache(maxsize=4096)
def parse_asil(text: str) -> AsilValue | None:
    """Parse ``D``, ``QM``, ``ASIL C``, ``B(D)``, ``ASIL B(D)``; None for anything else."""
    m = _ASIL_RE.match(text.strip())
    if not m:
        return None
    level = m.group("level").upper()
    original = m.group("orig").upper() if m.group("orig") else None
    if level == "QM" and original is None:
        return AsilValue("QM")
    return AsilValue(level, original)


def class_names(kind: str) -> list[str]:
    """The classes of ``severity``, ``exposure`` or ``controllability``, e.g. S0 … S3."""
    return list(_tables()["classes"][kind])


def class_index(kind: str, value: str) -> int | None:
    """``S2`` → 2 for kind ``severity``; None when the value is not a class of that kind."""
    classes = _tables()["classes"][kind]
    v = value.strip().upper()
    return classes.index(v) if v in classes else None


def determine_asil(severity: str, exposure: str, controllability: str) -> str | None:
    """ASIL from S/E/C per ISO 26262-3:2018 Table 4, or None when a class is not valid."""
    s, e, c = (class_index(k, v) for k, v in
               (("severity", severity), ("exposure", exposure), ("controllability", controllability)))
    if s is None or e is None or c is None:
        return None
    if s == 0 or e == 0 or c == 0:
        return "QM"
    return _tables()["determination"][f"S{s}"][f"E{e}"][c - 1]


def determination_clause() -> str:
    return _tables()["determination_clause"]


def decomposition_schemes(original: str) -> list[tuple[str, str]]:
    """The pairs an ASIL may be decomposed into (ISO 26262-9:2018 clause 5)."""
    return [tuple(pair) for pair in _tables()["decomposition"].get(original, [])]


def decomposition_clause() -> str:
    return _tables()["decomposition_clause"]


def is_valid_decomposition(original: str, levels: list[str]) -> bool:
    """True when the decomposed siblings' levels form one of the allowed schemes for ``original``."""
    return tuple(sorted(levels, key=rank, reverse=True)) in {
        tuple(sorted(p, key=rank, reverse=True)) for p in decomposition_schemes(original)
    }


def excerpt(text: str, limit: int = 40) -> str:
    """``text`` stripped and cut to ``limit`` characters for a message (documents may hold anything)."""
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


@lru_cache(maxsize=4096)
def asil_problem(text: str) -> str | None:
    """Why ``text`` is not a usable ASIL, in words for a message; None when it is one.

    ``parse_asil`` accepts the shape ``X(Y)`` for any letters; a decomposed level above its original
    (``D(B)``) parses but cannot come out of a decomposition, so it is reported here too.
    """
    if not text.strip():
        return "no value"
    value = parse_asil(text)
    if value is None:
        return f"'{excerpt(text)}' is not an ASIL"
    if value.original is not None and rank(value.level) > rank(value.original):
        return (f"'{excerpt(text)}' is not a decomposed ASIL: the level ({value.level}) cannot be higher "
                f"than the original ASIL in brackets ({value.original})")
    return None


@lru_cache(maxsize=1024)
def usable_asil_value(text: str) -> AsilValue | None:
    """The ASIL ``text`` states when it is a possible one (not ``D(B)``); cached, since a workspace repeats
    a handful of values and ``AsilValue`` is immutable, so one object serves every item."""
    return None if asil_problem(text) is not None else parse_asil(text)


_LEADING_CLASS_RE = re.compile(r"^(?P<cls>[SEC][0-9])(?![0-9A-Za-z])", re.IGNORECASE)


def class_suggestion(kind: str, text: str) -> tuple[str, bool] | None:
    """A valid class that ``text`` evidently means, with whether replacing the text loses nothing.

    ``3`` under Severity means ``S3`` (lossless); ``S3 - life-threatening`` means ``S3`` but replacing it
    drops the description. None when no class can be read off the text.
    """
    t = text.strip()
    letter = class_names(kind)[0][0]
    if t.isdigit() and class_index(kind, letter + t) is not None:
        return letter + t, True
    m = _LEADING_CLASS_RE.match(t)
    if m and class_index(kind, m.group("cls")) is not None:
        return m.group("cls").upper(), False
    return None


@dataclass(frozen=True, slots=True)
class DecompositionVerdict:
    """How the levels of the decomposed children of one parent relate to the allowed schemes.

    ``status``: ``valid``; ``incomplete`` (the levels are part of exactly one scheme whose other half,
    ``missing``, is absent); ``invalid`` (no scheme contains them).
    """

    status: str
    missing: tuple[str, ...] = ()


def judge_decomposition(parent_level: str, member_levels: list[str], *, inherited_partner: bool = False) -> DecompositionVerdict:
    """Judge the levels of a parent's decomposed children against the schemes for ``parent_level``.

    A branch of a decomposition may be refined into several requirements of the same level, so the
    distinct levels are compared with a scheme's levels; a scheme of two equal halves (``B(D)+B(D)``)
    needs at least two children. ``inherited_partner`` says a child carries the parent's own decomposed
    value unchanged (a ``B(D)`` child of a ``B(D)`` parent), which can be the ``B`` half of ``B+QM``.
    The schemes of one original ASIL share no level, so at most one scheme can be incomplete.
    """
    # Only whether a level occurs once or more matters, so the cache key stays small.
    counts = tuple(sorted((level, min(member_levels.count(level), 2)) for level in set(member_levels)))
    return _judge(parent_level, counts, inherited_partner)


@lru_cache(maxsize=1024)
def _judge(parent_level: str, counts: tuple[tuple[str, int], ...], inherited_partner: bool) -> DecompositionVerdict:
    present = {level for level, _n in counts}
    several = {level for level, n in counts if n > 1}
    for pair in decomposition_schemes(parent_level):
        halves = set(pair)
        complete = present == halves and (pair[0] != pair[1] or pair[0] in several)
        if complete or (inherited_partner and present | {parent_level} == halves and pair[0] != pair[1]):
            return DecompositionVerdict("valid")
    for pair in decomposition_schemes(parent_level):
        if present <= set(pair):
            if pair[0] == pair[1]:
                return DecompositionVerdict("incomplete", (pair[0],))
            return DecompositionVerdict("incomplete", tuple(sorted(set(pair) - present, key=rank, reverse=True)))
    return DecompositionVerdict("invalid")
