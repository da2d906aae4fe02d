"""Refinements read from the item's own words (rules/patterns/refinements.yaml): what it leaves open.

"OFT allows users to choose between Unix-style and Windows-style newline encoding" leaves open what happens
when the user chooses nothing, or something unsupported; "the system shall store enrollment tokens in iOS
Keychain" leaves open what happens when it cannot. Each refinement matches the whole statement, names the
item's own subject and objects as written, and is offered only where every number of the item is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...data import load_rules_yaml
from .analogues import keeps_limits

_ARTICLE = re.compile(r"^(?:the|a|an|each|every|all)\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Refinement:
    id: str
    title: str
    statement: str


@lru_cache(maxsize=1)
def _rules() -> dict[str, Any]:
    return load_rules_yaml("patterns/refinements.yaml")


def _head(phrase: str) -> str:
    """The kind of thing a choice is between: "Unix-style and Windows-style newline encoding" → "newline
    encoding" (the words after the last coordinated modifier), else the phrase without its article."""
    phrase = _ARTICLE.sub("", phrase.strip())
    if " and " in phrase or " or " in phrase:
        tail = re.split(r"\s(?:and|or)\s", phrase)[-1].split()
        return " ".join(tail[1:]) if len(tail) > 1 else phrase
    return phrase


MAX_CHARS = 2000  # a requirement statement is a sentence or two; longer text is not matched at all


def refinements(statement: str, nature: str, language: str) -> list[Refinement]:
    if language == "zh" or len(statement) > MAX_CHARS:
        return []
    text = " ".join(statement.split())
    out: list[Refinement] = []
    gerund = _rules()["gerund"]
    for entry in _rules()["refinements"]:
        if nature not in entry.get("natures", [nature]):
            continue
        m = re.match(entry["match"], text, re.IGNORECASE)
        if not m:
            continue
        g = {k: (v or "") for k, v in m.groupdict().items()}
        if "object" in g:
            g["object_head"] = _head(g["object"])
            head = g["object"].split()[-1].lower() if g["object"].split() else ""
            single = re.match(r"(?:each|every|a|an|one)\b", g["object"], re.IGNORECASE)
            g["pronoun"] = "them" if head.endswith("s") and not head.endswith("ss") and not single else "it"
        if g.get("verb"):
            g["verb"] = g["verb"].lower()
            g["verb_ing"] = gerund.get(g["verb"], g["verb"] + "ing")
        if g.get("subject"):
            g["subject_cap"] = g["subject"][:1].upper() + g["subject"][1:]
            g["subject"] = g["subject"][:1].lower() + g["subject"][1:] if g["subject"][:4].lower() == "the " else g["subject"]
        if g.get("cond"):
            g["cond_cap"] = ""
        g.setdefault("cond_cap", "")
        g.setdefault("modal", "shall")
        filled = entry["template"].format(**{k: g.get(k, "") for k in re.findall(r"{(\w+)}", entry["template"])})
        filled = filled[:1].upper() + filled[1:]
        if g.get("cond"):
            filled = g["cond"][:1].upper() + g["cond"][1:] + filled[:1].lower() + filled[1:]
        if not keeps_limits(text, filled, negation=False):
            continue
        title = entry["title"].format(**{k: g.get(k, "") for k in re.findall(r"{(\w+)}", entry["title"])})
        out.append(Refinement(entry["id"], title, filled))
    return out
