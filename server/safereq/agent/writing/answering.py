"""Answers to free questions (``safereq ask``) offline: the clause that states it, in the question's language.

Honest first: a question about documents none of which is indexed (UN R155 when only ISO 26262 is) gets "the
index holds nothing on UN R155", not the nearest fragments; a clause is used only when it shares at least
``min-shared`` content words with the question (rules/patterns/ask.yaml); titles that are never cited
(rules/patterns/domains.yaml: "Inputs to this clause", "General", "Scope" …) are left out; a definition is
preferred only when the question asks what a term means, otherwise the clause that states the requirement.
Sentences are taken whole, never cut. A Chinese question is searched with the English terms of the glossary
(the catalogue is searched in English) and answered in Chinese: the catalogue's Chinese title and summary of
each clause (``title_zh``, ``summary_zh``, our words like the English ones), marked as ours; a quote from
text the user indexed is shown as written.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from ...data import load_rules_yaml
from ..retrieval.knowledge import tokens
from ..retrieval.loop import Evidence, LoopState
from ..trust.citing import uncitable
from ..trust.verify import best_quote
from .suggestions import Answer, Citation

MAX_CLAUSES = 3
_CJK = re.compile(r"[\u4e00-\u9fff]")


@lru_cache(maxsize=1)
def _rules() -> dict[str, Any]:
    return load_rules_yaml("patterns/ask.yaml")


def language(question: str) -> str:
    return "zh" if _CJK.search(question) else "en"


def expand(question: str) -> str:
    """The question with the English search terms of the Chinese terms it contains (longest first)."""
    extra, rest = [], question
    for term, english in sorted(_rules()["glossary"].items(), key=lambda kv: -len(kv[0])):
        if term in rest:
            extra.append(english)
            rest = rest.replace(term, " ")
    return f"{question} {' '.join(extra)}".strip() if extra else question


def search_query(question: str) -> str:
    """What to search the index with: the question's content words (Chinese terms in English too), without
    the words that say nothing about what is asked and without the names of the documents."""
    words = _content(question)
    ordered = [w for w in dict.fromkeys(tokens(expand(question))) if w in words]
    return " ".join(ordered) or expand(question)


def named_documents(question: str) -> list[str]:
    """The documents the question names ("UN R155", "ISO 26262", "IEC 62304"), as written."""
    out = []
    for pattern in _rules()["standards"]:
        out += [" ".join(m.group(0).split()) for m in re.finditer(pattern, question, re.IGNORECASE)]
    return list(dict.fromkeys(out))


def _key(name: str) -> str:
    return re.sub(r"[\s/]+", "", name).lower()


def outside_index(question: str, indexed: set[str]) -> list[str]:
    """The documents the question names when none of them is indexed (a part counts for its series: an
    indexed ISO 26262-2 covers "ISO 26262"); empty when it names none or one is indexed."""
    names = named_documents(question)
    keys = {_key(d) for d in indexed}
    covered = [n for n in names if any(k == _key(n) or k.startswith(_key(n) + "-") or _key(n).startswith(k)
                                       for k in keys)]
    return names if names and not covered else []


def outside_text(question: str, names: list[str]) -> str:
    return _rules()["answer"][language(question)]["outside"].format(names=", ".join(names))


def none_text(question: str, unconfirmed: list[str] | None = None) -> str:
    """"Nothing in the index answers this", or, when only catalogue entries whose numbers are not confirmed
    for their edition answered (and were therefore not cited), for which documents and what would help (the
    clauses themselves are not named: an unconfirmed number is what must not be passed on)."""
    texts = _rules()["answer"][language(question)]
    if unconfirmed:
        return texts["unconfirmed"].format(documents=", ".join(dict.fromkeys(unconfirmed)))
    return texts["none"]


def _content(question: str) -> set[str]:
    generic = {str(w).lower() for w in _rules()["generic"]}
    generic |= {t for name in named_documents(question) for t in tokens(name)}
    words = {w for w in set(tokens(expand(question))) - generic if not w.isdigit()}
    return {w for w in words if not _CJK.match(w)} or words


def _stems(words) -> set[str]:
    """Words cut to five letters, so "trained" meets "training" and "requirement" "requirements"."""
    return {w[:5] if len(w) > 5 else w for w in words}


def _is_definition(e: Evidence) -> bool:
    return e.clause.startswith("3.") and not e.clause.startswith("3.0")


def relevant(state: LoopState, question: str) -> list[Evidence]:
    """The evidence that answers the question, best first: shared content words (the title's count double),
    requirement clauses before definitions unless the question asks for a meaning."""
    words = _stems(_content(question))
    wants_definition = any(re.search(c, question, re.IGNORECASE) for c in _rules()["definition-cues"])
    need = min(int(_rules()["min-shared"]), max(1, len(words)))
    scored = []
    for e in state.evidence.values():
        if not e.clause or uncitable(e.title or ""):
            continue
        in_title = words & _stems(tokens(e.title or ""))
        shared = words & _stems(tokens(f"{e.title} {e.text}"))
        if len(shared) < need:
            continue
        definition_rank = 0 if wants_definition == _is_definition(e) else 1
        scored.append(((definition_rank, -(2 * len(in_title) + len(shared)), -e.score, e.document, e.clause), e))
    return [e for _, e in sorted(scored, key=lambda s: s[0])]


def _in_chinese(e: Evidence, quote: str) -> tuple[str, str]:
    """The clause's title and text for a Chinese answer: the catalogue's Chinese title and summary when the
    evidence is the catalogue's own English summary (our words, so ours to give in Chinese too); a quote from
    text the user indexed stays as written."""
    from ...knowledge.catalogue import get_catalogue

    entry = get_catalogue().get(e.document, e.clause) if e.clause else None
    if entry is None or not entry.summary_zh or " ".join(e.text.split()) != " ".join(entry.summary.split()):
        return e.title, quote
    return entry.title_zh or e.title, entry.summary_zh


def answer_offline(state: LoopState, question: str) -> Answer:
    """The whole best sentence of each of the (up to three) clauses that answer the question."""
    best = relevant(state, question)[:MAX_CLAUSES]
    lang = language(question)
    if not best:
        return Answer(none_text(question))
    words = list(_content(question))
    pool = [set(tokens(e.text)) for e in state.evidence.values()]
    weights = {w: math.log(1 + len(pool) / (1 + sum(w in p for p in pool))) for w in words}  # rare words weigh more
    quotes = [best_quote(e.text, words, max_chars=10_000, weights=weights) for e in best]
    cites = [Citation(e.document, e.clause, q, title=e.title, year=e.year) for q, e in zip(quotes, best)]
    lead = _rules()["answer"][lang]["lead"]
    if lang == "zh":
        shown = [_in_chinese(e, q) for e, q in zip(best, quotes)]
        body = "".join(f" {n}. {c.label}《{title}》：{text}"
                       for n, ((title, text), c) in enumerate(zip(shown, cites), start=1))
        return Answer(lead + body, cites)
    return Answer(lead + " " + " ".join(f"{q.rstrip()} ({c.label}, {c.title})" for q, c in zip(quotes, cites)), cites)
