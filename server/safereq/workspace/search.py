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
