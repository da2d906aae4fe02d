"""Derived requirements composed offline, precision first: the first of these that gives something is offered.

1. The item is read (:mod:`..item.reading`: conditions, subject, modal verb, negation, response) and
   classified (:mod:`..item.domain`: domain and nature).
2. The team's house style: the siblings' children rewritten for the item (:mod:`..writing.analogues`).
3. What the item's own words leave open (:mod:`..writing.refinements`): the other side of its condition,
   the failure of what it does, the values it does not accept, the evidence a recurring activity leaves
   (for a process requirement only the entries written for processes).
4. Only for safety goals and safety requirements, and never for a process requirement: the safety patterns,
   filled from the item and the workspace (:func:`..writing.patterns.slots`), dropped when they would lose a
   limit of the item, rewritten with their fallback or dropped on a finding of safereq's own checks
   (:mod:`..trust.selfcheck`), and cited only with a clause about their topic (:mod:`..trust.citing`).

Otherwise nothing is derived, and the notes say why and what would help.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model.ids import kind_prefix
from ..trust.citing import about
from ..writing.compose import decomposition_for, new_ids
from ..item.context import WorkspaceView
from ..item.domain import domain_of, nature_of
from ..retrieval.loop import LoopState
from ..writing.patterns import Pattern, child_kind, slots, text_for, try_fill
from ..retrieval.plan import Plan, hint
from ..item.reading import read_statement
from ..trust.selfcheck import Draft, findings
from ..writing.analogues import Analogue, analogues, house_kind, keeps_limits
from ..writing.refinements import product_name, refinements
from ..writing.suggestions import DerivedRequirement


@dataclass(slots=True)
class _Candidate:
    pattern: Pattern
    title: str
    statement: str
    asil: str
    note: str = ""
    group: int = 0  # the drafts of one decomposition stand or fall together
    fallback: str = ""
    refines: bool = True  # False for the independence requirement of a decomposition, which states no limit


def _candidates(plan: Plan, view: WorkspaceView, values: dict[str, str]) -> list[_Candidate]:
    ctx = view.item
    assert ctx is not None
    lang = "zh" if ctx.language == "zh" else "en"
    out: list[_Candidate] = []
    for n, p in enumerate(plan.patterns, start=1):
        template = text_for(p, p.templates, ctx)
        title = try_fill(text_for(p, p.titles, ctx), values) or ""
        if not template or not title:
            continue
        decomposition = decomposition_for(ctx.asil) if p.decompose and p.channels else None
        if decomposition:
            channels = [try_fill(t, values) for t in (p.channels or {}).get(lang, [])]
            independence = try_fill(text_for(p, p.independence, ctx), values)
            if len(channels) != 2 or None in channels or not independence:
                continue
            note = f"ASIL decomposition {ctx.asil} → {' + '.join(decomposition)}"
            for i, (statement, level) in enumerate(zip(channels, decomposition)):
                assert statement is not None
                out.append(_Candidate(p, f"{title} ({i + 1})", statement, level, note, group=n))
            out.append(_Candidate(p, f"{title} (independence)", independence, ctx.asil,
                                  "the decomposition holds only with sufficient independence", group=n,
                                  refines=False))
            continue
        statement = try_fill(template, values)
        fallback = try_fill(text_for(p, p.fallback, ctx), values) or ""
        if statement is None:
            statement, fallback = fallback, ""
        if statement:
            out.append(_Candidate(p, title, statement, ctx.asil, fallback=fallback))
    return out


def _self_checked(cands: list[_Candidate], view: WorkspaceView, ids: list[str], notes: list[str]) -> list[tuple[str, _Candidate]]:
    """The candidates (with their IDs) that pass safereq's checks, rewritten with the fallback if need be."""
    ctx = view.item
    assert ctx is not None
    drafts = [Draft(i, c.title, c.statement, c.asil) for i, c in zip(ids, cands)]
    found = findings(drafts, ctx.id, ctx.title, ctx.asil)
    retry = [(i, c) for i, c in zip(ids, cands) if found.get(i) and c.fallback]
    if retry:
        again = findings([Draft(i, c.title, c.fallback, c.asil) for i, c in retry], ctx.id, ctx.title, ctx.asil)
        for i, c in retry:
            if not again.get(i):
                notes.append(f"{c.pattern.id}: rewritten without the item's own words ({found[i][0].split(':')[0]})")
                c.statement = c.fallback
                found[i] = []
    failed_groups = {c.group for i, c in zip(ids, cands) if found.get(i) and c.group}
    kept = []
    for i, c in zip(ids, cands):
        if found.get(i):
            notes.append(f"{c.pattern.id}: dropped, safereq's own checks flag it ({found[i][0]})")
        elif c.group and c.group in failed_groups:
            notes.append(f"{c.pattern.id}: dropped with the rest of its decomposition")
        else:
            kept.append((i, c))
    return kept


def _from_analogues(found: list[Analogue], view: WorkspaceView, notes: list[str]) -> list[DerivedRequirement]:
    """The analogues of the siblings' children, with fresh IDs of the children's kind, that pass safereq's checks
    (a finding the team's own child has too is its house style, not a fault of the analogue)."""
    ctx = view.item
    assert ctx is not None
    out: list[DerivedRequirement] = []
    taken = set(view.ids)
    by_id = {it.id: it for it in view.items}
    for a in found:
        new_id = new_ids(ctx.id, a.kind, taken, 1)[0]
        taken.add(new_id)
        own = findings([Draft(new_id, a.title, a.statement, ctx.asil)], ctx.id, ctx.title, ctx.asil).get(new_id, [])
        model = by_id[a.child]
        house = findings([Draft(new_id, model.title, model.statement, ctx.asil)], ctx.id, ctx.title, ctx.asil).get(new_id, [])
        house_rules = {f.split(":")[0] for f in house}
        extra = [f for f in own if f.split(":")[0] not in house_rules]
        if extra:
            notes.append(f"the analogue of {a.child} was dropped: safereq's own checks flag it ({extra[0]})")
            continue
        carried = "; ".join(f"'{old}' → '{new}'" for old, new in a.carried)
        out.append(DerivedRequirement(
            id=new_id, title=a.title, statement=a.statement, asil=ctx.asil, derived_from=[ctx.id], citations=[],
            pattern="sibling-analogue", ears="",
            rationale=f"written like {a.child}, the child of the sibling {a.sibling} ({carried})"))
    return out


def _safety_chain(ctx) -> bool:
    """Whether the item is a safety goal or safety requirement, the items the offline safety patterns are for."""
    return ctx.category in ("safety-goal", "safety-requirement")


def derive_offline(plan: Plan, state: LoopState, view: WorkspaceView) -> tuple[list[DerivedRequirement], list[str]]:
    """Derived requirements for the view's item, and notes on what was left out and why.

    Precision first: the siblings' children are followed when they show how the team derives (offline, the
    only way to know the team's kinds and wording); the safety patterns are used only for safety goals and
    safety requirements of a technical element, and only where every limit of the item is kept. Otherwise
    nothing is derived, and the notes say why and what would help."""
    ctx = view.item
    assert ctx is not None
    reading = read_statement(ctx.statement, ctx.language)
    domain, nature = domain_of(ctx, reading), nature_of(ctx, reading)
    notes = [f"read as a {nature} requirement of a {domain} element"]
    found = analogues(ctx, view.items)
    if found:
        out = _from_analogues(found, view, notes)
        if out:
            return out, notes
    out: list[DerivedRequirement] = []
    parent_ids = {p.id for p in ctx.parents}
    siblings = [it.statement for it in view.items if parent_ids.intersection(it.parents)]
    refined = refinements(ctx.statement, nature, ctx.language,
                          product=product_name([p.statement for p in ctx.parents] + siblings))
    if refined:
        ids = new_ids(ctx.id, house_kind(view), view.ids, len(refined))
        drafts = [Draft(i, r.title, r.statement, ctx.asil) for i, r in zip(ids, refined)]
        found = findings(drafts, ctx.id, ctx.title, ctx.asil)
        for i, r in zip(ids, refined):
            if found.get(i):
                notes.append(f"{r.id}: dropped, safereq's own checks flag it ({found[i][0]})")
                continue
            out.append(DerivedRequirement(id=i, title=r.title, statement=r.statement, asil=ctx.asil,
                                          derived_from=[ctx.id], citations=[], pattern=r.id,
                                          rationale=f"what {ctx.id} leaves open, in its own words"))
    if out:
        return out, notes
    if nature == "process":
        notes.append("a process requirement: offline, only the way its siblings were refined and the process "
                     "refinements (retention, evidence of recurring runs) are followed, and neither fits; a model "
                     "endpoint can refine it into who does what, when and with which work product")
        return [], notes
    if not _safety_chain(ctx):
        notes.append("nothing derived: no sibling with children shows how the team refines such items, and the "
                     "offline safety patterns are only for safety goals and safety requirements; derive one "
                     "sibling by hand or configure a model endpoint")
        return [], notes
    values = slots(ctx, domain, view.items)
    drafted = _candidates(plan, view, values)
    lost = {id(c) for c in drafted if c.refines and not keeps_limits(ctx.statement, c.statement, negation=False)}
    lost_groups = {c.group for c in drafted if id(c) in lost and c.group}
    cands = []
    for c in drafted:
        if id(c) in lost or (c.group and c.group in lost_groups):
            notes.append(f"{c.pattern.id}: dropped, it would lose a limit of {ctx.id}")
        else:
            cands.append(c)
    provisional = new_ids(ctx.id, child_kind(kind_prefix(ctx.id)), view.ids, len(cands))
    kept = _self_checked(cands, view, provisional, notes)
    cited = []
    for _, c in kept:
        cites = about(state, c.pattern.topic, f"{c.pattern.query} {c.statement}",
                      {h[0] for h in map(hint, c.pattern.clauses) if h})
        if not cites:
            notes.append(f"{c.pattern.id}: dropped, no clause in the index is about {', '.join(c.pattern.topic[:3])}")
            continue
        cited.append((c, cites))
    ids = new_ids(ctx.id, child_kind(kind_prefix(ctx.id)), view.ids, len(cited))
    out = []
    for new_id, (c, cites) in zip(ids, cited):
        p = c.pattern
        out.append(DerivedRequirement(
            id=new_id, title=c.title, statement=c.statement, asil=c.asil, derived_from=[ctx.id], citations=cites,
            pattern=p.id, ears=p.ears, rationale=f"{p.name} pattern" + (f"; {c.note}" if c.note else ""),
            safe_state=ctx.safe_state if p.id == "reaction-safe-state" else "",
            ftti=ctx.ftti if p.id == "reaction-safe-state" else "",
        ))
    return out, notes
