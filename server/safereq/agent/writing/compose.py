"""Turning evidence into suggestions: offline from the patterns, or by the LLM under validation.

Whoever writes the text, the same rules hold afterwards: a derived requirement gets a fresh ID that
collides with nothing in the workspace, its parent in "Derived from", one binding modal verb, and the
inherited ASIL or a valid decomposition; trace links point only at items that exist and clauses that are
indexed; citations go through :mod:`.verify`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ...workspace.asil import decomposition_schemes, is_valid_decomposition, parse_asil, rank
from ..item.context import WorkspaceView
from ..item.domain import domain_of, nature_of
from ..item.reading import read_statement
from .analogues import house_examples, house_kind, keeps_limits
from .generate import LLMClient
from ..retrieval.knowledge import tokens
from ..retrieval.loop import Evidence, LoopState
from ..retrieval.plan import Plan
from ..trust.admit import admit
from ..trust.sanitise import quote_line
from .suggestions import Answer, Citation, DerivedRequirement, Rebuttal
from ..trust.verify import best_quote

_EN_MODALS = re.compile(r"\b(shall|must|will|should|has to|needs to)\b", re.IGNORECASE)
_ZH_MODALS = re.compile(r"应|必须|需要")
CONTEXT_CHARS = 1500
MAX_CONTEXT = 12


def modal_count(statement: str, language: str) -> int:
    return len((_ZH_MODALS if language == "zh" else _EN_MODALS).findall(statement))


# -- IDs and ASILs ---------------------------------------------------------------------------------------
def new_ids(parent_id: str, kind: str, taken: Iterable[str], count: int) -> list[str]:
    """``count`` fresh IDs of ``kind`` in the parent's naming scheme, colliding with nothing in ``taken``.

    FSR-PER-012 → TSR-PER-<next>: the parent's middle segments are kept, and numbering continues after the
    highest existing ID of that kind and middle (with its digit width).
    """
    segments = re.split(r"[-_.]", parent_id)
    sep = next((c for c in parent_id if c in "-_."), "-")
    middle = [s for s in segments[1:] if not s.isdigit()]
    stem = sep.join([kind, *middle])
    taken_set = set(taken)
    numbers = [(int(m.group(1)), len(m.group(1))) for t in taken_set
               if (m := re.fullmatch(re.escape(stem) + r"[-_.](\d+)", t))]
    width = max((w for _, w in numbers), default=len(segments[-1]) if segments[-1].isdigit() else 1)
    n = max((v for v, _ in numbers), default=0)
    out: list[str] = []
    while len(out) < count:
        n += 1
        candidate = f"{stem}{sep}{n:0{width}d}"
        if candidate not in taken_set:
            out.append(candidate)
            taken_set.add(candidate)
    return out


def decomposition_for(asil: str) -> tuple[str, str] | None:
    """The most balanced decomposition of an ASIL without a QM half (B(D)+B(D) for D, B(C)+A(C) for C)."""
    value = parse_asil(asil) if asil else None
    if value is None or value.decomposed or value.level in ("QM", "A"):
        return None
    schemes = [p for p in decomposition_schemes(value.level) if "QM" not in p]
    if not schemes:
        return None
    a, b = min(schemes, key=lambda p: abs(rank(p[0]) - rank(p[1])))
    return f"{a}({value.level})", f"{b}({value.level})"


def asils_acceptable(proposed: list[str], inherited: str) -> bool:
    """Every child at the inherited ASIL, except exactly two that form a valid decomposition of it."""
    parent = parse_asil(inherited) if inherited else None
    if parent is None:
        return True
    values = [parse_asil(a) for a in proposed]
    if any(v is None for v in values):
        return False
    plain = [v for v in values if v is not None and not v.decomposed]
    decomposed = [v for v in values if v is not None and v.decomposed]
    if any(v.level != parent.level or v.original != parent.original for v in plain):
        return False
    if not decomposed:
        return True
    return (len(decomposed) == 2 and all(v.original == parent.effective for v in decomposed)
            and is_valid_decomposition(parent.effective, [v.level for v in decomposed]))


# -- citations from evidence -----------------------------------------------------------------------------
def ranked_evidence(state: LoopState, query: str, keys: Iterable[tuple[str, str]] | None = None,
                    by: str = "overlap") -> list[Evidence]:
    """Evidence, most relevant first: by words shared with ``query`` (pattern aspects), or ``by="retrieval"``
    by the whole-index retrieval score (a clause read whole counts as its document's prior) (free questions)."""
    words = set(tokens(query))
    pool = [state.evidence[k] for k in keys] if keys is not None else list(state.evidence.values())

    def shared(e: Evidence) -> int:
        return len(words & set(tokens(f"{e.title} {e.text}")))

    if by == "retrieval":
        return sorted(pool, key=lambda e: (-e.score if e.via != "read" else -state.priors.get(e.document, 1.0),
                                           -shared(e), e.document, e.clause))
    return sorted(pool, key=lambda e: (-shared(e), -e.score, e.document, e.clause))


def citable(evidence: list[Evidence]) -> list[Evidence]:
    """Evidence a citation can name: a numbered clause (unnumbered Markdown sections cannot be resolved)."""
    return [e for e in evidence if e.clause]


def cite(evidence: Evidence, query: str) -> Citation:
    return Citation(evidence.document, evidence.clause, best_quote(evidence.text, tokens(query)), title=evidence.title,
                    year=evidence.year)


def evidence_context(state: LoopState, query: str) -> list[dict[str, str]]:
    """The evidence as the LLM sees it: JSON records, most relevant first, each clause's text capped."""
    return [{"document": e.document, "clause": e.clause, "title": e.title, "text": e.text[:CONTEXT_CHARS]}
            for e in ranked_evidence(state, query)[:MAX_CONTEXT]]


# -- offline composition ---------------------------------------------------------------------------------
# -- LLM composition -------------------------------------------------------------------------------------
_NATURE_HINT = {
    "process": "The item is a process requirement: refine it into who does what, when, and with which work "
               "product or record as evidence; never a runtime monitor, a safe state or a fault reaction.",
    "design": "The item is a design property: refine it into interface, error, resource and timing "
              "requirements of its element; no runtime monitor unless the item asks for one.",
    "behaviour": "Refine the item into what its element does at its interfaces, on errors, with its resources "
                 "and in time; a monitor or a safe state only where the item's own words call for one.",
}
_PROCESS_ONLY_RUNTIME = re.compile(r"safe state|fault tolerant time|FTTI|safety monitor|安全状态|容错时间", re.IGNORECASE)


def _unfit(item: str, statement: str, nature: str) -> str:
    """Why a model's derived requirement does not fit the item ("" when it fits): it loses a number of the
    item, or gives a process requirement a runtime reaction."""
    if not keeps_limits(item, statement, negation=False):
        return "it loses a limit of the item"
    if nature == "process" and _PROCESS_ONLY_RUNTIME.search(statement):
        return "a runtime monitor or safe state for a process requirement"
    return ""


def restates(item: str, text: str) -> bool:
    """Whether a rebuttal only restates the item (most of its words are the item's, in the item's order)."""
    from difflib import SequenceMatcher

    return SequenceMatcher(None, item.lower().split(), text.lower().split(), autojunk=False).ratio() >= 0.75
class _Output(BaseModel):
    """What a model writes: a field it makes up is an error (the schema it is given forbids extra fields)."""

    model_config = ConfigDict(extra="forbid")


class CitationOut(_Output):
    document: str = Field(max_length=60)
    clause: str = Field(max_length=40)
    quote: str = Field(max_length=600)


class RequirementOut(_Output):
    title: str = Field(max_length=160)
    statement: str = Field(max_length=600)
    ears: Literal["ubiquitous", "event", "state", "unwanted", "optional", "complex"] = "ubiquitous"
    asil: str = Field(default="", max_length=8)
    pattern: str = Field(default="", max_length=60)
    rationale: str = Field(default="", max_length=400)
    citations: list[CitationOut] = Field(default_factory=list, max_length=4)


class DerivedOut(_Output):
    requirements: list[RequirementOut] = Field(max_length=8)


class RebuttalOut(_Output):
    category: Literal["unhandled failure mode", "SOTIF triggering condition", "violated assumption", "common-cause failure"]
    statement: str = Field(max_length=600)
    mitigation: str = Field(default="", max_length=300)
    citations: list[CitationOut] = Field(default_factory=list, max_length=3)


class RebuttalsOut(_Output):
    rebuttals: list[RebuttalOut] = Field(max_length=8)


class AnswerOut(_Output):
    answer: str = Field(max_length=3000)
    citations: list[CitationOut] = Field(default_factory=list, max_length=6)


def _citations(raw: list[CitationOut]) -> list[Citation]:
    """The model's citations as records to verify; a quote is data, so only its control characters go."""
    return [Citation(quote_line(c.document)[:60], quote_line(c.clause)[:40], quote_line(c.quote)) for c in raw]


def _vocabulary(view: WorkspaceView, state: LoopState) -> set[str]:
    """The words a suggestion may be about: the item's, its neighbours' and the evidence's."""
    ctx = view.item
    texts = [f"{e.title} {e.text}" for e in state.evidence.values()]
    if ctx is not None:
        texts += [ctx.title, ctx.statement, " ".join(ctx.attributes.values()),
                  *(f"{p.title} {p.statement}" for p in (*ctx.parents, *ctx.children))]
    return set(tokens(" ".join(texts)))


def derive_llm(client: LLMClient, request: dict, plan: Plan, state: LoopState, view: WorkspaceView) -> tuple[list[DerivedRequirement], list[str]]:
    ctx = view.item
    assert ctx is not None
    reading = read_statement(ctx.statement, ctx.language)
    domain, nature = domain_of(ctx, reading), nature_of(ctx, reading)
    patterns = "; ".join(f"{p.id} ({p.name}, EARS {p.ears})" for p in plan.patterns)
    out = client.structured(
        "derive_requirements", DerivedOut,
        "Derive requirements from the item, fewer and better: each one right for this item or none at all. Its "
        "subject is the item's element (never the fault, a work product or 'the system' by default); it keeps "
        "the item's conditions, limits and negations word for word (a 50 ms limit stays 50 ms, or is split into "
        "named budgets that add up to it); it names the item's own signals and elements. "
        + _NATURE_HINT.get(nature, _NATURE_HINT["behaviour"]) +
        " Where the item's siblings already have children (house_examples), write like them: their kind, "
        "wording and level of detail. Each statement has exactly one 'shall' (or 应 in Chinese); the ASIL is "
        "the item's, or a valid ISO 26262-9 decomposition written X(Y) with a requirement for the independence "
        f"it depends on. Write in the item's language. Patterns that may fit: {patterns or 'none'}.",
        {"request": request, "reading": {"domain": domain, "nature": nature},
         "house_examples": house_examples(view), "context": evidence_context(state, plan.spec.topic)})
    notes: list[str] = []
    vocabulary = _vocabulary(view, state)
    kept: list[tuple[RequirementOut, dict[str, str]]] = []
    for r in out.requirements:
        fields, why = admit({"title": r.title, "statement": r.statement, "rationale": r.rationale},
                            vocabulary=vocabulary, what="suggestion", statement_key="statement",
                            language=ctx.language, requirement=True)
        if fields is None:
            notes.append(why)
            continue
        unfit = _unfit(ctx.statement, fields["statement"], nature)
        if unfit:
            notes.append(f"a suggestion was dropped: {unfit}")
            continue
        kept.append((r, fields))
    asils = [r.asil or ctx.asil for r, _ in kept]
    if not asils_acceptable(asils, ctx.asil):
        notes.append(f"the model's ASILs {', '.join(asils)} are neither inherited nor a valid decomposition of "
                     f"{ctx.asil}; set to the inherited ASIL {ctx.asil}")
        asils = [ctx.asil] * len(kept)
    ids = new_ids(ctx.id, house_kind(view), view.ids, len(kept))
    known = {p.id for p in plan.patterns}
    return [DerivedRequirement(i, f["title"], f["statement"], a, [ctx.id], _citations(r.citations),
                               r.pattern if r.pattern in known else "", r.ears, f["rationale"])
            for i, (r, f), a in zip(ids, kept, asils)], notes


def rebut_llm(client: LLMClient, request: dict, plan: Plan, state: LoopState, view: WorkspaceView) -> tuple[list[Rebuttal], list[str]]:
    ctx = view.item
    assert ctx is not None
    reading = read_statement(ctx.statement, ctx.language)
    out = client.structured(
        "suggest_rebuttals", RebuttalsOut,
        "List concrete ways this item could fail to hold (defeaters), each with its mitigation: a dependent "
        "failure of what it relies on, a latent fault, a wrong assumption about its input, a timing or ordering "
        "case, an operating mode it does not cover. Never restate the item's purpose as its failure. Name the "
        "item's own limits, signals and elements. Each needs a citation from the context.",
        {"request": request, "reading": {"domain": domain_of(ctx, reading), "nature": nature_of(ctx, reading)},
         "context": evidence_context(state, plan.spec.topic)})
    vocabulary = _vocabulary(view, state)
    kept, notes = [], []
    for r in out.rebuttals:
        fields, why = admit({"statement": r.statement, "mitigation": r.mitigation}, vocabulary=vocabulary,
                            what="rebuttal", statement_key="statement", language=ctx.language)
        if fields is None:
            notes.append(why)
            continue
        if restates(ctx.statement, fields["statement"]):
            notes.append("a rebuttal was dropped: it restates the item instead of naming how it fails")
            continue
        kept.append(Rebuttal(r.category, fields["statement"], ctx.id, _citations(r.citations),
                             mitigation=fields["mitigation"]))
    return kept, notes


def answer_llm(client: LLMClient, question: str, plan: Plan, state: LoopState) -> tuple[list[Answer], list[str]]:
    out = client.structured("answer_question", AnswerOut,
                            "Answer the question from the context only, in the language the question is written in, "
                            "in whole sentences, citing the clauses that state what you say (never a clause's "
                            "inputs, scope or general introduction). If the context does not answer it, say so.",
                            {"question": question, "context": evidence_context(state, question)})
    vocabulary = set(tokens(question)) | {t for e in state.evidence.values() for t in tokens(f"{e.title} {e.text}")}
    fields, why = admit({"answer": out.answer}, vocabulary=vocabulary, what="answer", statement_key="answer")
    if fields is None:
        return [], [why]
    return [Answer(fields["answer"], _citations(out.citations))], []
