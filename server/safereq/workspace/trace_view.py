"""What the trace graph says about one item: parents, children, verification, hazards, ASIL — and its trace chain.

Hovers, code lenses and the "show trace" command all present the same facts; this module gathers them once,
without protocol types, so the language server and the command line render one truth. Walks are bounded
(depth and node count) and cycle-safe, because users' trace graphs can be large and can be wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..model.document import HaraRow, Item
from ..model.ids import ID_RE, is_item_id
from .asil import determine_asil, parse_asil
from .facts import AsilExplanation, explain_asil, stated_asil
from .workspace import Workspace

MAX_DEPTH = 12
MAX_NODES = 400


@dataclass(frozen=True, slots=True)
class LinkedId:
    """A link target and what it resolves to (None when nothing defines it: a dangling link)."""

    id: str
    item: Item | None
    defined: bool


@dataclass(frozen=True, slots=True)
class ItemView:
    """Everything a reader wants to know about an item at a glance."""

    item: Item
    kind_name: str
    category: str
    asil: AsilExplanation
    parents: tuple[LinkedId, ...]
    children: tuple[Item, ...]
    verified_by: tuple[LinkedId, ...]
    verifies: tuple[Item, ...]
    hazards: tuple[LinkedId, ...]
    definitions: int


@dataclass(frozen=True, slots=True)
class EventView:
    """A hazardous event as defined by HARA rows (and possibly an item), with the ASIL its S/E/C gives."""

    id: str
    rows: tuple[tuple[str, HaraRow], ...]
    item: Item | None
    computed_asil: str | None
    stated_asil: str | None
    goals: tuple[LinkedId, ...]


def split_ids(text: str) -> list[str]:
    """The item IDs in a comma-separated cell such as ``SG-1, SG-2``."""
    return [m.group(0) for m in ID_RE.finditer(text) if is_item_id(m.group(0))]


def _linked(ws: Workspace, target: str) -> LinkedId:
    return LinkedId(target, ws.item(target), ws.is_defined(target))


def item_view(ws: Workspace, item: Item) -> ItemView:
    kind = ws.vocabulary.kind_of(item.kind)
    return ItemView(
        item=item,
        kind_name=kind.name if kind else item.kind,
        category=ws.category(item),
        asil=explain_asil(ws, item),
        parents=tuple(_linked(ws, link.target) for link in item.links("derived-from")),
        children=tuple(ws.children(item.id)),
        verified_by=tuple(_linked(ws, link.target) for link in item.links("verified-by")),
        verifies=tuple(ws.verifiers(item.id)),
        hazards=tuple(_linked(ws, link.target) for link in item.links("hazard")),
        definitions=len(ws.definitions(item.id)),
    )


def event_view(ws: Workspace, event_id: str) -> EventView | None:
    """The hazardous event ``event_id`` from HARA rows or an item; None when neither defines it."""
    rows = tuple(ws.hara_rows(event_id))
    item = ws.item(event_id)
    if not rows and item is None:
        return None
    computed = stated = None
    goals: list[str] = []
    for _path, row in rows:
        cells = row.cells
        if computed is None and all(k in cells for k in ("severity", "exposure", "controllability")):
            computed = determine_asil(cells["severity"].text, cells["exposure"].text, cells["controllability"].text)
        if stated is None and "asil" in cells:
            value = parse_asil(cells["asil"].text)
            stated = str(value) if value else cells["asil"].text
        if "safety-goal" in cells:
            goals.extend(split_ids(cells["safety-goal"].text))
    if item is not None:
        value = stated_asil(item)
        stated = stated or (str(value) if value else None)
    for ref in ws.references(event_id):
        if ref.key == "hazard" and ref.source is not None:
            goals.append(ref.source.id)
    unique = list(dict.fromkeys(goals))
    return EventView(event_id, rows, item, computed, stated, tuple(_linked(ws, g) for g in unique))


@dataclass(slots=True)
class TraceNode:
    """One node of a trace tree; ``repeated`` marks an item already shown (a cycle or a shared ancestor)."""

    id: str
    item: Item | None
    relation: str
    children: list[TraceNode] = field(default_factory=list)
    repeated: bool = False
    truncated: bool = False


def _up(ws: Workspace, item: Item) -> list[tuple[str, str]]:
    out = [(link.target, "derived from") for link in item.links("derived-from")]
    out += [(link.target, "hazard") for link in item.links("hazard")]
    out += [(ref.event_id, "hazard") for ref in ws.references(item.id) if ref.key == "safety-goal" and ref.event_id]
    return list(dict.fromkeys(out))


def _down(ws: Workspace, item_id: str) -> list[tuple[str, str]]:
    out = [(child.id, "child") for child in ws.children(item_id)]
    out += [(ref.source.id, "safety goal") for ref in ws.references(item_id) if ref.key == "hazard" and ref.source]
    for _path, row in ws.hara_rows(item_id):
        if "safety-goal" in row.cells:
            out += [(goal, "safety goal") for goal in split_ids(row.cells["safety-goal"].text)]
    item = ws.item(item_id)
    if item is not None:
        out += [(link.target, "verified by") for link in item.links("verified-by")]
    return list(dict.fromkeys(out))


def trace_tree(ws: Workspace, item_id: str, direction: str) -> TraceNode:
    """The chain above (``direction="up"``: parents, hazards) or below (``"down"``: children, verification)."""
    root = TraceNode(item_id, ws.item(item_id), "")
    seen = {item_id}
    budget = [MAX_NODES]

    def grow(node: TraceNode, depth: int) -> None:
        if node.item is None and direction == "up":
            return
        nexts = _up(ws, node.item) if direction == "up" and node.item else _down(ws, node.id)
        for target, relation in nexts:
            if budget[0] <= 0 or depth >= MAX_DEPTH:
                node.truncated = True
                return
            budget[0] -= 1
            child = TraceNode(target, ws.item(target), relation)
            node.children.append(child)
            if target in seen:
                child.repeated = True
                continue
            seen.add(target)
            grow(child, depth + 1)

    grow(root, 0)
    return root


def _label(ws: Workspace, node: TraceNode) -> str:
    if node.item is None:
        rows = ws.hara_rows(node.id)
        if rows:
            view = event_view(ws, node.id)
            asil = (view.stated_asil or view.computed_asil) if view else None
            return f"**{node.id}** (hazardous event{', ASIL ' + asil if asil else ''})"
        return f"**{node.id}** — *not defined anywhere*"
    value = stated_asil(node.item)
    asil = f", ASIL {value}" if value else ""
    return f"**{node.id}**: {node.item.title} ({node.item.kind}{asil})"


def _render(ws: Workspace, node: TraceNode, depth: int, out: list[str],
            marks: Mapping[tuple[str, str], str]) -> None:
    for child in node.children:
        note = " *(shown above)*" if child.repeated else ""
        mark = marks.get((node.id, child.id)) or marks.get((child.id, node.id))
        if mark:
            note += f" — ⚠ *suspect: {mark}*"
        out.append(f"{'  ' * depth}- {child.relation}: {_label(ws, child)}{note}")
        if not child.repeated:
            _render(ws, child, depth + 1, out, marks)
    if node.truncated:
        out.append(f"{'  ' * depth}- … *(more; the trace is cut at {MAX_DEPTH} levels / {MAX_NODES} items)*")


def trace_markdown(ws: Workspace, item_id: str, marks: Mapping[tuple[str, str], str] | None = None) -> str:
    """The trace of one item as Markdown: the item, its chain upwards, its chain downwards.

    ``marks`` flags links: (dependent ID, ID it depends on) → what to say, e.g. what changed in the
    target of a suspect link since the dependent was reviewed (the change-impact layer computes them)."""
    item = ws.item(item_id)
    if item is None:
        view = event_view(ws, item_id)
        if view is None:
            raise KeyError(item_id)
        head = [f"# Trace of {item_id}", "", _label(ws, TraceNode(item_id, None, ""))]
    else:
        head = [f"# Trace of {item_id}", "", _label(ws, TraceNode(item_id, item, ""))]
        head += [f"- {line}" for line in explain_asil(ws, item).lines]
    out = list(head)
    for title, direction in (("Upwards (parents and hazards)", "up"), ("Downwards (children, goals, verification)", "down")):
        out += ["", f"## {title}", ""]
        tree = trace_tree(ws, item_id, direction)
        if tree.children:
            _render(ws, tree, 0, out, marks or {})
        else:
            out.append("*none*")
    return "\n".join(out) + "\n"
