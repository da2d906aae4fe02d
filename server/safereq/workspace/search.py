"""Find items by a short, sloppy query ("fsr per 12", "pedestrian detect"): fuzzy over ID and title.

Workspace-symbol search in editors sends every keystroke, so this must stay cheap at 20,000 items:
rapidfuzz scores all "ID title" strings in C, and the result count is capped.
"""

from __future__ import annotations

from ..model.document import Item
from .workspace import Workspace


def search_items(ws: Workspace, query: str, limit: int = 100) -> list[Item]:
    """Items that match ``query``, best first; IDs starting with the query come before other matches.

    An empty query lists the first ``limit`` items in ID order.
    """
    items = {f"{it.id}\x00{it.path}\x00{it.line}": it for it in ws.items()}
    query = query.strip()
    if not query:
        return sorted(items.values(), key=lambda it: it.id)[:limit]
    from rapidfuzz import fuzz, process, utils

    choices = {key: f"{it.id} {it.title}" for key, it in items.items()}
    hits = process.extract(query, choices, scorer=fuzz.WRatio, processor=utils.default_process,
                           limit=limit * 2, score_cutoff=50)
    upper = query.upper()
    ranked = sorted(hits, key=lambda h: (not items[h[2]].id.startswith(upper), -h[1], items[h[2]].id))
    return [items[h[2]] for h in ranked[:limit]]


def find_items(ws: Workspace, *, item_id: str = "", kind: str = "", asil: str = "", text: str = "",
               attribute: str = "", document: str = "") -> list[Item]:
    """Items that pass every filter given, in path and line order (the MCP server's ``find_items``).

    ``item_id`` matches an ID exactly or, ending in ``*``, as a prefix; ``kind`` the kind (``FSR``) or its
    category (``safety-goal``); ``asil`` the stated ASIL (``D``, ``B(D)``; ``QM``); ``text`` a case-blind
    substring of ID, title or statement; ``attribute`` a key (``ftti``) or ``key=value`` (value a case-blind
    substring); ``document`` the document's path. All comparisons are case-blind.
    """
    from .facts import stated_asil

    wanted_id = item_id.strip().upper()
    wanted_kind = kind.strip().lower()
    wanted_asil = asil.strip().upper().removeprefix("ASIL").strip()
    needle = text.strip().lower()
    key, _, value = attribute.partition("=")
    key, value = key.strip().lower(), value.strip().lower()
    out = []
    for it in ws.items():
        if wanted_id and not (it.id.upper().startswith(wanted_id[:-1]) if wanted_id.endswith("*")
                              else it.id.upper() == wanted_id):
            continue
        if document and it.path != document:
            continue
        if wanted_kind and it.kind.lower() != wanted_kind and ws.category(it).lower() != wanted_kind:
            continue
        if wanted_asil:
            stated = stated_asil(it)
            if stated is None or str(stated).upper() != wanted_asil:
                continue
        if key:
            attr = it.attribute(key)
            if attr is None or (value and value not in attr.value.lower()):
                continue
        if needle and needle not in f"{it.id}\n{it.title}\n{it.statement.text}".lower():
            continue
        out.append(it)
    return out
