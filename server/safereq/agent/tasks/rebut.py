"""Rebuttals (defeaters) composed offline: ways this item could fail to hold, named in its own terms.

For every item, the defeaters its own words hold (:mod:`..writing.defeaters`): a limit it states, carried
verbatim, or something it relies on; never a generic failure mode. For safety goals, safety requirements and
claims also the plan's rebuttal patterns, chosen by the item's domain and nature (no SOTIF triggering
condition for a mutex, no driver for a key-value store), each naming the item, its element and an example
condition that fits it, and each cited with a clause about its category's topic (:mod:`..trust.citing`); one
without such a clause is not presented.
"""

from __future__ import annotations

from ..trust.citing import about
from ..item.context import WorkspaceView
from ..item.domain import domain_of, nature_of
from ..retrieval.loop import LoopState
from ..writing.patterns import examples_for, slots, text_for, try_fill
from ..retrieval.plan import Plan, hint
from ..item.reading import read_statement
from ..writing.defeaters import defeaters
from ..writing.suggestions import Rebuttal


def rebut_offline(plan: Plan, state: LoopState, view: WorkspaceView) -> tuple[list[Rebuttal], list[str]]:
    """Defeaters held by the item's own words (a limit it states, a thing it relies on) for any item; the
    failure-mode patterns (with their citations) only for safety goals, safety requirements and claims."""
    ctx = view.item
    assert ctx is not None
    reading = read_statement(ctx.statement, ctx.language)
    domain, nature = domain_of(ctx, reading), nature_of(ctx, reading)
    out, notes = [], []
    for d in defeaters(ctx.id, ctx.statement, nature, ctx.language, domain):
        out.append(Rebuttal(d.category, d.statement, ctx.id, [], d.id, d.mitigation))
    if ctx.category not in ("safety-goal", "safety-requirement", "claim"):
        if not out:
            notes.append(f"no defeater fits {ctx.id}: it states no limit and names nothing it relies on that "
                         "the offline defeaters know; a model endpoint can look further")
        return out, notes
    values = slots(ctx, domain, view.items)
    for p in plan.patterns:
        examples = examples_for(p, ctx, values, domain)
        template = text_for(p, p.templates, ctx)
        if not examples or not template:
            notes.append(f"{p.category}: no example condition fits {ctx.id}; not suggested")
            continue
        condition, topic = examples[0]
        statement = try_fill(template, {**values, "condition": condition})
        if statement is None:
            continue
        cites = about(state, topic, f"{p.query} {statement}", {h[0] for h in map(hint, p.clauses) if h})
        if not cites:
            notes.append(f"{p.category}: no clause in the index is about {', '.join(topic[:3])}; not suggested")
            continue
        out.append(Rebuttal(p.category, statement, ctx.id, cites, p.id,
                            try_fill(text_for(p, p.mitigation, ctx), values) or ""))
    return out, notes
