"""Evidence about what a suggestion says: the clauses a derived requirement or a rebuttal may cite.

Containing the quoted words is not enough: the clause must be about the suggestion's topic (the pattern's
``topic`` phrases, rules/patterns/*.yaml). A clause whose title names the topic is best; one whose text
names two of its phrases will do; a clause with a general title (the whole glossary "Terms and
definitions", a "Scope") is never cited, and neither is a definition of something else (ISO 26262-1 §3.98,
the multiple-point fault detection interval, for a reaction-time requirement). Fewer, better: at most two,
and the second only when its title names the topic as well.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from ...data import load_rules_yaml
from ..writing.compose import cite
from ..retrieval.loop import Evidence, LoopState
from ..writing.suggestions import Citation

MAX_CITATIONS = 2
_TITLE_WEIGHT = 3


@lru_cache(maxsize=1)
def _uncitable() -> frozenset[str]:
    return frozenset(str(t).lower() for t in load_rules_yaml("patterns/domains.yaml")["uncitable-titles"])


def uncitable(title: str) -> bool:
    """Whether a clause with this title is never cited, by any command (rules/patterns/domains.yaml): a whole
    glossary, a scope, the inputs or work products of a clause say nothing a suggestion or an answer rests on."""
    return title.strip().lower() in _uncitable()


def _mentions(text: str, phrase: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(phrase.lower()), text.lower()) is not None


def _is_definition(e: Evidence) -> bool:
    return e.document.endswith("26262-1") and e.clause.startswith("3.")


def topical_score(e: Evidence, topic: Iterable[str]) -> int:
    """How much ``e`` is about ``topic``: 3 per phrase in its title, 1 per phrase in its text (where two
    phrases, or one phrase of several words, must occur); 0 for general clauses and for definitions whose
    term is not one of the phrases."""
    title = (e.title or "").strip()
    if not e.clause or title.lower() in _uncitable():
        return 0
    phrases = [p for p in topic if p]
    in_title = sum(_mentions(title, p) for p in phrases)
    if _is_definition(e) and not any(title.lower().startswith(p.lower()) for p in phrases):
        return 0  # a definition counts only when its term is one of the phrases
    in_text = [p for p in phrases if _mentions(e.text, p)]
    score = _TITLE_WEIGHT * in_title + len(in_text)
    specific = len(in_text) >= 2 or any(" " in p for p in in_text)  # two phrases, or one of several words
    return score if in_title or specific else 0


def about(state: LoopState, topic: Iterable[str], query: str, documents: Iterable[str] = ()) -> list[Citation]:
    """Up to two citations from the gathered evidence about ``topic``, best first; documents in
    ``documents`` (the pattern's own clause hints) win ties. Quotes are picked with ``query``'s words."""
    phrases = tuple(topic)
    preferred = set(documents)
    scored = []
    for e in state.evidence.values():
        s = topical_score(e, phrases)
        if s:
            scored.append((-s, e.document not in preferred, -e.score, e.document, e.clause, e))
    scored.sort(key=lambda t: t[:5])
    out: list[Citation] = []
    for *_, e in scored:
        if out and not any(_mentions(e.title or "", p) for p in phrases):
            break  # a second citation only when its title names the topic too: fewer, better
        if any(c.document == e.document and (e.clause.startswith(c.clause + ".") or c.clause.startswith(e.clause + "."))
               for c in out):
            continue  # a clause and its own sub-clause say the same thing twice
        out.append(cite(e, f"{query} {' '.join(phrases)}"))
        if len(out) == MAX_CITATIONS:
            break
    return out
