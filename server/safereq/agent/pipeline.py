"""The four tasks — derive, links, rebut, ask — wired from plan, route, document agents, loop, compose, verify.

One :class:`Assistant` serves many requests over one knowledge source. With an endpoint configured the
model plans, routes, condenses, steers the loop and writes; without one (or when it fails for good) the
deterministic policies and the patterns do. Either way every citation is verified before it is returned,
and the result says which mode made it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from .compose import answer_llm, answer_offline, derive_llm, rebut_llm
from .derive import derive_offline
from .rebut import rebut_offline
from .context import WorkspaceView
from .documents import DocumentAgent, route_documents
from .generate import CancelToken, LLMClient, LLMError, LLMSettings
from .knowledge import KnowledgeSource
from .linking import links_llm, links_offline
from .loop import DEFAULT_HOPS, EvidenceLoop, LoopState, add_hit
from .plan import Plan, RetrievalPlan, deterministic_plan, plan_from_llm, request_text
from .policies import LLMPolicy, OfflinePolicy
from .suggestions import MODE_LLM, MODE_OFFLINE, SuggestionSet
from .verify import Verifier

log = logging.getLogger(__name__)

TASKS = ("derive", "links", "rebut", "ask")
Progress = Callable[[str, int], None]


@dataclass(frozen=True, slots=True)
class AgentRequest:
    """One task for one item (``ask`` takes a question and no item)."""

    task: str
    view: WorkspaceView
    question: str = ""
    max_hops: int = DEFAULT_HOPS
    max_documents: int = 3
    drop_unverified: bool = False


class Assistant:
    """Runs requests against one knowledge source with one LLM configuration (possibly none)."""

    def __init__(self, source: KnowledgeSource, llm: LLMSettings | None = None, source_note: str = ""):
        self.source = source
        self.llm = llm or LLMSettings()
        self.source_note = source_note

    def run(self, request: AgentRequest, *, cancel: CancelToken | None = None,
            progress: Progress | None = None) -> SuggestionSet:
        """Plan, gather evidence, compose, verify: the suggestions for one request."""
        cancel = cancel or CancelToken()
        report = progress or (lambda message, pct: None)
        client = LLMClient(self.llm, cancel) if self.llm.enabled else None
        policy: OfflinePolicy = LLMPolicy(client) if client else OfflinePolicy()
        notes: list[str] = [f"source: {self.source_note}"] if self.source_note else []
        plan, state = self.gather(request, client, policy, notes, cancel, report)

        cancel.raise_if_cancelled()
        report("writing suggestions", 80)
        mode, suggestions = self._compose(request, client, plan, state, notes)
        notes.extend(n for n in policy.notes if n not in notes)

        report("verifying citations", 95)
        verifier = Verifier(self.source)
        failed_total = 0
        checked = []
        for s in suggestions:
            cites, failed = verifier.check_all(s.citations, drop_unverified=request.drop_unverified)
            failed_total += failed
            checked.append(replace(s, citations=cites))
        if failed_total:
            notes.append(f"{failed_total} citation(s) could not be verified against the index and are "
                         + ("left out" if request.drop_unverified else "marked unverified"))
        ctx = request.view.item
        tokens = client.usage.as_dict() if client else {}
        if client:
            log.info("%s %s: %d LLM calls, %d prompt + %d completion tokens", request.task, ctx.id if ctx else "",
                     tokens["calls"], tokens["prompt_tokens"], tokens["completion_tokens"])
        return SuggestionSet(request.task, mode, ctx.id if ctx else "", checked, notes, state.trace, tokens)

    def gather(self, request: AgentRequest, client: LLMClient | None = None, policy: OfflinePolicy | None = None,
               notes: list[str] | None = None, cancel: CancelToken | None = None,
               report: Progress | None = None) -> tuple[Plan, LoopState]:
        """The agentic retrieval alone: plan, route, ask the document agents, run the loop. Returns the plan and
        the evidence state (the evaluation compares this evidence with plain top-k retrieval)."""
        if request.task not in TASKS:
            raise ValueError(f"unknown task {request.task!r} (one of {', '.join(TASKS)})")
        ctx = request.view.item
        if ctx is None and request.task != "ask":
            raise ValueError(f"{request.task} needs an item")
        cancel = cancel or CancelToken()
        report = report or (lambda message, pct: None)
        policy = policy or OfflinePolicy()
        notes = notes if notes is not None else []
        trace: list[str] = []

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
        query = " ".join([plan.spec.topic, *plan.spec.keywords[:8]]) if ctx else request.question
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
            try:
                proposed = client.structured(
                    "plan_retrieval", RetrievalPlan,
                    "Make a retrieval plan for the request: the topic, the question type, standards (e.g. "
                    "'ISO 26262-9') and clauses to look at, keywords, the aspects the evidence must cover (each "
                    "with a search query), and the clause references the request mentions, as written. Indexed "
                    f"documents: {', '.join(sorted(indexed))}.",
                    request_text(request.task, ctx, request.question))
                return plan_from_llm(request.task, ctx, request.question, indexed, proposed)
            except LLMError as exc:
                notes.append(f"planning: endpoint failed ({exc}); used the deterministic planner")
        plan = deterministic_plan(request.task, ctx, request.question, indexed)
        notes.extend(plan.notes)
        return plan

    def _compose(self, request: AgentRequest, client: LLMClient | None, plan: Plan, state: LoopState,
                 notes: list[str]) -> tuple[str, list]:
        view, task = request.view, request.task
        if client is not None:
            text = request_text(task, view.item, request.question)
            try:
                if task == "derive":
                    out, more = derive_llm(client, text, plan, state, view)
                elif task == "links":
                    out, more = links_llm(client, text, plan, state, view)
                elif task == "rebut":
                    out, more = rebut_llm(client, text, plan, state, view)
                else:
                    out, more = [answer_llm(client, request.question, plan, state)], []
                notes.extend(more)
                return MODE_LLM, out
            except LLMError as exc:
                notes.append(f"writing: endpoint failed ({exc}); composed offline from the patterns instead")
        if task == "derive":
            out, more = derive_offline(plan, state, view)
            notes.extend(more)
            return MODE_OFFLINE, out
        if task == "links":
            return MODE_OFFLINE, links_offline(plan, state, view)
        if task == "rebut":
            out, more = rebut_offline(plan, state, view)
            notes.extend(more)
            return MODE_OFFLINE, out
        return MODE_OFFLINE, [answer_offline(plan, state, request.question)]
