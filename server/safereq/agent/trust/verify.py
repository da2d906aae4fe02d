"""Citation verification: a citation stands only if its clause is indexed and its quote is in that clause.

The quote is compared with the clause's indexed text after folding case, white space and typographic
quotes, with rapidfuzz's best partial alignment; a score at or above the threshold verifies it. Short quotes
(a few words prove nothing) and quotes of another clause do not verify. What fails is dropped or kept marked
``verified: False`` with a note saying why, as the caller chooses.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import replace

from ...knowledge.clause_ids import normalise_clause
from ...knowledge.types import ClauseText
from ..retrieval.knowledge import KnowledgeSource
from ..writing.suggestions import Citation

THRESHOLD = 90.0
MIN_QUOTE_CHARS = 12
UNCONFIRMED = "clause number not confirmed for its edition"  # the note of a catalogue entry never cited
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "—": "-", "–": "-", "\u00a0": " "})


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold()
    return re.sub(r"\s+", " ", text).strip(" .\"'")


def quote_score(quote: str, text: str) -> float:
    """How well ``quote`` matches its best-aligned span of ``text`` (0–100)."""
    from rapidfuzz import fuzz

    q, t = normalise(quote), normalise(text)
    if not q or not t:
        return 0.0
    if q in t:
        return 100.0
    if len(q) > len(t):
        return fuzz.ratio(q, t)
    return fuzz.partial_ratio_alignment(q, t).score


class Verifier:
    """Checks citations against one knowledge source, reading each clause once per request."""

    def __init__(self, source: KnowledgeSource, threshold: float = THRESHOLD):
        self.source = source
        self.threshold = threshold
        self._cache: dict[tuple[str, str], ClauseText | None] = {}

    def clause(self, document: str, clause: str) -> ClauseText | None:
        key = (document, normalise_clause(clause))
        if key not in self._cache:
            self._cache[key] = self.source.read(*key) if key[1] else None
        return self._cache[key]

    def check(self, citation: Citation) -> Citation:
        """The citation with ``verified`` set, its title and year filled from the index, and a note if it failed."""
        found = self.clause(citation.document, citation.clause)
        if found is None:
            return replace(citation, verified=False, note="clause not in the index")
        base = replace(citation, title=found.title, year=found.year, clause=found.clause)
        if found.kind == "catalogue" and not _catalogue_confirms(found):
            return replace(base, verified=False, note=UNCONFIRMED)
        quote = citation.quote.strip()
        if len(normalise(quote)) < MIN_QUOTE_CHARS:
            return replace(base, verified=False, note="quote too short to verify")
        score = quote_score(quote, found.text)
        if score >= self.threshold and found.kind == "catalogue":
            return replace(base, verified=False, summary=True, score=score,
                           note="safereq's summary of the clause: no indexed text of it to verify a quote against")
        if score >= self.threshold:
            return replace(base, verified=True, summary=False, score=score, note="")
        return replace(base, verified=False, score=score, note=f"quote not found in the clause text ({score:.0f}%)")

    def check_all(self, citations: Iterable[Citation]) -> tuple[list[Citation], int]:
        """Checked citations (duplicates merged) and how many failed; a failed one is kept, marked, so that the
        caller decides what an unverified citation costs its suggestion."""
        out: list[Citation] = []
        failed = 0
        seen: set[tuple[str, str, str]] = set()
        for c in citations:
            checked = self.check(c)
            key = (checked.document, checked.clause, normalise(checked.quote))
            if key in seen:
                continue
            seen.add(key)
            failed += not checked.stands
            out.append(checked)
        return out, failed


def _catalogue_confirms(found: ClauseText) -> bool:
    """Whether the shipped catalogue confirms the clause's number (and title) for its edition: a catalogue
    entry that was not checked against the edition's clause list is never cited as verified."""
    from ...knowledge.catalogue import get_catalogue

    entry = get_catalogue().get(found.document, found.clause)
    return entry is not None and entry.confirmed and (not found.year or entry.year == found.year)


def best_quote(text: str, query_words: Iterable[str], max_chars: int = 220,
               weights: dict[str, float] | None = None) -> str:
    """The sentence of ``text`` sharing most (``weights``-weighted) words with the query: an extractive quote,
    which verifies by construction."""
    from ..retrieval.knowledge import tokens

    words = set(query_words)
    w = weights or {}
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])(?<!e\.g\.)(?<!i\.e\.)(?<!etc\.)\s+|(?<=[。！？])\s*|\n+", text) if len(s.strip()) >= MIN_QUOTE_CHARS]
    if not sentences:
        return text.strip()[:max_chars]
    best = max(sentences, key=lambda s: (sum(w.get(t, 1.0) for t in words & set(tokens(s))), -sentences.index(s)))
    if len(best) <= max_chars:
        return best
    cut = best[:max_chars]
    return cut[: cut.rfind(" ")] if " " in cut else cut
