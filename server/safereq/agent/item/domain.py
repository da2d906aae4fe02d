"""Which kind of element an item is about (its domain) and what its requirement asks for (its nature).

Patterns are chosen by both (rules/patterns/domains.yaml): a key-value store is software, so it gets no
"degraded mode that keeps the vehicle controllable by the driver"; a design property ("shall be reentrant")
is not runtime behaviour, so it gets no runtime monitor; a process requirement ("Demonstrate that ...") gets
no technical requirement at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ...data import load_rules_yaml
from .context import ItemContext
from .reading import Reading

GENERIC = "generic"
_CJK = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True, slots=True)
class _Domain:
    name: str
    cues: re.Pattern[str] | None
    zh_cues: tuple[str, ...]
    not_after: frozenset[str]


def _cue_regex(cues: list[str]) -> re.Pattern[str] | None:
    latin = [c for c in cues if not _CJK.search(c)]
    if not latin:
        return None
    parts = [re.escape(c).replace(r"\ ", r"\s+") + (r"(?![\w-])" if len(c) <= 3 else "")
             for c in sorted(latin, key=len, reverse=True)]
    return re.compile(r"(?<![\w-])(?:" + "|".join(parts) + ")", re.IGNORECASE)


@lru_cache(maxsize=1)
def _domains() -> tuple[tuple[_Domain, ...], int]:
    raw = load_rules_yaml("patterns/domains.yaml")["domains"]
    out = []
    for name, spec in raw.items():
        if not isinstance(spec, dict):
            continue
        cues = [str(c) for c in spec.get("cues", [])]
        out.append(_Domain(name, _cue_regex(cues), tuple(c for c in cues if _CJK.search(c)),
                           frozenset(str(w).lower() for w in spec.get("not-after", []))))
    return tuple(out), int(raw.get("min-score", 2))


def _hits(domain: _Domain, text: str) -> int:
    n = 0
    if domain.cues is not None:
        for m in domain.cues.finditer(text):
            before = re.findall(r"[\w-]+", text[:m.start()][-20:])
            if before and before[-1].lower() in domain.not_after:
                continue
            n += 1
    return n + sum(text.count(c) for c in domain.zh_cues)


def scores(ctx: ItemContext, reading: Reading) -> dict[str, int]:
    """Cue hits per domain: the element and the subject weigh 3, the title 2, the statement and the other
    attributes 1."""
    domains, _ = _domains()
    parts = [(ctx.allocated_to, 3), (reading.subject, 3), (ctx.title, 2), (ctx.statement, 1),
             (" ".join(v for k, v in ctx.attributes.items() if k not in ("allocated-to", "derived-from")), 1)]
    return {d.name: sum(w * _hits(d, text) for text, w in parts if text) for d in domains}


def domain_of(ctx: ItemContext, reading: Reading) -> str:
    """The domain with the most cue weight, or ``generic`` when none reaches the minimum."""
    _, minimum = _domains()
    ranked = sorted(scores(ctx, reading).items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] < minimum:
        return GENERIC
    return ranked[0][0]


@lru_cache(maxsize=1)
def _natures() -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
    raw = load_rules_yaml("patterns/domains.yaml")["natures"]
    return tuple((name, frozenset(str(v).lower() for v in spec.get("verbs", [])),
                  frozenset(str(v).lower() for v in spec.get("be", []))) for name, spec in raw.items())


def nature_of(ctx: ItemContext, reading: Reading) -> str:
    """process, design, detection, reaction, goal or behaviour, from the response's first words."""
    response = reading.response.lower()
    words = re.findall(r"[\w-]+", response)
    for name, verbs, be in _natures():
        if reading.language == "zh":
            if any(response.startswith(v) or response.startswith("在") and v in response[:12] for v in verbs):
                return name
            continue
        if not words:
            break
        head = [w for w in words[:3] if not w.endswith("ly")]
        if not head:
            continue
        if head[0] in verbs or " ".join(head[:2]) in verbs:
            return name
        if head[0] == "be" and len(head) > 1 and (head[1] in be or (len(head) > 2 and head[1] in ("fully", "not")
                                                                   and head[2] in be)):
            return name
    if ctx.category == "safety-goal" and reading.negated:
        return "goal"
    return "behaviour"
