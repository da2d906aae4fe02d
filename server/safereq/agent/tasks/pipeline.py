"""The four tasks — derive, links, rebut, ask — wired from plan, route, document agents, loop, compose, verify.

One :class:`Assistant` serves many requests over one knowledge source. With an endpoint configured the
model plans, routes, condenses, steers the loop and writes; without one the deterministic policies and the
patterns do. When any model step fails for good (after retries, at the task's deadline, or with the circuit
breaker open), or every suggestion the model wrote is dropped, the **whole task** runs again offline, from
the plan on, and the result says so (``mode`` "offline", ``fallback`` the reason): a result is never a
hybrid of the model's plan and offline steps. Either way every citation is verified; only verified ones are
returned, and a derived requirement, rebuttal, clause link or answer without one is not offered.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..writing.answering import answer_offline, expand, none_text, outside_index, outside_text, search_query
from ..writing.compose import answer_llm, derive_llm, rebut_llm
from ..trust.citing import uncitable
from .derive import derive_offline
from .rebut import rebut_offline
from ..item.context import WorkspaceView
from ..retrieval.documents import DocumentAgent, route_documents
from ..writing.generate import CancelToken, CircuitBreaker, CircuitOpen, LLMClient, LLMError, LLMSettings
from ..retrieval.knowledge import KnowledgeSource
from .linking import links_llm, links_offline
from ..retrieval.loop import DEFAULT_HOPS, EvidenceLoop, LoopState, add_hit
from ..retrieval.plan import Plan, RetrievalPlan, deterministic_plan, plan_from_llm, request_data
from ..retrieval.policies import LLMPolicy, OfflinePolicy
from ..writing.suggestions import MODE_LLM, MODE_OFFLINE, SuggestionSet, TraceLinkSuggestion
from ..trust.verify import UNCONFIRMED, Verifier

log = logging.getLogger(__name__)

TASKS = ("derive", "links", "rebut", "ask")
PLAN_TOKENS = 800
Progress = Callable[[str, int], None]


@dataclass(frozen=True, slots=True)
class AgentRequest:
    """One task for one item (``ask`` takes a question and no item)."""

    task: str
    view: WorkspaceView
    question: str = ""
    max_hops: int = DEFAULT_HOPS
    max_documents: int = 3


class NothingUsable(Exception):
    """The model answered, but nothing it wrote survived validation and verification."""


class Assistant:
    """Runs requests against one knowledge source with one LLM configuration (possibly none).

    The circuit breaker lives here, so it spans every request of a session (the editor's worker keeps one
    assistant per index): a task whose model attempt fails counts against it, one that the model completes
    closes it."""

    def __init__(self, source: KnowledgeSource, llm: LLMSettings | None = None, source_note: str = ""):
        self.source = source
        self.llm = llm or LLMSettings()
        self.source_note = source_note
        self.breaker = CircuitBreaker(self.llm.breaker_failures, self.llm.breaker_cooldown)

    def run(self, request: AgentRequest, *, cancel: CancelToken | None = None,
            progress: Progress | None = None) -> SuggestionSet:
        """Plan, gather evidence, compose, verify: the suggestions for one request."""
        self._check(request)
        cancel = cancel or CancelToken()
        report = progress or (lambda message, pct: None)
        notes: list[str] = [f"source: {self.source_note}"] if self.source_note else []
        fallback, tokens, attempted = "", {}, []
        if self.llm.enabled and self.breaker.open:
            fallback = "the circuit breaker is open after repeated model failures; the task ran offline"
        elif self.llm.enabled:
            client = LLMClient(self.llm, cancel, breaker=self.breaker)
            try:
                result = self._attempt(request, client, list(notes), cancel, report, attempted)
                self.breaker.succeeded()
                return result
            except LLMError as exc:
                if not isinstance(exc, CircuitOpen):
                    self.breaker.failed()
                fallback = f"the model failed ({exc}); the whole task ran offline instead"
            except NothingUsable as exc:
                fallback = f"{exc}; the whole task ran offline instead"
            finally:
                tokens = client.usage.as_dict()
                log.info("%s: %d LLM calls, %d prompt + %d completion tokens", request.task, tokens["calls"],
                         tokens["prompt_tokens"], tokens["completion_tokens"])
            log.warning("%s: %s", request.task, fallback)
        result = self._attempt(request, None, notes, cancel, report, [])
        result.fallback, result.tokens = fallback, tokens
        result.trace[:0] = [f"model attempt: {t}" for t in attempted]
        if fallback:
            result.notes.insert(1 if self.source_note else 0, f"fallback: {fallback}")
        return result

    def _check(self, request: AgentRequest) -> None:
        if request.task not in TASKS:
            raise ValueError(f"unknown task {request.task!r} (one of {', '.join(TASKS)})")
        if request.view.item is None and request.task != "ask":
            raise ValueError(f"{request.task} needs an item")

    def _attempt(self, request: AgentRequest, client: LLMClient | None, notes: list[str], cancel: CancelToken,
                 report: Progress, trace: list[str]) -> SuggestionSet:
        """One whole run in one mode: with ``client`` every step is the model's, without it every step is
        offline. ``trace`` collects the steps (kept for ``--verbose`` when a model attempt is abandoned)."""
        if request.task == "ask":
            names = outside_index(request.question, {d.document for d in self.source.documents()})
            if names:
                notes.append(outside_text(request.question, names))
                return SuggestionSet("ask", MODE_LLM if client else MODE_OFFLINE, "", [], notes, trace, {})
        policy: OfflinePolicy = LLMPolicy(client) if client else OfflinePolicy()
        plan, state = self.gather(request, client, policy, notes, cancel, report, trace)
        cancel.raise_if_cancelled()
        report("writing suggestions", 80)
        suggestions, more = self._compose(request, client, plan, state)
        notes.extend(more)
        report("verifying citations", 95)
        offered, more, unconfirmed = self._verified(request.task, suggestions, by_model=client is not None)
        if client is not None and not offered:
            raise NothingUsable("none of the model's suggestions survived validation and citation checks")
        if request.task == "ask" and not offered:
            # one sentence that says why, instead of the counts of what was left out on the way
            notes.append(none_text(request.question, unconfirmed))
        else:
            notes.extend(more)
        ctx = request.view.item
        return SuggestionSet(request.task, MODE_LLM if client else MODE_OFFLINE, ctx.id if ctx else "", offered,
                             notes, state.trace, client.usage.as_dict() if client else {})

    def _verified(self, task: str, suggestions: list, by_model: bool = False) -> tuple[list, list[str], list[str]]:
        """Only citations that stand (verified, or a clause summary) and whose clause may be cited are kept.
        An answer, a clause to cite and anything a model wrote needs one to be offered (evidence is what a
        model's text earns its place with); an offline derived requirement or rebuttal, built from the item's
        own words, stands on them, and carries a citation only where a clause is about it.

        Returns the suggestions offered, the notes on what was left out, and the documents of the citations
        left out because the catalogue has not confirmed their clause numbers for the edition (what an honest
        "nothing to cite" names)."""
        verifier = Verifier(self.source)
        failed, unsupported, out, unconfirmed = 0, 0, [], []
        for s in suggestions:
            checked, bad = verifier.check_all(s.citations)
            unconfirmed += [c.document for c in checked if c.note == UNCONFIRMED]
            cites = [c for c in checked if c.stands and not uncitable(c.title)]
            failed += bad
            link = isinstance(s, TraceLinkSuggestion)
            if not cites and (task == "ask" or (link and s.relation not in ("parent", "child"))
                              or (by_model and not link)):
                unsupported += 1
                continue
            out.append(replace(s, citations=cites))
        notes = []
        if failed:
            notes.append(f"{failed} citation(s) could not be verified against the index and are left out")
        if unsupported:
            what = "answer" if task == "ask" else "suggestion(s)"
            notes.append(f"{unsupported} {what} without a verified citation not offered")
        return out, notes, unconfirmed

    def gather(self, request: AgentRequest, client: LLMClient | None = None, policy: OfflinePolicy | None = None,
               notes: list[str] | None = None, cancel: CancelToken | None = None,
               report: Progress | None = None, trace: list[str] | None = None) -> tuple[Plan, LoopState]:
        """The agentic retrieval alone: plan, route, ask the document agents, run the loop. Returns the plan and
        the evidence state (the evaluation compares this evidence with plain top-k retrieval)."""
        self._check(request)
        ctx = request.view.item
        cancel = cancel or CancelToken()
        report = report or (lambda message, pct: None)
        policy = policy or OfflinePolicy()
        notes = notes if notes is not None else []
        trace = trace if trace is not None else []

        report("planning", 5)
        documents_info = self.source.documents()
        indexed = {d.document for d in documents_info}
        plan = self._plan(request, client, indexed, notes)
        trace.append(f"plan: topic {plan.spec.topic!r}; {plan.spec.question_type}; clauses "
                     f"{', '.join(f'{d} {c}' for d, c in plan.targets) or 'none'}; aspects "
                     f"{', '.join(a.id for a in plan.spec.aspects)}")
        trace.extend(f"resolved {r.text!r} → {r.document} {r.clause} ({r.how})" for r in plan.resolved)

        cancel.raise_if_cancelled()
        report("routing to documents", 15)
        query = " ".join([plan.spec.topic, *plan.spec.keywords[:8]]) if ctx else search_query(request.question)
        routed, priors, global_scores = route_documents(self.source, policy, query, preferred=plan.spec.documents,
                                         limit=request.max_documents)
        trace.extend(f"route: {doc} ({why})" for doc, why in routed)
        documents = list(dict.fromkeys([*plan.spec.documents, *(d for d, _ in routed)]))[:6]
        plan.spec = plan.spec.model_copy(update={"documents": documents})
        state = LoopState(plan, trace=trace, priors=priors)
        titles = {d.document: d.title for d in documents_info}
        for i, (doc, _) in enumerate(routed):
            cancel.raise_if_cancelled()
            report(f"reading {doc}", 20 + 25 * i // max(1, len(routed)))
            answer = DocumentAgent(self.source, doc, titles.get(doc, doc), policy, plan.spec.question_type).ask(query)
            if answer is None:
                trace.append(f"agent {doc}: nothing relevant; context discarded")
                continue
            trace.append(f"agent {doc} ({answer.engine} engine): {len(answer.hits)} relevant chunks")
            top = max((h.score for h in answer.hits), default=0.0) or 1.0
            for hit in answer.hits:  # on the whole-index scale: global score, else prior × score within the document
                score = global_scores.get((hit.document, hit.clause), priors.get(doc, 0.0) * hit.score / top)
                add_hit(state, replace(hit, score=score), f"agent:{answer.engine}")

        report("exploring the clause tree", 50)
        EvidenceLoop(self.source, policy, max_hops=request.max_hops, cancel=cancel,
                     progress=lambda message: report(message, 60)).run(state)
        return plan, state

    def _plan(self, request: AgentRequest, client: LLMClient | None, indexed: set[str], notes: list[str]) -> Plan:
        ctx = request.view.item
        if client is not None:
            proposed = client.structured(
                "plan_retrieval", RetrievalPlan,
                "Make a retrieval plan for the request: the topic, the question type, standards (e.g. "
                "'ISO 26262-9') and clauses to look at, keywords, the aspects the evidence must cover (each "
                "with a search query), and the clause references the request mentions, as written.",
                {"request": request_data(request.task, ctx, request.question),
                 "indexed_documents": sorted(indexed)}, max_tokens=PLAN_TOKENS)
            plan = plan_from_llm(request.task, ctx, request.question, indexed, proposed)
        else:
            plan = deterministic_plan(request.task, ctx, expand(request.question), indexed)
        notes.extend(plan.notes)
        return plan

    def _compose(self, request: AgentRequest, client: LLMClient | None, plan: Plan,
                 state: LoopState) -> tuple[list, list[str]]:
        view, task = request.view, request.task
        if client is not None:
            data = request_data(task, view.item, request.question)
            if task == "derive":
                return derive_llm(client, data, plan, state, view)
            if task == "links":
                return links_llm(client, data, plan, state, view)
            if task == "rebut":
                return rebut_llm(client, data, plan, state, view)
            return answer_llm(client, request.question, plan, state)
        if task == "derive":
            return derive_offline(plan, state, view)
        if task == "links":
            return links_offline(plan, state, view), []
        if task == "rebut":
            return rebut_offline(plan, state, view)
        answer = answer_offline(state, request.question)
        return ([answer] if answer.citations else []), []
