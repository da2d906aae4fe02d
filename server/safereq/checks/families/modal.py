"""Modal-verb rules: a requirement statement states exactly one obligation, with "shall" (Chinese 应).

Applies to the statements of requirements, safety requirements and safety goals (see statements.py). The
scan of a statement's modal verbs (modal_verbs.py) is part of its shared analysis (analysis.py), so the
rules share one pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ...model.document import Item
from ..analysis.shared import analysed
from ..context import CheckContext
from ..findings import Edit, Finding, Fix, Related
from ..analysis.modal_verbs import ModalVerb
from ..registry import item_check
from .statement_split import split_edit
from ..analysis.statements import source_span

EMPTY_CATEGORIES = ("requirement", "safety-requirement")
_PERMISSION = frozenset({"permission"})


def _shall(item: Item) -> str:
    return "应" if item.language == "zh" else "shall"


def _replace_fix(item: Item, verb: ModalVerb, *, safe: bool) -> list[Fix]:
    if not verb.replacement:
        return []
    span = source_span(item.statement, verb.start, verb.end)
    return [Fix(f"Replace '{verb.word}' with '{verb.replacement}'", (Edit(item.path, span, verb.replacement),), safe)]


@item_check("modal/non-standard-verb", topics={"modal:obligation"})
def non_standard_verb(ctx: CheckContext, item: Item) -> Iterable[Finding]:
    a = analysed(ctx, item)
    if a is None or "obligation" not in a.roles:
        return ()
    return [ctx.finding(
                "modal/non-standard-verb", item.path, source_span(item.statement, verb.start, verb.end),
                f"'{verb.word}' expresses the obligation of {item.id} in a non-standard way: "
                f"write '{verb.replacement}', the binding modal verb of requirements",
                fixes=_replace_fix(item, verb, safe=True))
            for verb in a.verbs if verb.role == "obligation"]


@item_check("modal/non-binding-verb", topics={"modal:non-binding"})
def non_binding_verb(ctx: CheckContext, item: Item) -> Iterator[Finding]:
    a = analysed(ctx, item)
    if a is None or "non-binding" not in a.roles:
        return
    has_binding = bool(a.binding)
    for verb in a.verbs:
        if verb.role != "non-binding":
            continue
        if verb.word.lower() == "will" and has_binding:
            continue  # next to "shall", "will" describes (a fact, a consequence) rather than obliges
        yield ctx.finding(
            "modal/non-binding-verb", item.path, source_span(item.statement, verb.start, verb.end),
            f"'{verb.word}' does not bind, so {item.id} states no obligation here: write '{verb.replacement}' if "
            f"it is required, otherwise move the recommendation or description out of the requirement",
            fixes=_replace_fix(item, verb, safe=False))


@item_check("modal/multiple", topics={"modal:multiple"})
def multiple(ctx: CheckContext, item: Item) -> Iterable[Finding]:
    a = analysed(ctx, item)
    if a is None or len(a.binding) < 2:
        return ()
    text, verbs, binding = a.text, a.verbs, a.binding
    first, rest = binding[0], binding[1:]
    span = source_span(item.statement, rest[0].start, rest[0].end)
    fixes = []
    split = split_edit(text, item.language, verbs, a.extra)
    if split is not None:
        start, end, new_text = split
        fixes.append(Fix("Split into two sentences", (Edit(item.path, source_span(item.statement, start, end), new_text),),
                         safe=False))
    word = _shall(item)
    return [ctx.finding(
        "modal/multiple", item.path, span,
        f"{item.id} states {len(binding)} obligations ('{word}' {len(binding)} times): split it into "
        f"{len(binding)} requirements, one '{word}' each, so each can be traced and verified on its own",
        fixes=fixes,
        related=[Related(item.path, source_span(item.statement, first.start, first.end), f"first '{first.word}'")])]


@item_check("modal/missing", topics={"modal:none"})
def missing(ctx: CheckContext, item: Item) -> Iterable[Finding]:
    a = analysed(ctx, item)
    if a is None or not a.roles <= _PERMISSION:  # a verb of any other role states the requirement
        return ()
    word = _shall(item)
    permits = [v.word for v in a.verbs if v.role == "permission"]
    hint = f" ('{permits[0]}' only permits)" if permits else ""
    return [ctx.finding(
        "modal/missing", item.path, item.statement.span,
        f"{item.id} has no binding modal verb{hint}: state the requirement as '<system> {word} <response>'")]


@item_check("modal/empty", topics={"no-statement"})
def empty(ctx: CheckContext, item: Item) -> Iterable[Finding]:
    if ctx.workspace.category(item) not in EMPTY_CATEGORIES or analysed(ctx, item) is not None:
        return ()  # every statement of these categories is analysed, so None means an empty one
    return [ctx.finding(
        "modal/empty", item.path, item.id_span,
        f"{item.id} has a title but no statement: write the requirement under its heading as one sentence "
        f"with '{_shall(item)}'")]
