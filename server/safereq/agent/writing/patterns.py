"""Safety-requirement and rebuttal patterns (``rules/patterns/*.yaml``) and how an item fills them.

The offline assistant composes its suggestions from these: the patterns are data (safety measures such as
monitoring, reaction within the FTTI, redundancy, plausibility checks, driver warning, degradation, and their
software counterparts; and defeater categories). This module selects them by what the item is (its reading,
domain and nature, see :mod:`.reading` and :mod:`.domain`) and fills their slots from the item and the
workspace: the element, the item's ID, the violation (negation kept), the response, the main signal, the
monitoring element, safe state, FTTI and time limit. A slot the item cannot fill from its own words is
either given a named default (never "TBD") or, when the pattern ``needs`` it, the pattern is not used.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from ...data import load_rules_yaml
from ..item.context import ItemContext, ItemSummary
from ..item.domain import domain_of, nature_of
from ..item.reading import Reading, generic_subject, is_verb, not_an_element, read_statement, third_person, zh_verbs

# The item's main signal: a noun phrase ending in one of these words, the earlier words preferred.
_SIGNAL_HEADS = ("request", "signal", "measurement", "value", "image", "images", "speed", "angle", "position",
                 "quality", "torque", "current", "voltage", "pressure", "reading", "readings")
_SIGNAL = re.compile(r"(?=\b((?:[A-Za-z][\w-]*\s+){0,3}(?:" + "|".join(_SIGNAL_HEADS) + r"))\b)", re.IGNORECASE)
_NOT_IN_SIGNAL = {"shall", "must", "will", "should", "to", "of", "and", "or", "the", "a", "an", "when", "if", "then",
                  "while", "by", "from", "than", "more", "less", "within", "its", "their", "is", "are", "be", "not",
                  "no", "each", "all", "any", "both", "for", "with", "on", "in", "at", "as", "that", "this"}
_ZH_SIGNAL = re.compile(r"([\u3400-\u9fff]{0,4}(?:请求|信号|速度|角度|质量|图像|电流|电压|位置))")
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
    asil: tuple[str, ...] = ()
    ears: str = ""
    decompose: bool = False
    independence: dict[str, str] | None = None
    category: str = ""
    examples: dict[str, list[dict[str, Any]]] | None = None
    mitigation: dict[str, str] | None = None
    channels: dict[str, list[str]] | None = None
    domains: tuple[str, ...] = ()
    natures: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    skip_if: tuple[str, ...] = ()
    topic: tuple[str, ...] = ()
    fallback: dict[str, str] | None = None

    def fits(self, ctx: ItemContext, reading: Reading | None = None, domain: str | None = None,
             nature: str | None = None) -> bool:
        """The item's domain and nature are among the pattern's, its ASIL too (if the pattern names any), a cue
        occurs in the item's words (if the pattern has cues), and nothing says it already is this measure."""
        reading = reading or read_statement(ctx.statement, ctx.language)
        domain = domain or domain_of(ctx, reading)
        nature = nature or nature_of(ctx, reading)
        if self.domains and domain not in self.domains:
            return False
        if self.natures and nature not in self.natures:
            return False
        if self.asil and _asil_letter(ctx.asil) not in self.asil:
            return False
        words = item_words(ctx)
        if self.cues and not any(_has_cue(words, cue) for cue in self.cues):
            return False
        if any(s.lower() in (reading.response or ctx.statement).lower() for s in self.skip_if):
            return False
        if "response" in self.needs and not (reading.reusable and (not reading.negated or ctx.language != "zh")):
            return False
        if "positive" in self.needs and reading.negated:
            return False
        if "timing" in self.needs and not reading.timing:
            return False
        if "signal" in self.needs and not main_signal(ctx.statement, ctx.language):
            return False
        return True


    def hints(self, ctx: ItemContext) -> tuple[str, ...]:
        """The clauses to read for ``ctx``: those of the example that fits it best (rebuttals), then the
        pattern's own, two at most (the loop's hop budget is shared by all patterns)."""
        if not self.examples:
            return self.clauses[:2]
        reading = read_statement(ctx.statement, ctx.language)
        domain = domain_of(ctx, reading)
        lang = "zh" if ctx.language == "zh" else "en"
        values = slots(ctx, domain)
        best = examples_for(self, ctx, values, domain)
        raw = {str(ex.get("text")): ex for ex in (self.examples.get(lang) or []) if isinstance(ex, dict)}
        own: tuple[str, ...] = ()
        if best:
            for text, ex in raw.items():
                if try_fill(text, values) == best[0][0]:
                    own = tuple(str(c) for c in ex.get("clauses", ()))
                    break
        return tuple(dict.fromkeys([*own, *self.clauses]))[:2]


def _has_cue(words: str, cue: str) -> bool:
    c = cue.lower()
    if re.search(r"[\u3400-\u9fff]", c) or not c[:1].isalnum():
        return c in words
    return re.search(r"(?<![\w-])" + re.escape(c), words) is not None


def _asil_letter(value: str) -> str:
    from ...workspace.asil import parse_asil

    parsed = parse_asil(value) if value else None
    return parsed.effective if parsed else ""


def item_words(ctx: ItemContext) -> str:
    """Everything about the item a cue may match: title, statement, attribute values, ASIL (lower case)."""
    return " ".join([ctx.title, ctx.statement, ctx.asil, *ctx.attributes.values()]).lower()


def _pattern(raw: dict[str, Any]) -> Pattern:
    return Pattern(
        id=raw["id"], name=raw.get("name", raw.get("category", raw["id"])), query=raw.get("query", ""),
        clauses=tuple(raw.get("clauses", ())), templates=dict(raw["template"]), titles=dict(raw.get("title", {})),
        cues=tuple(str(c) for c in raw.get("cues", ())), asil=tuple(raw.get("asil", ())), ears=raw.get("ears", ""),
        decompose=bool(raw.get("decompose")), independence=raw.get("independence"),
        category=raw.get("category", ""), examples=raw.get("examples"), mitigation=raw.get("mitigation"),
        channels=raw.get("channels"), domains=tuple(raw.get("domains", ())), natures=tuple(raw.get("natures", ())),
        needs=tuple(raw.get("needs", ())), skip_if=tuple(str(s) for s in raw.get("skip-if", ())),
        topic=tuple(str(t) for t in raw.get("topic", ())), fallback=raw.get("fallback"),
    )


def requirement_patterns() -> list[Pattern]:
    return [_pattern(p) for p in load_rules_yaml("patterns/requirements.yaml")["patterns"]]


def rebuttal_patterns() -> list[Pattern]:
    return [_pattern(p) for p in load_rules_yaml("patterns/rebuttals.yaml")["patterns"]]


def child_kinds(kind: str) -> list[str]:
    """The kinds a requirement derived from ``kind`` may have; the first is the one the assistant gives."""
    table = load_rules_yaml("patterns/requirements.yaml")["child_kind"]
    return list(table.get(kind, table["default"]))


def derives_kind(kind: str) -> bool:
    """Whether the rules name the kinds ``kind`` is derived into (SG, FSR ...), rather than the default."""
    return kind in load_rules_yaml("patterns/requirements.yaml")["child_kind"]


def child_kind(kind: str) -> str:
    """The kind a requirement derived from ``kind`` gets (SG → FSR, FSR → TSR, ...)."""
    return child_kinds(kind)[0]


def select(patterns: list[Pattern], ctx: ItemContext) -> list[Pattern]:
    reading = read_statement(ctx.statement, ctx.language)
    domain, nature = domain_of(ctx, reading), nature_of(ctx, reading)
    return [p for p in patterns if p.fits(ctx, reading, domain, nature)]


def signals_in(statement: str, language: str) -> list[str]:
    """Noun phrases naming signals in ``statement``, best first (by head word, then length)."""
    if language == "zh":
        out = []
        for m in _ZH_SIGNAL.finditer(statement):
            text = m.group(1)
            for verb in sorted(zh_verbs(), key=len, reverse=True):
                if verb in text[:-2]:
                    text = text[text.index(verb) + len(verb):]
            text = text.lstrip("的将把对在向给使以按")
            if len(text) >= 3:
                out.append(text)
        return list(dict.fromkeys(out))
    candidates = []
    for m in _SIGNAL.finditer(statement):
        words = m.group(1).split()
        while words[:-1] and (words[0].lower() in _NOT_IN_SIGNAL or is_verb(words[0]) or words[0][0].isdigit()):
            words = words[1:]
        if any(w.lower() in _NOT_IN_SIGNAL for w in words) or len(words) < 2:
            continue
        head = words[-1].lower()
        candidates.append((_SIGNAL_HEADS.index(head), -len(words), m.start(), " ".join(words)))
    return list(dict.fromkeys(c[3] for c in sorted(candidates)))


def main_signal(statement: str, language: str, others: Iterable[str] = ()) -> str:
    """The item's main signal; one that other items of the workspace name too is preferred."""
    found = signals_in(statement, language)
    if not found:
        return ""
    pool = " ".join(others).lower()
    shared = [s for s in found if s.lower() in pool]
    return (shared or found)[0]


def _monitor(items: Iterable[ItemSummary], language: str, ctx: ItemContext, element: str) -> str:
    """A monitoring element that the workspace's own requirements name as their subject, if any: among the
    item's children, its siblings (same parent) and the items that name its element."""
    parents = {p.id for p in ctx.parents}
    related = [it for it in items if ctx.id in it.parents or parents & set(it.parents)
               or (element and element.lower() in it.statement.lower())]
    for it in related:
        r = read_statement(it.statement, language)
        subject = r.subject
        if r.language != language or not subject:
            continue
        if language == "zh" and subject.endswith(("监控单元", "监控器", "看门狗")) and len(subject) <= 16:
            return subject
        if language == "en" and re.search(r"\b(?:monitor|watchdog|supervisor)$", subject, re.IGNORECASE) \
                and len(subject.split()) <= 5:
            return subject
    return ""


def _lower_first(text: str) -> str:
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text


def slots(ctx: ItemContext, domain: str = "generic", items: Iterable[ItemSummary] = ()) -> dict[str, str]:
    """The slot values for ``ctx`` in ``domain``: from its attributes, its statement and the workspace's other
    ``items``; then the named defaults of the language (and domain). ``violation`` and ``response`` are only
    present when the statement's response starts with a verb (else the fallback templates apply)."""
    lang = "zh" if ctx.language == "zh" else "en"
    table = load_rules_yaml("patterns/requirements.yaml")["defaults"]
    values: dict[str, str] = {**table[lang], **(table.get(f"{lang}@{domain}") or {})}
    reading = read_statement(ctx.statement, lang)
    subject = reading.subject if reading.subject and not not_an_element(reading.subject) else ""
    element = _LEAD.sub("", ctx.allocated_to or subject or values["element"])
    if ctx.allocated_to and generic_subject(reading.subject):
        reading = replace(reading, subject=element)  # "The system shall ..." allocated to the CVC: the CVC acts
    others = [it for it in items if it.id != ctx.id]
    monitor = _monitor(others, lang, ctx, element)
    signal = main_signal(ctx.statement, lang, (f"{it.title} {it.statement}" for it in others))
    values.update({
        "element": element,
        "ref": ctx.id,
        "title": _lower_first(ctx.title) if lang == "en" else ctx.title,
        "quoted": f"{ctx.id}（“{ctx.title}”）" if lang == "zh" else f'{ctx.id} ("{ctx.title}")',
        "safe_state": ctx.safe_state or values["safe_state"],
        "ftti": ctx.ftti or values["ftti"],
    })
    if monitor and monitor != element:
        values["monitor"] = _LEAD.sub("", monitor)
    if signal:
        values["signal"] = _LEAD.sub("", signal)
    if reading.timing:
        values["deadline"] = re.sub(r"^(?:within\s+|在)|内$", "", reading.timing).strip()
    if reading.reusable:
        values["violation"] = violation(reading, element)
        if not reading.negated:
            values["response"] = reading.response
        elif lang == "en":
            values["response"] = f"not {reading.response}"  # "shall {response}" keeps "shall not ..."
    return values


def violation(reading: Reading, element: str) -> str:
    """A clause saying that the requirement read as ``reading`` is not met, with its negation and its
    conditions kept: "the driver brakes and the arbiter does not limit the request" for "When the driver
    brakes, the arbiter shall limit ...", "the EPS applies unintended torque" for "shall not apply"; a subject
    that is a fault ("Single-point failures shall not cause ...") stays the subject."""
    if reading.language == "zh":
        actor = reading.subject if reading.subject and not not_an_element(reading.subject) else element
        actor = reading.subject if reading.negated and reading.subject else actor
        core = f"{actor}{reading.response}" if reading.negated else f"{actor}未能{reading.response}"
        lead = "".join(f"在{text}期间" if kind == "state" else f"{text}而" for kind, text in reading.conditions
                       if kind != "optional")
        return f"{lead}{core}"
    actor_is_subject = bool(reading.subject) and (reading.negated or not not_an_element(reading.subject))
    actor = reading.subject if actor_is_subject else element
    plural = reading.plural if actor_is_subject else replace(reading, subject=element).plural or " and " in element
    the = "" if actor_is_subject and plural else "the "
    if reading.negated:
        core = f"{the}{actor} {reading.response if plural else third_person(reading.response)}"
    else:
        core = f"{the}{actor} {'do' if plural else 'does'} not {reading.response}"
    events = [text for kind, text in reading.conditions if kind in ("event", "unwanted")]
    states = [text for kind, text in reading.conditions if kind == "state"]
    return " and ".join([*events, core]) + "".join(f" while {s}" for s in states)


class _Missing(Exception):
    """A template names a slot the item cannot fill."""


def fill(template: str, values: dict[str, str]) -> str:
    """Fill ``{slots}``; raises :class:`_Missing` naming a slot without a value (never left visible)."""
    names = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    missing = names - set(values)
    if missing:
        raise _Missing(", ".join(sorted(missing)))
    text = template.format_map({k: v for k, v in values.items() if k in names})
    return text[0].upper() + text[1:] if template.startswith("{") and text[:1].islower() else text


def try_fill(template: str, values: dict[str, str]) -> str | None:
    """The filled template, or None when a slot is missing."""
    try:
        return fill(template, values)
    except _Missing:
        return None


def text_for(pattern: Pattern, field: dict[str, str] | None, ctx: ItemContext) -> str:
    """The pattern text in the item's language; "" when the pattern has none in that language (a pattern
    without a Chinese form is not used for a Chinese item: better fewer suggestions than broken ones)."""
    if not field:
        return ""
    return field.get("zh" if ctx.language == "zh" else "en", "")


def examples_for(pattern: Pattern, ctx: ItemContext, values: dict[str, str],
                 domain: str) -> list[tuple[str, tuple[str, ...]]]:
    """The pattern's example conditions that fit the item, filled, best first, each with the topic its
    citation must be about (the example's own ``topic``, else the pattern's): an example's cues must occur
    in the item (if it has any), its domains include the item's (if it names any), and its slots be filled;
    ties go to the one with most cues in the item."""
    raw = (pattern.examples or {}).get("zh" if ctx.language == "zh" else "en") or []
    words = item_words(ctx)
    scored = []
    for i, ex in enumerate(raw):
        ex = ex if isinstance(ex, dict) else {"text": str(ex)}
        if ex.get("domains") and domain not in ex["domains"]:
            continue
        cues = [str(c) for c in ex.get("cues", [])]
        if cues and not any(_has_cue(words, c) for c in cues):
            continue
        if any(n not in values for n in ex.get("needs", [])):
            continue
        text = try_fill(str(ex["text"]), values)
        if text is None:
            continue
        hits = sum(_has_cue(words, c) for c in cues)
        topic = tuple(str(t) for t in ex.get("topic", ())) or pattern.topic
        scored.append((-hits, i, text, topic))
    return [(t, topic) for _, _, t, topic in sorted(scored)]
