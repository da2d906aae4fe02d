"""Which item functions can report on an item, so that checking it calls only those.

A cold check of a large workspace runs ~25 item functions on each of tens of thousands of items, and nearly
every call finds nothing: most statements have no vague term, no second "shall", no number; most items have
no severity attribute. A function registered with ``topics`` (registry.item_check, registry.item_part) can
report only on an item that has one of them, and the item's topics are facts already at hand:

- its statement's topics (analysis.Statement.topics: word lists with entries, modal facts, ``number``), or
  ``no-statement`` when its statement is not checked (no requirement, or empty);
- ``attr:<key>`` for each of its attribute keys (``attr:asil``);
- ``category:<category>``, its kind's category (``category:safety-requirement``).

The functions still test their own conditions, so calling one too often costs only time; a topic must never
be missing when its function would report. The choice depends only on the topics, so it is made once per
combination of them, which items share.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

from ...model.document import Item
from ..analysis.shared import analysed
from ..context import CheckContext
from ..registry import CheckFn

NO_STATEMENT = frozenset({"no-statement"})
_KEY = itemgetter(0)  # Attribute.key (a named tuple's first field), read at C speed for every item


class ItemDispatch:
    """The item functions of one checker, and which of them to call for an item (``dispatch(ctx, item)``)."""

    def __init__(self, fns: Iterable[tuple[str, CheckFn, frozenset[str] | None]]) -> None:
        self._fns = list(fns)
        # (statement topics, attribute keys, category) -> the (rule, function) pairs to call, in order.
        self._chosen: dict[tuple, tuple[tuple[str, CheckFn], ...]] = {}

    def __call__(self, ctx: CheckContext, item: Item) -> tuple[tuple[str, CheckFn], ...]:
        a = analysed(ctx, item)
        key = (NO_STATEMENT if a is None else a.topics, frozenset(map(_KEY, item.attributes)),
               ctx.workspace.category(item))
        chosen = self._chosen.get(key)
        if chosen is None:
            chosen = self._chosen[key] = self._choose(*key)
        return chosen

    def _choose(self, statement: frozenset[str], keys: frozenset[str],
                category: str) -> tuple[tuple[str, CheckFn], ...]:
        topics = statement | {f"attr:{key}" for key in keys} | {f"category:{category}"}
        return tuple((rule, fn) for rule, fn, needs in self._fns if needs is None or not needs.isdisjoint(topics))
