"""The decisions the pipeline delegates: routing, engine choice, condensation, next action, sufficiency.

:class:`OfflinePolicy` makes each decision deterministically (routing by retrieval scores, engine choice by
question type, extractive condensation, sufficiency by coverage). :class:`LLMPolicy` asks the model for the
same decisions through structured outputs and validates them. A valid reply that chooses nothing usable
(an index out of range) gets the offline choice for that decision; an endpoint that fails for good raises
:class:`~.generate.LLMError`, and the pipeline then runs the whole task offline: a step never mixes an
offline fallback into evidence the model already shaped.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..writing.generate import LLMClient
from .knowledge import tokens

log = logging.getLogger(__name__)

MIN_RELEVANT_OVERLAP = 2
DECISION_TOKENS = 300  # a routing, engine or loop decision: a few indexes and a reason
CONDENSE_TOKENS = 800


@dataclass(frozen=True, slots=True)
class Choice:
    """A routable thing (a document, an engine) with a description and, offline, a retrieval score."""

    name: str
    description: str
    score: float = 0.0


@dataclass(slots=True)
class Condensed:
    """A document agent's answer: condensed text and the (document, clause) pairs it rests on; empty = nothing."""

    text: str
    clauses: list[tuple[str, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.text.strip())


@dataclass(frozen=True, slots=True)
class Action:
    """One step of the planning loop."""

    kind: Literal["browse", "read", "search", "stop"]
    document: str = ""
    clause: str = ""
    query: str = ""
    reason: str = ""


# -- schemas the LLM answers in --------------------------------------------------------------------------
class Selection(BaseModel):
    model_config = ConfigDict(extra="forbid")
    index: int = Field(ge=0)
    reason: str = Field(default="", max_length=300)


class Selections(BaseModel):
    model_config = ConfigDict(extra="forbid")
    choices: list[Selection] = Field(max_length=6)


class CondensedOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    relevant: bool
    context: str = Field(default="", max_length=3000)
    clauses: list[str] = Field(default_factory=list, max_length=10)


class ActionOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["browse", "read", "search", "stop"]
    document: str = Field(default="", max_length=60)
    clause: str = Field(default="", max_length=40)
    query: str = Field(default="", max_length=300)
    reason: str = Field(default="", max_length=300)


# -- offline ---------------------------------------------------------------------------------------------
def overlap(a: str, b: str | set[str]) -> int:
    bw = b if isinstance(b, set) else set(tokens(b))
    return len(set(tokens(a)) & bw)


def extractive(query: str, chunks: Sequence[tuple[str, str, str]], max_sentences: int = 4) -> Condensed:
    """Keep the chunks (document, clause, text) that share enough content words with the query; condense them
    to their best-matching sentences. Nothing relevant gives an empty result, so the context is discarded."""
    import re

    q = set(tokens(query))
    kept = [(i, doc, clause, text) for i, (doc, clause, text) in enumerate(chunks)
            if overlap(text, q) >= min(1, len(q))]
    if not kept:
        return Condensed("")
    scored: list[tuple[int, int, str, tuple[str, str]]] = []
    for i, doc, clause, text in kept:
        sentences = [s.strip() for s in re.split(r"(?<=[.!?])(?<!e\.g\.)(?<!i\.e\.)(?<!etc\.)\s+|(?<=[。！？])\s*|\n+", text) if len(s.strip()) > 10] or [text]
        best = max(sentences, key=lambda s: overlap(s, q))
        scored.append((overlap(best, q), i, best, (doc, clause)))
    scored.sort(key=lambda x: (-x[0], x[1]))
    text = " ".join(f"[{d} {c}] {s}" for _, _, s, (d, c) in scored[:max_sentences])
    return Condensed(text, [c for *_, c in sorted(scored, key=lambda x: x[1])])


class OfflinePolicy:
    """Deterministic decisions; also the fallback of :class:`LLMPolicy`."""

    mode = "offline"

    def route(self, choices: Sequence[Choice], query: str, limit: int) -> list[tuple[int, str]]:
        ranked = sorted(range(len(choices)), key=lambda i: (-choices[i].score, i))
        return [(i, f"retrieval score {choices[i].score:.3f}") for i in ranked if choices[i].score > 0][:limit]

    def pick_engine(self, choices: Sequence[Choice], query: str, question_type: str) -> int:
        for i, c in enumerate(choices):
            if c.name == ("summary" if question_type == "overview" else "vector"):
                return i
        return 0

    def condense(self, query: str, chunks: Sequence[tuple[str, str, str]]) -> Condensed:
        return extractive(query, chunks)

    def next_action(self, state: object) -> Action | None:
        """None lets the loop apply its own deterministic frontier policy."""
        return None


class LLMPolicy(OfflinePolicy):
    """Decisions by the model, validated; :class:`~.generate.LLMError` propagates (the task falls back whole)."""

    mode = "llm"

    def __init__(self, client: LLMClient) -> None:
        self.client = client

    def route(self, choices: Sequence[Choice], query: str, limit: int) -> list[tuple[int, str]]:
        out = self.client.structured(
            "route_documents", Selections,
            f"Pick at most {limit} documents most relevant to the request, by their index, with a reason.",
            {"request": query, "documents": [{"index": i, "name": c.name, "description": c.description}
                                             for i, c in enumerate(choices)]}, max_tokens=DECISION_TOKENS)
        picked = [(s.index, s.reason) for s in out.choices if s.index < len(choices)]
        return list(dict.fromkeys(picked))[:limit] or super().route(choices, query, limit)

    def pick_engine(self, choices: Sequence[Choice], query: str, question_type: str) -> int:
        out = self.client.structured(
            "pick_engine", Selections, "Pick the one engine, by its index, that best answers the question.",
            {"question": query, "engines": [{"index": i, "name": c.name, "description": c.description}
                                            for i, c in enumerate(choices)]}, max_tokens=DECISION_TOKENS)
        valid = [s.index for s in out.choices if s.index < len(choices)]
        return valid[0] if valid else super().pick_engine(choices, query, question_type)

    def condense(self, query: str, chunks: Sequence[tuple[str, str, str]]) -> Condensed:
        out = self.client.structured(
            "condense", CondensedOut,
            "Condense the context to what is relevant to the question, keeping clause numbers. If nothing "
            "is relevant set relevant=false and leave context empty.",
            {"question": query, "context": [{"document": d, "clause": c, "text": t} for d, c, t in chunks]},
            max_tokens=CONDENSE_TOKENS)
        if not out.relevant or not out.context.strip():
            return Condensed("")
        known = {c for _, c, _ in chunks}
        cited = [(d, c) for d, c, _ in chunks if c in set(out.clauses) & known] or [(d, c) for d, c, _ in chunks]
        return Condensed(out.context, list(dict.fromkeys(cited)))

    def next_action(self, state: object) -> Action | None:
        out = self.client.structured(
            "next_action", ActionOut,
            "Choose the next step to gather evidence: browse a clause's children, read a clause, search, or "
            "stop when the evidence suffices. Use only documents and clauses listed in the state.",
            state.describe(), max_tokens=DECISION_TOKENS)  # type: ignore[attr-defined]
        return Action(out.action, out.document, out.clause, out.query, out.reason)
