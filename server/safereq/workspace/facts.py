"""ASIL facts: what an item's ASIL is, what it should be, and why — for checks, hovers and the agent."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.document import Item
from .asil import AsilValue, determine_asil, parse_asil, rank
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
    found: dict[str, str] = {}
    event_ids = [link.target for link in goal.links("hazard")]
    event_ids += [ref.event_id for ref in ws.references(goal.id) if ref.key == "safety-goal" and ref.event_id]
    for event_id in event_ids:
        for _path, row in ws.hara_rows(event_id):
            cell = row.cells.get("asil")
            value = parse_asil(cell.text) if cell else None
            if value is not None:
                found.setdefault(event_id, value.level)
        event_item = ws.item(event_id)
        if event_item is not None and event_id not in found:
            value = stated_asil(event_item)
            sec = sec_classes(event_item)
            level = value.level if value else (sec.asil if sec else None)
            if level:
                found[event_id] = level
    return sorted(found.items())


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
