"""Derived requirements composed offline from the requirement patterns (rules/patterns/requirements.yaml)."""

from __future__ import annotations

from ..model.ids import kind_prefix
from .compose import citable, cite, decomposition_for, new_ids, ranked_evidence
from .context import WorkspaceView
from .loop import LoopState
from .patterns import Pattern, child_kind, fill, slots, text_for
from .plan import Plan
from .suggestions import DerivedRequirement


def derive_offline(plan: Plan, state: LoopState, view: WorkspaceView) -> list[DerivedRequirement]:
    ctx = view.item
    assert ctx is not None
    values = slots(ctx)
    lang = "zh" if ctx.language == "zh" else "en"
    coverage = state.coverage()
    kind = child_kind(kind_prefix(ctx.id))
    drafts: list[tuple[Pattern, str, str, str, str]] = []  # pattern, title, statement, asil, note
    for p in plan.patterns:
        title = fill(text_for(p, p.titles, ctx), values)
        decomposition = decomposition_for(ctx.asil) if p.decompose and p.channels else None
        if decomposition:
            for i, (template, level) in enumerate(zip(p.channels.get(lang) or p.channels["en"], decomposition)):
                drafts.append((p, f"{title} ({i + 1})", fill(template, values), level,
                               f"ASIL decomposition {ctx.asil} → {' + '.join(decomposition)}"))
            if p.independence:
                drafts.append((p, f"{title} (independence)", fill(text_for(p, p.independence, ctx), values),
                               ctx.asil, "the decomposition holds only with sufficient independence"))
        else:
            drafts.append((p, title, fill(text_for(p, p.templates, ctx), values), ctx.asil, ""))
    ids = new_ids(ctx.id, kind, view.ids, len(drafts))
    out = []
    for new_id, (p, title, statement, asil, note) in zip(ids, drafts):
        query = f"{p.query} {ctx.title}"
        cites = [cite(e, query) for e in citable(ranked_evidence(state, query, coverage.get(p.id, [])))[:2]]
        rationale = f"{p.name} pattern" + (f"; {note}" if note else "")
        out.append(DerivedRequirement(
            id=new_id, title=title, statement=statement, asil=asil, derived_from=[ctx.id], citations=cites,
            pattern=p.id, ears=p.ears, rationale=rationale,
            safe_state=ctx.safe_state if p.id == "reaction-safe-state" else "",
            ftti=ctx.ftti if p.id == "reaction-safe-state" else "",
        ))
    return out
