"""What a request is about: the item and its neighbourhood, read once from the workspace.

The pipeline (and the worker process) works on this snapshot instead of the live workspace, so a request
sees one consistent state and can be serialised across the process boundary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from ...checks.config import Config
from ...model.document import Item
from ...workspace import Workspace


NotModal = Mapping[str, "tuple[str, ...] | list[str]"]  # language -> the project's extra not-modal words


@dataclass(frozen=True, slots=True)
class ItemSummary:
    """Another workspace item as the agent sees it (parents, children, link candidates)."""

    id: str
    kind: str
    category: str
    title: str
    statement: str
    asil: str = ""
    path: str = ""
    parents: tuple[str, ...] = ()
    allocated_to: str = ""  # the element it is allocated to (link ranking: same element, likely related)
    language: str = ""


@dataclass(frozen=True, slots=True)
class ItemContext:
    """The item a suggestion is for, with everything the planner and the patterns fill in."""

    id: str
    kind: str
    category: str
    title: str
    statement: str
    language: str
    asil: str = ""
    path: str = ""
    attributes: dict[str, str] = field(default_factory=dict)
    clause_refs: tuple[str, ...] = ()
    parents: tuple[ItemSummary, ...] = ()
    children: tuple[ItemSummary, ...] = ()
    ears: str = ""  # the statement's EARS pattern and conditions, as ears/no-pattern reads it (describe_ears)

    @property
    def safe_state(self) -> str:
        return self.attributes.get("safe-state", "")

    @property
    def ftti(self) -> str:
        return self.attributes.get("ftti", "")

    @property
    def allocated_to(self) -> str:
        return self.attributes.get("allocated-to", "")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class WorkspaceView:
    """The request's item plus every other item (for link candidates) and every defined ID (for new IDs)."""

    item: ItemContext | None
    items: tuple[ItemSummary, ...]
    ids: frozenset[str]


def summarise(ws: Workspace, item: Item) -> ItemSummary:
    asil = item.attribute("asil")
    allocated = item.attribute("allocated-to")
    return ItemSummary(item.id, item.kind, ws.category(item), item.title, item.statement.text,
                       asil.value if asil else "", item.path, tuple(link.target for link in ws.parents(item)),
                       allocated.value if allocated else "", item.language)


def item_context(ws: Workspace, item: Item, not_modal: NotModal | None = None) -> ItemContext:
    """The context of ``item``: its attributes by canonical key, clause references, parents, children and
    its statement's EARS pattern (read with the project's extra not-modal words, ``not_modal``)."""
    from ...checks import describe_ears

    attributes: dict[str, str] = {}
    for attr in item.attributes:
        attributes.setdefault(attr.key, attr.value)
    parents = tuple(summarise(ws, p) for p in (ws.item(link.target) for link in ws.parents(item)) if p is not None)
    children = tuple(summarise(ws, c) for c in ws.children(item.id))
    asil = item.attribute("asil")
    return ItemContext(
        id=item.id, kind=item.kind, category=ws.category(item), title=item.title, statement=item.statement.text,
        language=item.language, asil=asil.value if asil else "", path=item.path, attributes=attributes,
        clause_refs=tuple(str(ref) for ref in item.clause_refs), parents=parents, children=children,
        ears=describe_ears(item.statement.text, item.language, tuple((not_modal or {}).get(item.language, ())))
        if item.statement else "",
    )


def workspace_view(ws: Workspace, item: Item | None, not_modal: NotModal | None = None) -> WorkspaceView:
    return WorkspaceView(item_context(ws, item, not_modal) if item is not None else None,
                         tuple(summarise(ws, it) for it in ws.items()), frozenset(ws.all_ids()))


def not_modal_words(config: Config) -> dict[str, tuple[str, ...]]:
    """A configuration's extra not-modal words by language (what ``item_context`` takes)."""
    return {lang: config.not_modal(lang) for lang in ("en", "zh")}
