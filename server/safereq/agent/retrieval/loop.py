"""The planning loop over the clause tree: gather evidence until it suffices or the hop budget is spent.

State: the evidence gathered so far (clauses read, hits found), the frontier of clauses worth reading, and
what was already visited. Actions: browse a clause's children, read a clause, search. The plan's clauses are
read first; then the offline policy reads the most promising unread clause on the frontier (scored by the
overlap of its title with the uncovered aspects), then searches for what is still uncovered; the LLM policy
proposes actions, which are checked against the state (an action on a clause the agent has never seen, or
a repeated one, is replaced by the offline choice). Sufficiency is coverage: every aspect of the plan has
evidence that shares enough words with it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from ...knowledge.clause_ids import normalise_clause
from ...knowledge.types import Hit
from ..writing.generate import CancelToken
from .knowledge import KnowledgeSource, tokens
from .plan import Plan
from .policies import MIN_RELEVANT_OVERLAP, Action, OfflinePolicy

log = logging.getLogger(__name__)

DEFAULT_HOPS = 8


@dataclass(slots=True)
class Evidence:
    """A clause (or chunk of one) the agent has seen, with how it got there and how relevant it looked."""

    document: str
    year: str
    clause: str
    title: str
    text: str
    score: float
    via: str

    @property
    def key(self) -> tuple[str, str]:
        """(document, clause); a section without a number (Markdown corpora) is keyed by its title."""
        return (self.document, self.clause or f"title:{self.title}")


@dataclass(slots=True)
class LoopState:
    plan: Plan
    evidence: dict[tuple[str, str], Evidence] = field(default_factory=dict)
    frontier: dict[tuple[str, str], str] = field(default_factory=dict)
    browsed: set[tuple[str, str]] = field(default_factory=set)
    searched: set[str] = field(default_factory=set)
    hops: int = 0
    trace: list[str] = field(default_factory=list)
    priors: dict[str, float] = field(default_factory=dict)

    def add(self, ev: Evidence) -> None:
        old = self.evidence.get(ev.key)
        if old is None or (old.via == "search" and ev.via == "read") or ev.score > old.score and ev.via == old.via:
            self.evidence[ev.key] = ev
        self.frontier.pop(ev.key, None)

    def coverage(self) -> dict[str, list[tuple[str, str]]]:
        """For each aspect, the evidence that covers it (shares at least two content words with its query)."""
        out: dict[str, list[tuple[str, str]]] = {}
        for aspect in self.plan.spec.aspects:
            words = set(tokens(aspect.query))
            out[aspect.id] = [k for k, ev in self.evidence.items()
                              if len(words & set(tokens(f"{ev.title} {ev.text}"))) >= MIN_RELEVANT_OVERLAP]
        return out

    def uncovered(self) -> list[str]:
        return [a for a, keys in self.coverage().items() if not keys]

    def sufficient(self) -> bool:
        return bool(self.evidence) and not self.uncovered()

    def describe(self) -> dict[str, object]:
        """The state as the LLM policy sees it (inside its data block): the plan, uncovered aspects, evidence
        titles, the frontier."""
        return {
            "topic": self.plan.spec.topic,
            "aspects": [{"id": a.id, "query": a.query} for a in self.plan.spec.aspects],
            "uncovered": self.uncovered(), "documents": list(self.plan.spec.documents), "hops_used": self.hops,
            "evidence": [{"document": d, "clause": c, "title": e.title, "via": e.via}
                         for (d, c), e in list(self.evidence.items())[:30]],
            "unread_clauses": [{"document": d, "clause": c, "title": t} for (d, c), t in list(self.frontier.items())[:30]],
        }


class EvidenceLoop:
    """Runs actions against a knowledge source until the state is sufficient or ``max_hops`` is reached."""

    def __init__(self, source: KnowledgeSource, policy: OfflinePolicy, *, max_hops: int = DEFAULT_HOPS,
                 cancel: CancelToken | None = None, progress: Callable[[str], None] | None = None):
        self.source, self.policy, self.max_hops = source, policy, max_hops
        self.cancel = cancel or CancelToken()
        self.progress = progress or (lambda message: None)

    def run(self, state: LoopState) -> LoopState:
        for doc, clause in state.plan.targets:
            state.frontier.setdefault((doc, clause), "planned")
        while state.hops < self.max_hops:
            self.cancel.raise_if_cancelled()
            if state.sufficient() and "planned" not in state.frontier.values():
                state.trace.append(f"stop: every aspect covered after {state.hops} hops")
                return state
            planned = [k for k, why in state.frontier.items() if why == "planned"]
            if planned:  # the plan's own clauses are read first, without asking the policy
                action: Action | None = Action("read", *planned[0], reason="named by the plan")
            else:
                action = self._checked(self.policy.next_action(state), state) or self._offline_action(state)
            if action is None or action.kind == "stop":
                state.trace.append(f"stop: {action.reason if action else 'nothing left to explore'}")
                return state
            state.hops += 1
            self.progress(f"{action.kind} {action.document} {action.clause or action.query}".strip())
            self._apply(action, state)
        state.trace.append(f"stop: hop budget of {self.max_hops} spent"
                           + (f"; uncovered: {', '.join(state.uncovered())}" if state.uncovered() else ""))
        return state

    def _checked(self, action: Action | None, state: LoopState) -> Action | None:
        """An LLM action, if it only touches what the state knows and does not repeat itself."""
        if action is None:
            return None
        if action.kind == "stop":
            return action if state.evidence else None
        key = (action.document, normalise_clause(action.clause))
        known = set(state.frontier) | set(state.evidence) | set(state.browsed)
        if action.kind == "search":
            ok = bool(action.query.strip()) and action.query not in state.searched
        elif action.kind == "read":
            ok = key in state.frontier
        else:
            ok = key in known and key not in state.browsed
        if not ok:
            state.trace.append(f"ignored model action {action.kind} {action.document} {action.clause or action.query}")
            return None
        return action

    def _offline_action(self, state: LoopState) -> Action | None:
        uncovered = state.uncovered()
        if state.frontier and (uncovered or not state.evidence):
            words = set(tokens(" ".join(a.query for a in state.plan.spec.aspects if a.id in uncovered)))
            best = max(state.frontier, key=lambda k: (len(words & set(tokens(state.frontier[k]))), -list(state.frontier).index(k)))
            if len(words & set(tokens(state.frontier[best]))) >= 1:
                return Action("read", *best, reason="frontier clause matching an uncovered aspect")
        for aspect in state.plan.spec.aspects:
            if aspect.id in uncovered and aspect.query not in state.searched:
                return Action("search", query=aspect.query, reason=f"aspect {aspect.id} uncovered")
        for key in list(state.evidence):
            if key not in state.browsed and state.evidence[key].via == "read" and uncovered:
                return Action("browse", *key, reason="look below a relevant clause")
        return None

    def _apply(self, action: Action, state: LoopState) -> None:
        key = (action.document, normalise_clause(action.clause))
        if action.kind == "read":
            found = self.source.read(*key)
            state.frontier.pop(key, None)
            if found is None:
                state.trace.append(f"read {key[0]} {key[1]}: not in the index")
                return
            state.add(Evidence(found.document, found.year, found.clause, found.title, found.text, 1.0, "read"))
            for clause, title in found.children:
                if (found.document, clause) not in state.evidence:
                    state.frontier.setdefault((found.document, clause), title)
            state.trace.append(f"read {key[0]} {key[1]} ({found.title})")
        elif action.kind == "browse":
            state.browsed.add(key)
            kids = self.source.children(*key)
            for clause, title in kids:
                if (key[0], clause) not in state.evidence:
                    state.frontier.setdefault((key[0], clause), title)
            state.trace.append(f"browse {key[0]} {key[1]}: {len(kids)} children")
        elif action.kind == "search":
            state.searched.add(action.query)
            hits = self.source.search(action.query, documents=state.plan.spec.documents or None, limit=5)
            for h in hits:
                add_hit(state, h, "search")
            state.trace.append(f"search {action.query[:60]!r}: {len(hits)} hits")


def add_hit(state: LoopState, hit: Hit, via: str) -> None:
    state.add(Evidence(hit.document, hit.year, hit.clause, hit.title, hit.text, hit.score, via))
