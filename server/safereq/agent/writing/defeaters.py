"""Defeaters read from the item's own words: concrete ways it could fail to hold (rules/patterns/defeaters.yaml).

A defeater is offered only when the item gives it a hold: a limit it states (a time, a percentage, a voltage),
carried over verbatim, or a cue naming what it relies on (a third-party service, input files, a pre-commit
hook, concurrent users). That is what makes it about this item: "the 1 s limit could be missed under peak
load" for a response-time requirement, "the pre-commit hook can be bypassed" for a validation procedure,
never a generic failure mode or the item's own purpose restated as its failure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...data import load_rules_yaml


MAX_CHARS = 2000


@dataclass(frozen=True, slots=True)
class Defeater:
    """One filled defeater: its pattern, category, statement and mitigation."""

    id: str
    category: str
    statement: str
    mitigation: str


@lru_cache(maxsize=1)
def _rules() -> dict[str, Any]:
    return load_rules_yaml("patterns/defeaters.yaml")


def _limit(kind: str, statement: str) -> str:
    """The first limit of ``kind`` the statement states ("any": of any kind, in the order rules list them)."""
    kinds = list(_rules()["limits"]) if kind == "any" else [kind]
    for k in kinds:
        pattern = _rules()["limits"].get(k)
        m = re.search(pattern, statement, re.IGNORECASE) if pattern else None
        if m:
            return m.group(0).strip()
    return ""


def _absent(entry: dict[str, Any], statement: str) -> bool:
    """Whether one of the entry's ``absent`` patterns (one, or a list that shares patterns with other entries
    through YAML anchors) matches: then the defeater does not fit the item."""
    absent = entry.get("absent") or []
    return any(re.search(p, statement, re.IGNORECASE) for p in ([absent] if isinstance(absent, str) else absent))


def _cue(entry: dict[str, Any], statement: str, lang: str) -> tuple[bool, str]:
    """Whether the entry's cues allow it (True when it has none), and what the first matching cue names."""
    cues = entry.get("cues") or []
    if not cues:
        return True, ""
    for cue in cues:
        m = re.search(cue["re"], statement, re.IGNORECASE)
        if m:
            named = (m.groupdict().get("m") or "").strip()
            if named and cue.get("noun_m"):  # the item's own name for it ("the high priority alarm")
                return True, (cue["noun_m"].get(lang) or cue["noun_m"]["en"]).format(m=" ".join(named.split()))
            noun = cue.get("noun", {})
            return True, noun.get(lang) or noun.get("en") or m.group(0)
    return False, ""


def defeaters(item_id: str, statement: str, nature: str, lang: str, domain: str = "generic",
              limit: int = 2) -> list[Defeater]:
    """Up to ``limit`` defeaters that fit the item, those held by a stated limit first."""
    lang = "zh" if lang == "zh" else "en"
    found: list[tuple[int, Defeater]] = []
    if len(statement) > MAX_CHARS:
        return []  # a requirement statement is a sentence or two; longer text is not matched at all
    for entry in _rules()["defeaters"]:
        if entry.get("natures") and nature not in entry["natures"]:
            continue
        if entry.get("domains") and domain not in entry["domains"]:
            continue
        if _absent(entry, statement):
            continue
        value = _limit(entry["limit"], statement) if entry.get("limit") else ""
        if entry.get("limit") and not value:
            continue
        allowed, cue = _cue(entry, statement, lang)
        if not allowed:
            continue
        slots = {"id": item_id, "limit": value, "cue": cue}
        text = entry["template"].get(lang) or entry["template"]["en"]
        mitigation = entry["mitigation"].get(lang) or entry["mitigation"]["en"]
        statement_text = _capital(text.format(**slots))
        rank = 0 if value else 1 if cue else 2
        found.append((rank, Defeater(entry["id"], entry["category"], statement_text,
                                     _capital(mitigation.format(**slots)))))
    found.sort(key=lambda f: f[0])
    return [d for _, d in found[:limit]]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text
