"""ASIL rules: values, determination from S/E/C, inheritance along "Derived from", decomposition, goals.

Values and S/E/C depend on nothing else: an item's are checked by the rule's item part (cached with the
item), the HARA rows' by its document part. Inheritance, decomposition and
goal-versus-hazard rules need the whole workspace and run on every change, so they read the trace graph
(workspace.graph): ASIL values by ID and per-document lists of the items that matter, with results kept
while no ASIL changes. The facts behind each finding (workspace.facts) are the ones the hover explains;
document text is read only to build a fix.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from dataclasses import replace
from itertools import chain

from ...model.document import Attribute, Cell, Document, HaraRow, Item
from ...model.ranges import Span
from ...workspace import Workspace
from ...workspace.asil import (
    AsilValue, asil_problem, class_index, class_names, class_suggestion, decomposition_clause, decomposition_schemes,
    determination_clause, determine_asil, excerpt, parse_asil, rank,
)
from ...workspace.facts import (
    Decomposition, covering_hazards, decomposition_among, highest_hazard, inherited_asil, required_asil, sec_classes,
    stated_asil,
)
from ...workspace.graph import Inheriting, TraceGraph, trace_graph
from ..context import CheckContext
from ..findings import Edit, Finding, Fix, Related
from ..registry import document_check, item_part, workspace_check

SEC_KEYS = ("severity", "exposure", "controllability")
SEC_TOPICS = frozenset(f"attr:{key}" for key in SEC_KEYS)  # items with S/E/C attributes
ASIL_CATEGORIES = ("safety-goal", "safety-requirement")


# -- helpers ----------------------------------------------------------------------------------------------
def _kind_name(ws: Workspace, item: Item) -> str:
    kind = ws.vocabulary.kind_of(item.kind)
    return kind.name if kind else "item"


def _asil_span(item: Item) -> Span:
    """Where a finding about the item's ASIL goes: the value, else the ID."""
    attr = item.attribute("asil")
    return attr.value_span if attr is not None else item.id_span


def _replace(path: str, span: Span, text: str, title: str, *, safe: bool = False) -> Fix:
    return Fix(title, (Edit(path, span, text),), safe)


def _class_range(kind: str) -> str:
    names = class_names(kind)
    return f"{names[0]}–{names[-1]}"


def _schemes_text(level: str, original: str) -> str:
    pairs = decomposition_schemes(level)
    if not pairs:
        return f"ASIL {level} cannot be decomposed"
    return ", ".join(f"{a}({original})+{b}({original})" for a, b in pairs)


def _empty_cell_span(doc: Document, cell: Cell) -> Span:
    """The whole blank between two pipes, so that a value written into it stays padded by one space."""
    line = doc.text.split("\n", cell.span.start_line + 1)[cell.span.start_line]
    start = line.rfind("|", 0, cell.span.start_col) + 1
    end = line.find("|", cell.span.start_col)
    end = len(line) if end < 0 else end
    return Span.on_line(cell.span.start_line, start, end)


# -- values -----------------------------------------------------------------------------------------------
@item_part("asil/invalid-value", topics={"attr:asil"})
def invalid_item_value(ctx: CheckContext, item: Item) -> list[Finding]:
    return [ctx.finding("asil/invalid-value", item.path, attr.value_span if attr.value else attr.span,
                        f"ASIL of {item.id}: {problem}; write QM, A, B, C, D or a decomposed ASIL such as B(D)")
            for attr in item.attributes if attr.key == "asil" and (problem := asil_problem(attr.value)) is not None]


@document_check("asil/invalid-value")
def invalid_value(ctx: CheckContext, doc: Document) -> Iterator[Finding]:
    rule = "asil/invalid-value"
    for row in doc.hara_rows:
        cell = row.cells.get("asil")
        if cell is None:
            continue
        problem = asil_problem(cell.text)
        if problem is None:
            continue
        computed = _row_computed(row)
        if not cell.text.strip():
            hint = f"; its S/E/C give ASIL {computed} ({determination_clause()})" if computed else ""
            fixes = [_replace(doc.path, _empty_cell_span(doc, cell), f" {computed} ", f"Set the ASIL to {computed}")] if computed else []
            yield ctx.finding(rule, doc.path, row.cells["id"].span,
                              f"The ASIL cell of hazardous event {row.id} is empty{hint}", fixes=fixes)
            continue
        fixes = [_replace(doc.path, cell.span, computed, f"Set the ASIL to {computed}", safe=False)] if computed else []
        yield ctx.finding(rule, doc.path, cell.span,
                          f"ASIL of hazardous event {row.id}: {problem}; write QM or A–D", fixes=fixes)


def _row_computed(row: HaraRow) -> str | None:
    cells = [row.cells.get(k) for k in SEC_KEYS]
    if any(c is None for c in cells):
        return None
    return determine_asil(*(c.text for c in cells))  # type: ignore[union-attr]


def _class_fixes(path: str, span: Span, kind: str, text: str) -> list[Fix]:
    suggestion = class_suggestion(kind, text)
    if suggestion is None:
        return []
    value, lossless = suggestion
    return [_replace(path, span, value, f"Write {value}", safe=lossless)]


@item_part("asil/invalid-class", topics=SEC_TOPICS)
def invalid_item_class(ctx: CheckContext, item: Item) -> list[Finding]:
    return [ctx.finding(
                "asil/invalid-class", item.path, attr.value_span,
                f"'{excerpt(attr.value)}' is not a {attr.key} class ({item.id}): use {_class_range(attr.key)}",
                fixes=_class_fixes(item.path, attr.value_span, attr.key, attr.value))
            for attr in item.attributes
            if attr.key in SEC_KEYS and attr.value.strip() and class_index(attr.key, attr.value) is None]


@document_check("asil/invalid-class")
def invalid_class(ctx: CheckContext, doc: Document) -> Iterator[Finding]:
    rule = "asil/invalid-class"
    for row in doc.hara_rows:
        for kind in SEC_KEYS:
            cell = row.cells.get(kind)
            if cell is not None and cell.text.strip() and class_index(kind, cell.text) is None:
                yield ctx.finding(
                    rule, doc.path, cell.span,
                    f"'{excerpt(cell.text)}' is not a {kind} class (hazardous event {row.id}): use {_class_range(kind)}",
                    fixes=_class_fixes(doc.path, cell.span, kind, cell.text))


def _sec_attributes(item: Item) -> dict[str, Attribute]:
    """The item's first severity, exposure and controllability attributes by key (none, for most items)."""
    found: dict[str, Attribute] = {}
    for attr in item.attributes:
        if attr.key in SEC_KEYS and attr.key not in found:
            found[attr.key] = attr
    return found


@item_part("asil/incomplete-classification", topics=SEC_TOPICS)
def incomplete_item_classification(ctx: CheckContext, item: Item) -> list[Finding]:
    given = _sec_attributes(item)
    if not given:
        return []
    present = [k for k, a in given.items() if a.value.strip()]
    if len(present) == 3:
        return []
    first = next(given[k] for k in SEC_KEYS if k in given)
    missing = ", ".join(k for k in SEC_KEYS if k not in present)
    return [ctx.finding("asil/incomplete-classification", item.path, first.span,
                        f"{item.id} gives only part of its classification (missing: {missing}); "
                        f"the ASIL follows from severity, exposure and controllability together")]


@document_check("asil/incomplete-classification")
def incomplete_classification(ctx: CheckContext, doc: Document) -> Iterator[Finding]:
    rule = "asil/incomplete-classification"
    for row in doc.hara_rows:
        missing = [k for k in SEC_KEYS if row.cells.get(k) is None or not row.cells[k].text.strip()]
        if missing:
            yield ctx.finding(rule, doc.path, row.cells["id"].span,
                              f"Hazardous event {row.id} has no {', '.join(missing)} class, so its ASIL "
                              f"cannot be determined ({determination_clause()})")


@item_part("asil/sec-mismatch", topics=SEC_TOPICS)
def item_sec_mismatch(ctx: CheckContext, item: Item) -> list[Finding]:
    if len(_sec_attributes(item)) < 3:
        return []
    sec = sec_classes(item)
    attr = item.attribute("asil")
    if sec is None or sec.asil is None or attr is None or asil_problem(attr.value) is not None:
        return []
    stated = parse_asil(attr.value)
    assert stated is not None
    if str(stated) == sec.asil:
        return []
    return [_mismatch(ctx, item.path, attr.value_span, item.id, stated, str(sec), sec.asil)]


@document_check("asil/sec-mismatch")
def sec_mismatch(ctx: CheckContext, doc: Document) -> Iterator[Finding]:
    for row in doc.hara_rows:
        cell = row.cells.get("asil")
        computed = _row_computed(row)
        stated = parse_asil(cell.text) if cell is not None else None
        if cell is None or computed is None or stated is None or asil_problem(cell.text) is not None:
            continue
        if str(stated) != computed:
            classes = "/".join(row.cells[k].text for k in SEC_KEYS)
            yield _mismatch(ctx, doc.path, cell.span, f"hazardous event {row.id}", stated, classes, computed)


def _mismatch(ctx: CheckContext, path: str, span: Span, what: str, stated: AsilValue, classes: str,
              computed: str) -> Finding:
    # Raising or lowering an ASIL is an engineering decision (a wrong S/E/C may be the mistake): never safe.
    fix = _replace(path, span, computed, f"Set the ASIL to {computed}")
    return ctx.finding(
        "asil/sec-mismatch", path, span,
        f"ASIL {stated} of {what} disagrees with {classes}, which give ASIL {computed} ({determination_clause()})",
        fixes=[fix])


# -- missing ASIL -----------------------------------------------------------------------------------------
# The fix of asil/missing adds a line written like the item's last attribute. For an item with attributes
# that edit depends only on the item (its own lines), the value and where the item is, so it is kept while
# the item lives on unmoved: (item, ASIL text, edit, the item's line when the edit was made).
_INSERTS: weakref.WeakKeyDictionary[Workspace, dict[int, tuple[Item, str, Edit, int]]] = weakref.WeakKeyDictionary()


@workspace_check("asil/missing")
def missing(ctx: CheckContext) -> list[Finding]:
    ws = ctx.workspace
    graph = trace_graph(ws)
    kept = _INSERTS.get(ws, {})
    inserts: dict[int, tuple[Item, str, Edit]] = {}
    out = []
    for item in chain.from_iterable(graph.without_asil(c) for c in ASIL_CATEGORIES):
        value = inherited_asil(ws, item)
        kind = _kind_name(ws, item)
        if value is None:
            out.append(ctx.finding("asil/missing", item.path, item.id_span,
                                   f"{item.id} is a {kind} with no ASIL: add an 'ASIL:' attribute"))
            continue
        source, related = _inheritance_source(ws, item)
        text = str(value)
        hit = kept.get(id(item))
        if hit is not None and hit[0] is item and hit[1] == text and hit[3] == item.line:
            edit = hit[2]
        else:
            edit = _insert_attribute(ws, item, "ASIL", text)
        if item.attributes:
            inserts[id(item)] = (item, text, edit, item.line)
        out.append(ctx.finding(
            "asil/missing", item.path, item.id_span,
            f"{item.id} is a {kind} with no ASIL: add 'ASIL: {value}' ({source})",
            fixes=[Fix(f"Add 'ASIL: {value}'", (edit,))], related=related))
    _INSERTS[ws] = inserts
    return out


def _inheritance_source(ws: Workspace, item: Item) -> tuple[str, list[Related]]:
    """Words and related places saying where an inherited ASIL comes from (mirrors ``inherited_asil``)."""
    if ws.category(item) == "safety-goal" and (top := highest_hazard(ws, item)) is not None:
        return (f"the highest ASIL of its hazardous events, {top.event_id}",
                [Related(top.path, top.span, f"{top.event_id} is ASIL {top.level}")])
    req = required_asil(ws, item)
    if req is not None:
        parent = ws.item(req.parent_id)
        assert parent is not None
        return (f"inherited from {req.parent_id}",
                [Related(parent.path, _asil_span(parent), f"{req.parent_id} is ASIL {req.via}")])
    sec = sec_classes(item)
    return (f"determined by {sec} ({determination_clause()})", [])


def _insert_attribute(ws: Workspace, item: Item, key: str, value: str) -> Edit:
    """An edit adding ``key: value`` as a new attribute line after the item's last one, written like the
    attributes around it (list marker, bold key, separator); without attributes, after the statement."""
    doc = ws.documents[item.path]
    model = item.attributes[-1] if item.attributes else next((a for it in doc.items for a in it.attributes), None)
    if model is not None:
        line = doc.line(model.key_span.start_line)
        prefix = line[:model.key_span.start_col]
        sep = line[model.key_span.end_col:model.value_span.start_col] or ": "
        list_style = prefix.lstrip().startswith(("-", "*", "+"))
    else:
        prefix, sep, list_style = "- ", ": ", True
    new_line = f"{prefix}{key}{sep}{value}"
    if item.attributes:
        anchor = item.attributes[-1].span.end_line
        breaks = 1
    else:
        anchor = item.statement.last_line if item.statement else item.line
        # A list item may follow a paragraph directly; a plain line would join the paragraph in Markdown.
        breaks = 1 if item.statement and list_style else 2
    line = doc.line(anchor)
    newline = "\r\n" if line.endswith("\r") else "\n"
    end = len(line) - (newline == "\r\n")  # insert before a CR so the document keeps its line endings
    return Edit(item.path, Span.on_line(anchor, end, end), newline * breaks + new_line)


# -- inheritance and decomposition ------------------------------------------------------------------------
def _inheritance_problems(entries: tuple[Inheriting, ...], asil_by_id: dict[str, AsilValue | None]) -> list[tuple]:
    """One document's inheritance problems as (kind, item, value, [(parent ID, parent value)]): kind is
    ``lower`` (demanding parents) or ``original`` (all valued parents). Depends only on its arguments, so
    the trace graph can keep the result while the document and every ID's ASIL stay the same."""
    out: list[tuple] = []
    get = asil_by_id.get
    for item, value, parent_ids in entries:
        if len(parent_ids) == 1 and value.original is None:
            # The common case, one parent and a plain ASIL, without building lists: a document's entries are
            # all read again after any edit that moves its items.
            pv = get(parent_ids[0])
            if pv is not None and rank(pv.level) > rank(value.level):
                out.append(("lower", item, value, [(parent_ids[0], pv)]))
            continue
        valued = [(pid, pv) for pid in parent_ids if (pv := get(pid)) is not None]
        if not valued:
            continue
        if value.decomposed:
            if not any(pv.effective == value.original for _pid, pv in valued):
                out.append(("original", item, value, valued))
                continue
            valued = [(pid, pv) for pid, pv in valued if pv.effective != value.original]
        own = rank(value.level)
        demanding = [(pid, pv) for pid, pv in valued if rank(pv.level) > own]
        if demanding:
            out.append(("lower", item, value, demanding))
    return out


def _wrong_originals(ctx: CheckContext) -> list[tuple[Item, AsilValue, list[tuple[Item, AsilValue]]]]:
    """Decomposed ASILs whose bracket names none of their parents' ASILs: (item, value, [(parent, value)])."""
    graph = trace_graph(ctx.workspace)
    return [(item, value, [(graph.first[pid], pv) for pid, pv in parents])
            for kind, item, value, parents in graph.per_document("asil/inheritance", _inheritance_problems)
            if kind == "original"]


# Findings of asil/lower-than-parent by problem: the trace graph keeps a document's problems (the same tuples)
# while the document and every ASIL stay the same, and a finding also depends on which its parents are and
# on where they and the item are, so it is reused while each parent is still the same item and no line of
# theirs moved. After an edit, only the edited document's problems and those of children of items that
# were replaced or moved are built again.
_LOWER: weakref.WeakKeyDictionary[Workspace, dict[int, tuple]] = weakref.WeakKeyDictionary()


@workspace_check("asil/lower-than-parent")
def lower_than_parent(ctx: CheckContext) -> list[Finding]:
    ws = ctx.workspace
    graph = trace_graph(ws)
    severity = ctx.severities["asil/lower-than-parent"]
    kept = _LOWER.get(ws, {})
    now: dict[int, tuple] = {}
    out = []
    for problem in graph.per_document("asil/inheritance", _inheritance_problems):
        if problem[0] != "lower":
            continue
        hit = kept.get(id(problem))
        if (hit is not None and hit[0] is problem and hit[1] is severity
                and all(graph.first.get(pid) is parent for pid, parent in hit[2])
                and hit[4] == (problem[1].line, *[parent.line for _pid, parent in hit[2]])):
            now[id(problem)] = hit
            out.append(hit[3])
            continue
        _kind, item, value, parents = problem
        demanding = [(graph.first[pid], pv) for pid, pv in parents]
        top, top_value = max(demanding, key=lambda e: (rank(e[1].level), not e[1].decomposed))
        related = [Related(p.path, _asil_span(p), f"{p.id} is ASIL {pv}") for p, pv in demanding]
        finding = ctx.finding(
            "asil/lower-than-parent", item.path, _asil_span(item),
            f"{item.id} is ASIL {value} but it is derived from {top.id}, which is ASIL {top_value}: a derived "
            f"requirement inherits its parent's ASIL unless the ASIL is decomposed ({decomposition_clause()})",
            fixes=[_replace(item.path, _asil_span(item), str(top_value), f"Raise the ASIL to {top_value}")],
            related=related)
        now[id(problem)] = (problem, severity, [(pid, p) for (pid, _pv), (p, _v) in zip(parents, demanding)], finding,
                            (item.line, *[p.line for p, _v in demanding]))
        out.append(finding)
    _LOWER[ws] = now
    return out


@workspace_check("asil/decomposition-original")
def decomposition_original(ctx: CheckContext) -> Iterator[Finding]:
    for item, value, parents in _wrong_originals(ctx):
        top, top_value = max(parents, key=lambda e: rank(e[1].effective))
        span = _asil_span(item)
        related = [Related(top.path, _asil_span(top), f"{top.id} is ASIL {top_value}")]
        if top_value.effective == "QM":
            yield ctx.finding(
                "asil/decomposition-original", item.path, span,
                f"{item.id} is ASIL {value}, a decomposition of ASIL {value.original}, but its parent {top.id} "
                f"is QM: there is no ASIL to decompose", related=related)
            continue
        fixes = []
        if rank(value.level) <= rank(top_value.effective):
            corrected = f"{value.level}({top_value.effective})"
            fixes.append(_replace(item.path, span, corrected, f"Write {corrected}", safe=False))
        yield ctx.finding(
            "asil/decomposition-original", item.path, span,
            f"{item.id} is ASIL {value}, but the ASIL it decomposes, that of its parent {top.id}, is "
            f"{top_value.effective}: the letter in brackets keeps the original ASIL ({decomposition_clause()})",
            fixes=fixes, related=related)


def _decompositions(ctx: CheckContext) -> list[Decomposition]:
    """The decompositions that break a rule, found once per run for the two rules that report them and
    kept by the trace graph while no ASIL and no decomposed child changes (most keystrokes)."""
    key = "asil/decompositions"
    if key not in ctx.memo:
        graph = trace_graph(ctx.workspace)

        def judge_all() -> list[Decomposition]:
            found = []
            for parent_id, children in graph.decomposed_children().items():
                parent = graph.first.get(parent_id)
                d = decomposition_among(parent, children, graph.asil_of) if parent is not None else None
                if d is not None and d.verdict.status != "valid":
                    found.append(d)
            return found

        # A kept decomposition may name an earlier parse of its parent; report on the current one.
        ctx.memo[key] = [replace(d, parent=graph.first[d.parent.id]) for d in graph.keep(key, judge_all)]
    return ctx.memo[key]


def _member_related(d: Decomposition, me: Item) -> list[Related]:
    related = [Related(d.parent.path, _asil_span(d.parent), f"{d.parent.id} is ASIL {d.value}")]
    related += [Related(m.path, _asil_span(m), f"{m.id} is ASIL {v}") for m, v in d.members if m is not me]
    return related


@workspace_check("asil/decomposition-scheme")
def decomposition_scheme(ctx: CheckContext) -> Iterator[Finding]:
    for d in _decompositions(ctx):
        if d.verdict.status != "invalid":
            continue
        allowed = _schemes_text(d.value.level, d.value.effective)
        for member, value in d.members:
            yield ctx.finding(
                "asil/decomposition-scheme", member.path, _asil_span(member),
                f"{member.id} ({value}) is part of decomposing ASIL {d.value} of {d.parent.id} as {d.scheme()}, "
                f"which is not an allowed scheme; allowed: {allowed} ({decomposition_clause()})",
                related=_member_related(d, member))


@workspace_check("asil/decomposition-partner")
def decomposition_partner(ctx: CheckContext) -> Iterator[Finding]:
    for d in _decompositions(ctx):
        if d.verdict.status != "incomplete":
            continue
        partner = " or ".join(f"{level}({d.value.effective})" for level in d.verdict.missing)
        for member, value in d.members:
            yield ctx.finding(
                "asil/decomposition-partner", member.path, _asil_span(member),
                f"{member.id} is ASIL {value}, half of a decomposition of {d.parent.id} (ASIL {d.value}), but "
                f"no requirement derived from {d.parent.id} is ASIL {partner}: add the redundant partner "
                f"requirement ({decomposition_clause()})",
                related=_member_related(d, member))


# -- safety goals -----------------------------------------------------------------------------------------
def _event_rank(graph: TraceGraph, levels: dict[str, str], event_id: str) -> int:
    """The rank of an event's ASIL as ``covering_hazards`` reads it (-1 when unknown)."""
    level = levels.get(event_id)
    if level is None and (item := graph.first.get(event_id)) is not None:
        value = stated_asil(item)
        sec = sec_classes(item)
        level = value.level if value else (sec.asil if sec else None)
    return rank(level) if level else -1


@workspace_check("asil/goal-below-hazard")
def goal_below_hazard(ctx: CheckContext) -> Iterator[Finding]:
    ws = ctx.workspace
    graph = trace_graph(ws)
    by_goal, levels = graph.events_naming()
    for goal, value, hazards in graph.goals():
        # A cheap bound first; covering_hazards (the same facts the hover shows) only for suspects.
        if value is None:
            continue
        events = hazards + tuple(by_goal.get(goal.id, ()))
        if not events or max(_event_rank(graph, levels, e) for e in events) <= rank(value.level):
            continue
        higher = [h for h in covering_hazards(ws, goal) if rank(h.level) > rank(value.level)]
        if not higher:
            continue
        top = highest_hazard(ws, goal)
        assert top is not None
        span = _asil_span(goal)
        yield ctx.finding(
            "asil/goal-below-hazard", goal.path, span,
            f"Safety goal {goal.id} is ASIL {value} but covers hazardous event {top.event_id} of ASIL "
            f"{top.level}: a safety goal takes the highest ASIL of its hazardous events",
            fixes=[_replace(goal.path, span, top.level, f"Raise the ASIL to {top.level}")],
            related=[Related(h.path, h.span, f"{h.event_id} is ASIL {h.level}") for h in higher])
