"""Rebuttals (defeaters) composed offline from the rebuttal patterns (rules/patterns/rebuttals.yaml)."""

from __future__ import annotations

from .compose import citable, cite, ranked_evidence
from .context import WorkspaceView
from .loop import LoopState
from .patterns import example_for, fill, slots, text_for
from .plan import Plan
from .suggestions import Rebuttal


def rebut_offline(plan: Plan, state: LoopState, view: WorkspaceView) -> tuple[list[Rebuttal], list[str]]:
    ctx = view.item
    assert ctx is not None
    values = slots(ctx)
    coverage = state.coverage()
    out, notes = [], []
    for p in plan.patterns:
        query = f"{p.query} {ctx.title}"
        evidence = citable(ranked_evidence(state, query, coverage.get(p.id, [])))[:2]
        if not evidence:
            notes.append(f"{p.category}: no supporting clause found in the index; not suggested")
            continue
        statement = fill(text_for(p, p.templates, ctx), {**values, "condition": example_for(p, ctx, values)})
        out.append(Rebuttal(p.category, statement, ctx.id, [cite(e, query) for e in evidence], p.id,
                            fill(text_for(p, p.mitigation, ctx), values)))
    return out, notes
