"""Safety-requirement and rebuttal patterns (``rules/patterns/*.yaml``) and how an item fills them.

The offline assistant composes its suggestions from these: the patterns are data (safety measures such as
monitoring, reaction within the FTTI, redundancy, plausibility checks, driver warning, degradation; and
defeater categories), this module only selects them by the item's words and fills their placeholders with
the item's element, function, signal, safe state and FTTI.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any

from ..data import load_rules_yaml
from .context import ItemContext

_EN_MODAL = re.compile(r"\b(shall|must|will|should|has to|needs to)\b", re.IGNORECASE)
_ZH_MODAL = re.compile(r"(?<!不)(应|必须|需要)")
# The item's main signal: a noun phrase ending in one of these words, the earlier words preferred.
_SIGNAL_HEADS = ("request", "signal", "measurement", "value", "image", "images", "speed", "angle", "position",
                 "quality", "torque")
_SIGNAL = re.compile(r"(?=\b((?:[A-Za-z][\w-]*\s+){0,2}(?:" + "|".join(_SIGNAL_HEADS) + r"))\b)", re.IGNORECASE)
_NOT_IN_SIGNAL = {"shall", "must", "will", "should", "to", "of", "and", "or", "the", "a", "an", "when", "if", "then",
                  "while", "by", "from", "than", "more", "less", "within", "its", "set", "limit", "report", "detect"}
_ZH_SIGNAL = re.compile(r"([^\W\d的应将在内给向]{0,3}(?:请求|信号|速度|角度|质量|图像))")
_LEAD = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Pattern:
    """One pattern from rules/patterns: which items it fits and the text it produces, per language."""

    id: str
    name: str
    query: str
    clauses: tuple[str, ...]
    templates: dict[str, str]
    titles: dict[str, str]
    cues: tuple[str, ...] = ()
    always: bool = False
    asil: tuple[str, ...] = ()
    ears: str = ""
    decompose: bool = False
    independence: dict[str, str] | None = None
    category: str = ""
    examples: dict[str, list[str]] | None = None
    mitigation: dict[str, str] | None = None
    channels: dict[str, list[str]] | None = None

    def fits(self, ctx: ItemContext) -> bool:
        """Always-on, or a cue occurs in the item's words; ASIL-bound patterns need one of their ASILs."""
        if self.asil and _asil_letter(ctx.asil) not in self.asil:
            return False
        if self.always:
            return True
        words = item_words(ctx)
        return any(cue.lower() in words for cue in self.cues)


def _asil_letter(value: str) -> str:
    from ..workspace.asil import parse_asil

    parsed = parse_asil(value) if value else None
    return parsed.effective if parsed else ""


def item_words(ctx: ItemContext) -> str:
    """Everything about the item a cue may match: title, statement, attribute values, ASIL (lower case)."""
    return " ".join([ctx.title, ctx.statement, ctx.asil, *ctx.attributes.values()]).lower()


def _pattern(raw: dict[str, Any]) -> Pattern:
    return Pattern(
        id=raw["id"], name=raw.get("name", raw.get("category", raw["id"])), query=raw.get("query", ""),
        clauses=tuple(raw.get("clauses", ())), templates=dict(raw["template"]), titles=dict(raw.get("title", {})),
        cues=tuple(str(c) for c in raw.get("cues", ())), always=bool(raw.get("always")),
        asil=tuple(raw.get("asil", ())), ears=raw.get("ears", ""), decompose=bool(raw.get("decompose")),
        independence=raw.get("independence"), category=raw.get("category", ""), examples=raw.get("examples"),
        mitigation=raw.get("mitigation"), channels=raw.get("channels"),
    )


def requirement_patterns() -> list[Pattern]:
    return [_pattern(p) for p in load_rules_yaml("patterns/requirements.yaml")["patterns"]]


def rebuttal_patterns() -> list[Pattern]:
    return [_pattern(p) for p in load_rules_yaml("patterns/rebuttals.yaml")["patterns"]]


def child_kinds(kind: str) -> list[str]:
    """The kinds a requirement derived from ``kind`` may have; the first is the one the assistant gives."""
    table = load_rules_yaml("patterns/requirements.yaml")["child_kind"]
    return list(table.get(kind, table["default"]))


def child_kind(kind: str) -> str:
    """The kind a requirement derived from ``kind`` gets (SG → FSR, FSR → TSR, ...)."""
    return child_kinds(kind)[0]


def select(patterns: list[Pattern], ctx: ItemContext) -> list[Pattern]:
    return [p for p in patterns if p.fits(ctx)]


def _split_statement(statement: str, language: str) -> tuple[str, str]:
    """(subject, required behaviour) of a one-sentence requirement: the words around its modal verb."""
    text = statement.strip()
    if language == "zh":
        m = _ZH_MODAL.search(text)
        if not m:
            return "", ""
        head = re.split(r"[，,；;]", text[:m.start()])[-1]
        head = re.sub(r"^(?:则|那么|时)", "", head).strip()
        return head, text[m.end():].rstrip("。.； ").strip()
    m = _EN_MODAL.search(text)
    if not m:
        return "", ""
    head = re.split(r",|\bthen\b", text[:m.start()])[-1].strip()
    tail = text[m.end():].strip()
    tail = re.split(r"(?<=[a-z0-9)])\.\s", tail)[0].rstrip(". ")
    return _LEAD.sub("", head), re.sub(r"^not\s+", "", tail) if tail.startswith("not ") else tail


def _main_signal(statement: str) -> re.Match[str] | None:
    """The noun phrase naming the item's main signal ("steering torque request"), by head word then length."""
    candidates = []
    for m in _SIGNAL.finditer(statement):
        words = m.group(1).split()
        if any(w.lower() in _NOT_IN_SIGNAL for w in words):
            continue
        candidates.append((_SIGNAL_HEADS.index(words[-1].lower()), -len(words), m.start(), m))
    return min(candidates, key=lambda c: c[:3])[3] if candidates else None


def _lower_first(text: str) -> str:
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text


def slots(ctx: ItemContext) -> dict[str, str]:
    """The placeholder values for ``ctx``: taken from its attributes and its statement, then defaults."""
    lang = "zh" if ctx.language == "zh" else "en"
    defaults: dict[str, str] = dict(load_rules_yaml("patterns/requirements.yaml")["defaults"][lang])
    subject, function = _split_statement(ctx.statement, lang)
    element = _LEAD.sub("", ctx.allocated_to or subject or defaults["element"])
    sig = _ZH_SIGNAL.search(ctx.statement) if lang == "zh" else _main_signal(ctx.statement)
    values = dict(defaults)
    values.update({
        "element": element,
        "function": function or (_lower_first(ctx.title) if lang == "en" else ctx.title),
        "title": _lower_first(ctx.title) if lang == "en" else ctx.title,
        "signal": _LEAD.sub("", sig.group(1)) if sig else defaults["signal"],
        "safe_state": ctx.safe_state or defaults["safe_state"],
        "ftti": ctx.ftti or defaults["ftti"],
    })
    return values


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(template: str, values: dict[str, str]) -> str:
    """Fill ``{placeholders}``; unknown ones stay visible rather than raising."""
    names = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    return template.format_map(_Blank({k: v for k, v in values.items() if k in names}))


def text_for(pattern: Pattern, field: dict[str, str] | None, ctx: ItemContext) -> str:
    """The pattern text in the item's language (English when the pattern has no Chinese form)."""
    if not field:
        return ""
    return field.get("zh" if ctx.language == "zh" else "en") or field.get("en", "")


def example_for(pattern: Pattern, ctx: ItemContext, values: dict[str, str]) -> str:
    """The example condition that best fits the item: the one sharing most words with it, else the first."""
    examples = (pattern.examples or {}).get("zh" if ctx.language == "zh" else "en") or (pattern.examples or {}).get("en", [])
    if not examples:
        return ""
    words = set(re.findall(r"\w+", item_words(ctx)))
    best = max(examples, key=lambda e: (len(words & set(re.findall(r"\w+", e.lower()))), -examples.index(e)))
    return fill(best, values)
