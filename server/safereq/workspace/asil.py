"""ASIL values, determination from S/E/C and decomposition schemes, with the tables read from rules/asil.yaml."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..data import load_rules_yaml

_ASIL_RE = re.compile(r"^(?:ASIL[ \t-]*)?(?P<level>QM|[A-D])(?:[ \t]*\((?:ASIL[ \t-]*)?(?P<orig>[A-D])\))?$", re.IGNORECASE)


def _tables() -> dict:
    return load_rules_yaml("asil.yaml")


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
