"""Derived requirements composed offline: read the item, pick the patterns that fit it, fill them, check them.

1. The item is read (:mod:`.reading`: conditions, subject, modal verb, negation, response) and classified
   (:mod:`.domain`: software, vehicle, UAV, hardware or generic; behaviour, detection, reaction, goal, design
   or process); the plan's patterns were chosen by both.
2. Each pattern is filled from the item and the workspace (:func:`.patterns.slots`); a pattern whose slot
   the item cannot fill is not used, and a pattern without a form in the item's language is not used either.
3. Every draft goes through safereq's own checks (:mod:`.selfcheck`). A draft with a finding is rewritten
   with the pattern's fallback (which does not reuse the item's words) and checked again, or dropped.
4. Citations come from the evidence about the pattern's topic (:mod:`.citing`); a draft without one is
   not offered. What was dropped and why goes into the notes.
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
                                  "the decomposition holds only with sufficient independence", group=n))
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


def derive_offline(plan: Plan, state: LoopState, view: WorkspaceView) -> tuple[list[DerivedRequirement], list[str]]:
    """Derived requirements for the view's item, and notes on what was left out and why."""
    ctx = view.item
    assert ctx is not None
    reading = read_statement(ctx.statement, ctx.language)
    domain, nature = domain_of(ctx, reading), nature_of(ctx, reading)
    notes = [f"read as a {nature} requirement of a {domain} element"]
    if nature == "process":
        notes.append("a process requirement: no technical requirement is derived from it")
        return [], notes
    values = slots(ctx, domain, view.items)
    cands = _candidates(plan, view, values)
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
