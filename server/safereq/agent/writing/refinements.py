"""Refinements read from the item's own words (rules/patterns/refinements.yaml): what it leaves open.

"OFT allows users to choose between Unix-style and Windows-style newline encoding" leaves open what happens
when the user chooses something unsupported; "the system shall store enrollment tokens in iOS Keychain" what
happens when it cannot (never a weaker store); "display a Submit button when all required questions are
answered" whether it may be shown before. Each refinement matches the whole statement, names the item's own
subject and objects as written, adds no number, threshold or element the item does not name, and is offered
only where every number of the item is kept.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from ...data import load_rules_yaml
from .analogues import keeps_limits

_ARTICLE = re.compile(r"^(?:the|a|an|each|every|all)\s+", re.IGNORECASE)
_SLOT = re.compile(r"{(\w+)}")
_PRODUCT = re.compile(r"^([A-Z][A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*)\s")  # "OFT offers ..." (an acronym or CamelCase name)
MAX_CHARS = 2000  # a requirement statement is a sentence or two; longer text is not matched at all


@dataclass(frozen=True, slots=True)
class Refinement:
    id: str
    title: str
    statement: str


@lru_cache(maxsize=1)
def _rules() -> dict[str, Any]:
    return load_rules_yaml("patterns/refinements.yaml")


@lru_cache(maxsize=None)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _head(phrase: str) -> str:
    """The kind of thing a choice is between: "Unix-style and Windows-style newline encoding" → "newline
    encoding" (the words after the last coordinated modifier), else the phrase without its article."""
    phrase = _ARTICLE.sub("", phrase.strip())
    if " and " in phrase or " or " in phrase:
        tail = re.split(r"\s(?:and|or)\s", phrase)[-1].split()
        return " ".join(tail[1:]) if len(tail) > 1 else phrase
    return phrase


def _singular(phrase: str) -> str:
    """"requirement tracing output formats" → "requirement tracing output format" (the last word only)."""
    words = phrase.split()
    if not words:
        return phrase
    last = words[-1]
    if last.lower().endswith("ies"):
        last = last[:-3] + "y"
    elif last.lower().endswith(("ses", "xes", "ches", "shes")):
        last = last[:-2]
    elif last.lower().endswith("s") and not last.lower().endswith("ss"):
        last = last[:-1]
    return " ".join([*words[:-1], last])


def _plural(phrase: str) -> str:
    words = phrase.split()
    if not words:
        return phrase
    last = words[-1]
    if last.lower().endswith(("s", "x", "ch", "sh")):
        last += "es"
    elif last.lower().endswith("y") and last[-2:-1].lower() not in "aeiou":
        last = last[:-1] + "ies"
    else:
        last += "s"
    return " ".join([*words[:-1], last])


def _values(text: str) -> str:
    """"core, sponsor, or combined" → "core, sponsor or combined" (one list, joined with "or")."""
    items = [v.strip(" `'\"") for v in re.split(r",\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+", text) if v.strip(" `'\"")]
    if len(items) < 2:
        return ""
    return ", ".join(items[:-1]) + " or " + items[-1]


def product_name(statements: Iterable[str]) -> str:
    """The name ``statements`` most often begin with ("OFT offers ...", "OFT produces ..."), or ""."""
    names = Counter(m.group(1) for s in statements if (m := _PRODUCT.match(s.strip())))
    if not names:
        return ""
    return names.most_common(1)[0][0]


def _slots(entry: dict[str, Any], groups: dict[str, str], product: str) -> dict[str, str] | None:
    """The template's slots from the match's groups, or None when one it needs cannot be filled."""
    rules = _rules()
    g = dict(groups)
    if "object" in g:
        obj = g["object"]
        if entry.get("object_cue") and not _compiled(entry["object_cue"]).search(obj):
            return None
        if entry.get("object_not") and _compiled(entry["object_not"]).search(obj):
            return None
        g["object_head"] = _head(obj)
        g["object_the"] = "the " + _ARTICLE.sub("", obj) if not obj.lower().startswith("the ") else obj
        g["object_bare"] = _ARTICLE.sub("", obj)
        g["object_singular"] = _singular(_head(obj))
        g["object_plural"] = _plural(g["object_singular"])
        head = obj.split()[-1].lower() if obj.split() else ""
        single = re.match(r"(?:each|every|a|an|one)\b", obj, re.IGNORECASE)
        g["pronoun"] = "them" if head.endswith("s") and not head.endswith("ss") and not single else "it"
    if g.get("verb"):
        g["verb"] = g["verb"].lower()
        g["verb_ing"] = rules["gerund"].get(g["verb"], g["verb"] + "ing")
        g["verb_pp"] = rules["participle"].get(g["verb"], g["verb"] + "ed")
    if g.get("subject"):
        g["subject_cap"] = g["subject"][:1].upper() + g["subject"][1:]
        if re.match(r"(?:the|an?) ", g["subject"], re.IGNORECASE):
            g["subject"] = g["subject"][:1].lower() + g["subject"][1:]
    modal = g.get("modal") or "shall"
    g["modal"] = modal
    g["modal_not"] = "SHALL NOT" if modal.isupper() else "shall not"
    g["product"] = product
    if g.get("values") is not None:
        g["values"] = _values(g["values"])
    if g.get("range"):
        g["range"] = re.sub(r"\s+and\s+", " to ", g["range"])  # "between 30 and 180 km/h" → "outside 30 to 180 km/h"
    if g.get("mode"):
        g["mode"] = re.sub(r"^(?:a|an)\s+", "the ", g["mode"], flags=re.IGNORECASE)
    if g.get("things"):
        g["things_singular"] = _singular(g["things"])
    if g.get("step"):
        g["step_noun"] = re.sub(r"\s+(?:begins|starts|runs|is started|is run)$", "", g["step"])
    needed = set(_SLOT.findall(entry["template"])) | set(_SLOT.findall(entry["title"]))
    if any(not g.get(k) for k in needed if k not in ("cond", "rest")):
        return None
    return {k: g.get(k) or "" for k in needed}


def refinements(statement: str, nature: str, language: str, product: str = "") -> list[Refinement]:
    """The refinements of ``statement`` (of the given nature and language); ``product`` names the product
    for a statement without a subject ("Users can select ...")."""
    if len(statement) > MAX_CHARS:
        return []
    text = " ".join(statement.split())
    out: list[Refinement] = []
    for entry in _rules()["refinements"]:
        if entry.get("language", "en") != ("zh" if language == "zh" else "en"):
            continue
        if nature not in entry.get("natures", [nature]):
            continue
        m = _compiled(entry["match"]).match(text)
        if not m:
            continue
        g = _slots(entry, {k: (v or "") for k, v in m.groupdict().items()}, product)
        if g is None:
            continue
        filled = entry["template"].format(**g)
        filled = filled[:1].upper() + filled[1:]
        if language != "zh" and m.groupdict().get("cond") and "{cond}" not in entry["template"]:
            cond = m.group("cond")
            filled = cond[:1].upper() + cond[1:] + filled[:1].lower() + filled[1:]
        if not keeps_limits(text, filled, negation=False):
            continue
        title = entry["title"].format(**g)
        out.append(Refinement(entry["id"], title[:1].upper() + title[1:], filled))
    return out
