"""ASIL facts: what an item's ASIL is, what it should be, and why — for checks, hovers and the agent."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..model.document import HaraRow, Item
from ..model.ranges import Span
from .asil import (
    AsilValue, DecompositionVerdict, determine_asil, judge_decomposition, parse_asil, rank,
    usable_asil_value,
)
from .workspace import Workspace


@dataclass(frozen=True, slots=True)
class SecClasses:
    severity: str
    exposure: str
    controllability: str
    asil: str | None  # None when a class is invalid

    def __str__(self) -> str:
        return f"{self.severity}/{self.exposure}/{self.controllability}"


@dataclass(frozen=True, slots=True)
class Requirement:
    """The ASIL an item must meet because of a parent: ``level`` demanded by ``parent_id`` (whose value is ``via``)."""

    level: str
    parent_id: str
    via: AsilValue


def stated_asil(item: Item) -> AsilValue | None:
    attr = item.attribute("asil")
    return parse_asil(attr.value) if attr else None


def sec_classes(item: Item) -> SecClasses | None:
    """The item's S/E/C attributes, when all three are present."""
    values = [item.attribute(k) for k in ("severity", "exposure", "controllability")]
    if any(v is None for v in values):
        return None
    s, e, c = (v.value for v in values)  # type: ignore[union-attr]
    return SecClasses(s, e, c, determine_asil(s, e, c))


def required_asil(ws: Workspace, item: Item) -> Requirement | None:
    """The highest ASIL demanded by the item's parents ("Derived from").

    A parent with a decomposed ASIL ``B(D)`` demands ``B(D)`` of its children: the decomposed level, carried
    with the original. A parent without a stated ASIL demands nothing (that is reported on the parent).
    """
    best: Requirement | None = None
    for link in ws.parents(item):
        parent = ws.item(link.target)
        if parent is None or parent is item:
            continue
        value = stated_asil(parent)
        if value is None:
            continue
        if best is None or rank(value.level) > rank(best.level):
            best = Requirement(value.level, parent.id, value)
    return best


def hazard_asils(ws: Workspace, goal: Item) -> list[tuple[str, str]]:
    """(hazardous-event ID, ASIL) for every hazardous event a safety goal covers.

    Events link to goals either by the goal's ``Hazard`` attribute or by a HARA row's safety-goal column.
    """
    return sorted((h.event_id, h.level) for h in covering_hazards(ws, goal))


@dataclass(frozen=True, slots=True)
class HazardAsil:
    """The ASIL of one hazardous event a goal covers, and where that ASIL is written (for related info)."""

    event_id: str
    level: str
    path: str
    span: Span


def covering_hazards(ws: Workspace, goal: Item) -> list[HazardAsil]:
    """The hazardous events a safety goal covers, each with its ASIL and the place it is stated.

    A HARA row's stated ASIL is used first; an event written as an item contributes its ASIL attribute
    or, without one, the ASIL its S/E/C classes give. Events without a readable ASIL are left out.
    """
    found: dict[str, HazardAsil] = {}
    event_ids = [link.target for link in goal.links("hazard")]
    event_ids += [ref.event_id for ref in ws.references(goal.id) if ref.key == "safety-goal" and ref.event_id]
    for event_id in event_ids:
        if event_id in found:
            continue
        for path, row in ws.hara_rows(event_id):
            cell = row.cells.get("asil")
            value = parse_asil(cell.text) if cell else None
            if value is not None and cell is not None:
                found[event_id] = HazardAsil(event_id, value.level, path, cell.span)
                break
        event_item = ws.item(event_id)
        if event_item is not None and event_id not in found:
            value = stated_asil(event_item)
            sec = sec_classes(event_item)
            level = value.level if value else (sec.asil if sec else None)
            if level:
                attr = event_item.attribute("asil")
                span = attr.value_span if value and attr else event_item.id_span
                found[event_id] = HazardAsil(event_id, level, event_item.path, span)
    return list(found.values())


def highest_hazard(ws: Workspace, goal: Item) -> HazardAsil | None:
    """The covered hazardous event with the highest ASIL: the ASIL the goal must have at least."""
    best: HazardAsil | None = None
    for h in covering_hazards(ws, goal):
        if best is None or rank(h.level) > rank(best.level):
            best = h
    return best


def row_asil(row: HaraRow) -> str | None:
    """A HARA row's ASIL: the stated one when readable, else the one its S/E/C cells give."""
    cell = row.cells.get("asil")
    value = parse_asil(cell.text) if cell else None
    if value is not None:
        return value.level
    classes = [row.cells.get(k) for k in ("severity", "exposure", "controllability")]
    if any(c is None for c in classes):
        return None
    return determine_asil(*(c.text for c in classes))  # type: ignore[union-attr]


def usable_asil(item: Item) -> AsilValue | None:
    """The stated ASIL when it is a possible one (not ``D(B)``, whose level exceeds its original)."""
    attr = item.attribute("asil")
    return None if attr is None else usable_asil_value(attr.value)


def inherited_asil(ws: Workspace, item: Item) -> AsilValue | None:
    """The ASIL the item should state when it states none: from its hazards (a safety goal), its
    parents (a requirement: the highest parent's value, a decomposed one carried as is) or its S/E/C."""
    if ws.category(item) == "safety-goal":
        top = highest_hazard(ws, item)
        if top is not None:
            return AsilValue(top.level)
    req = required_asil(ws, item)
    if req is not None:
        return req.via
    sec = sec_classes(item)
    return AsilValue(sec.asil) if sec and sec.asil else None


@dataclass(frozen=True, slots=True)
class Decomposition:
    """The children that decompose a parent's ASIL (their bracket names the parent's original ASIL and
    their value differs from the parent's), with the verdict against ISO 26262-9 clause 5."""

    parent: Item
    value: AsilValue
    members: tuple[tuple[Item, AsilValue], ...]
    verdict: DecompositionVerdict

    def scheme(self) -> str:
        """The members' values joined with ``+``, e.g. ``B(D)+B(D)``."""
        return "+".join(str(v) for _item, v in self.members)


def decomposition_of(ws: Workspace, parent: Item) -> Decomposition | None:
    """How the parent's ASIL is decomposed among its children, or None when no child decomposes it."""
    if ws.item(parent.id) is not parent:
        return None
    return decomposition_among(parent, ws.children(parent.id))


def decomposition_among(
    parent: Item, children: Iterable[Item], asil_of: Callable[[Item], AsilValue | None] = usable_asil,
) -> Decomposition | None:
    """``decomposition_of`` for a known list of the parent's children; the checks pass the children and
    the (precomputed) ``usable_asil`` values from the trace graph.

    A child that repeats a decomposed parent's value (``B(D)`` under ``B(D)``) inherits it rather than
    decomposing it, but can stand for the ``B`` half of a ``B(D)+QM(D)`` decomposition.
    """
    value = asil_of(parent)
    if value is None:
        return None
    members: list[tuple[Item, AsilValue]] = []
    inherited = False
    for child in children:
        cv = asil_of(child) if child is not parent else None
        if cv is None or not cv.decomposed or cv.original != value.effective:
            continue
        if cv == value:
            inherited = True
        else:
            members.append((child, cv))
    if not members:
        return None
    verdict = judge_decomposition(value.level, [v.level for _c, v in members], inherited_partner=inherited)
    return Decomposition(parent, value, tuple(members), verdict)


@dataclass(frozen=True, slots=True)
class AsilExplanation:
    """A human-readable account of an item's ASIL, for hovers and code lenses."""

    value: AsilValue | None
    lines: tuple[str, ...]


def explain_asil(ws: Workspace, item: Item) -> AsilExplanation:
    value = stated_asil(item)
    lines: list[str] = []
    if value is None:
        lines.append("no ASIL stated")
    elif value.decomposed:
        lines.append(f"ASIL {value}: decomposed from ASIL {value.original} (ISO 26262-9)")
    else:
        lines.append(f"ASIL {value} (stated)")
    sec = sec_classes(item)
    if sec is not None:
        lines.append(f"S/E/C {sec} gives ASIL {sec.asil or 'n/a (invalid class)'} (ISO 26262-3 Table 4)")
    req = required_asil(ws, item)
    if req is not None:
        lines.append(f"inherits ASIL {req.via} from {req.parent_id}")
    if ws.category(item) == "safety-goal":
        for event_id, level in hazard_asils(ws, item):
            lines.append(f"covers hazardous event {event_id} (ASIL {level})")
    return AsilExplanation(value, tuple(lines))
