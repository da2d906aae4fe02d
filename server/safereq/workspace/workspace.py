"""All documents of a workspace and the indexes the checks, hovers and navigation ask.

The workspace is the only stateful object of the core. Updating one document replaces that document's
contributions to the indexes and leaves every other document untouched, so an edit costs in proportion to
the edited document, not to the workspace.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from ..model.document import Document, HaraRow, Item, Link
from ..model.incremental import parse_document
from ..model.ranges import new_tuple
from ..model.vocabulary import Vocabulary, load_vocabulary

LINK_KEYS = ("derived-from", "verified-by", "hazard")


class Reference(NamedTuple):
    """A link to an ID: where it is (path, link span), which item holds it and under which attribute key.

    ``source`` is None for a link from a HARA table's safety-goal column; ``event_id`` is then the row's ID.
    A named tuple: one is made per link of the workspace, and a frozen dataclass costs several times more.
    """

    path: str
    link: Link
    source: Item | None
    key: str
    event_id: str | None = None


class Workspace:
    """Documents by path plus indexes: definitions by ID, references by target, HARA rows by ID."""

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary = vocabulary or load_vocabulary()
        self.documents: dict[str, Document] = {}
        self._items: dict[str, list[Item]] = defaultdict(list)
        self._hara: dict[str, list[tuple[str, HaraRow]]] = defaultdict(list)
        self._refs: dict[str, list[Reference]] = defaultdict(list)
        self.generation = 0
        self._categories: tuple[Vocabulary, dict[str, str]] = (self.vocabulary, {})  # see category()
        # The answers of definitions(), references(), children() and verifiers(), kept until the next change (``generation``):
        # a code lens or a check asks them once per item, and n items that share an ID (or link to one)
        # made every answer cost n log n, so n of them n² log n (issue 25, item 9).
        self._answers: dict[tuple[str, str], list] = {}
        self._answers_generation = 0

    # -- updates -------------------------------------------------------------------------------------------
    def update(self, path: str, text: str) -> Document:
        """Parse (incrementally, reusing the last parse of ``path``) and index one document.

        Only the items whose identity changed are re-indexed: unchanged items are reused by the parser.
        """
        previous = self.documents.get(path)
        if previous is not None and previous.text == text:
            return previous
        doc = parse_document(path, text, self.vocabulary, previous)
        old_items = previous.items if previous is not None else []
        diff = doc.sections
        if old_items and getattr(diff, "base", None) is old_items:
            # The parser says which items it replaced: no need to compare thousands of unchanged ones.
            removed, added = diff.removed, diff.added
        else:
            kept = set(map(id, doc.items))
            removed = [item for item in old_items if id(item) not in kept]
            old = set(map(id, old_items))
            added = [item for item in doc.items if id(item) not in old]
        self._unindex_items(removed)
        for item in added:
            self._index_item(item)
        # Rows from unchanged sections are the same objects: most edits leave the HARA index as it is.
        if previous is None or not _same_objects(previous.hara_rows, doc.hara_rows):
            if previous is not None and previous.hara_rows:
                self._unindex_hara(previous)
            self._index_hara(doc)
        self.documents[path] = doc
        self.generation += 1
        return doc

    def update_many(self, documents: Iterable[tuple[str, str]]) -> None:
        """Load many documents at once (start-up, ``safereq check``).

        The cyclic garbage collector is paused while the object graph grows and the survivors are then
        frozen: otherwise repeated collections over hundreds of thousands of live spans cost about a
        quarter of the load time.
        """
        enabled = gc.isenabled()
        gc.disable()
        try:
            for path, text in documents:
                self.update(path, text)
        finally:
            gc.freeze()
            if enabled:
                gc.enable()

    def remove(self, path: str) -> None:
        doc = self.documents.pop(path, None)
        if doc is not None:
            self._unindex_items(doc.items)
            self._unindex_hara(doc)
            self.generation += 1

    def _index_item(self, item: Item) -> None:
        self._items[item.id].append(item)
        for attr in item.attributes:
            for link in attr.links:
                if link.valid:
                    self._refs[link.target].append(new_tuple(Reference, (item.path, link, item, attr.key, None)))

    def _unindex_items(self, items: Iterable[Item]) -> None:
        """Drop the items and their links from the indexes, each index entry filtered once for all of them
        (one at a time, n items sharing an ID or a link target cost n²)."""
        gone: set[int] = set()
        ids: set[str] = set()
        targets: set[str] = set()
        for item in items:
            gone.add(id(item))
            ids.add(item.id)
            targets.update(link.target for attr in item.attributes for link in attr.links)
        for item_id in ids:
            _drop(self._items, item_id, lambda it: id(it) in gone)
        for target in targets:
            _drop(self._refs, target, lambda r: r.source is not None and id(r.source) in gone)

    def _index_hara(self, doc: Document) -> None:
        for row in doc.hara_rows:
            self._hara[row.id].append((doc.path, row))
            for link in row.goal_links():
                self._refs[link.target].append(Reference(doc.path, link, None, "safety-goal", row.id))

    def _unindex_hara(self, doc: Document) -> None:
        for row in doc.hara_rows:
            _drop(self._hara, row.id, lambda entry: entry[0] == doc.path)
            for link in row.goal_links():
                _drop(self._refs, link.target, lambda r: r.path == doc.path and r.source is None)

    # -- queries -------------------------------------------------------------------------------------------
    def items(self) -> Iterator[Item]:
        """Every item, in document path order then source order (deterministic output)."""
        for path in sorted(self.documents):
            yield from self.documents[path].items

    def _answer(self, kind: str, key: str, compute: Callable[[], list]) -> list:
        """``compute()``, remembered for (kind, key) until the workspace changes."""
        if self._answers_generation != self.generation:
            self._answers.clear()
            self._answers_generation = self.generation
        found = self._answers.get((kind, key))
        if found is None:
            found = self._answers[(kind, key)] = compute()
        return found

    def definitions(self, item_id: str) -> list[Item]:
        """Every item defined with this ID (more than one is a duplicate); shared until the next change, so
        not to be modified."""
        return self._answer("items", item_id, lambda: sorted(self._items.get(item_id, ()),
                                                             key=lambda it: (it.path, it.line)))

    def item(self, item_id: str) -> Item | None:
        """The first definition of an ID (by path and line), or None."""
        defs = self.definitions(item_id)
        return defs[0] if defs else None

    def hara_rows(self, event_id: str) -> list[tuple[str, HaraRow]]:
        return sorted(self._hara.get(event_id, ()), key=lambda e: (e[0], e[1].span.start_line))

    def is_defined(self, item_id: str) -> bool:
        return bool(self._items.get(item_id)) or bool(self._hara.get(item_id))

    def all_ids(self) -> list[str]:
        """Every defined ID, sorted (items and HARA hazardous events)."""
        return sorted({k for k, v in self._items.items() if v} | {k for k, v in self._hara.items() if v})

    def linked_ids(self) -> set[str]:
        """Every ID that some link names, defined or not."""
        return {k for k, v in self._refs.items() if v}

    def references(self, item_id: str) -> list[Reference]:
        """Every link to ``item_id`` anywhere in the workspace, sorted by place; shared until the next
        change, so not to be modified."""
        return self._answer("refs", item_id, lambda: sorted(self._refs.get(item_id, ()),
                                                            key=lambda r: (r.path, r.link.span)))

    def parents(self, item: Item) -> list[Link]:
        """The item's "Derived from" links (its parents in the trace graph)."""
        return item.links("derived-from")

    def children(self, item_id: str) -> list[Item]:
        """Items that declare ``item_id`` as a parent ("Derived from"); shared until the next change, so not
        to be modified."""
        return self._answer("children", item_id, lambda: self._sources(item_id, "derived-from"))

    def verifiers(self, item_id: str) -> list[Item]:
        """Items that name ``item_id`` under "Verified by" (what a verification item verifies); shared until
        the next change, so not to be modified."""
        return self._answer("verifiers", item_id, lambda: self._sources(item_id, "verified-by"))

    def _sources(self, item_id: str, key: str) -> list[Item]:
        seen: dict[int, Item] = {}
        for ref in self.references(item_id):
            if ref.key == key and ref.source is not None:
                seen.setdefault(id(ref.source), ref.source)
        return list(seen.values())

    def category(self, item: Item) -> str:
        """The item's kind category (rules/kinds.yaml): safety-goal, safety-requirement, hazard, ...

        Asked about three times per item in a check, so remembered per kind (for this vocabulary)."""
        memo = self._categories
        if memo[0] is not self.vocabulary:
            memo = self._categories = (self.vocabulary, {})
        category = memo[1].get(item.kind)
        if category is None:
            kind = self.vocabulary.kind_of(item.kind)
            category = memo[1][item.kind] = kind.category if kind else "requirement"
        return category

    def item_at(self, path: str, line: int) -> Item | None:
        doc = self.documents.get(path)
        return doc.item_at(line) if doc else None


def _drop(index: dict, key: str, predicate) -> None:
    entries = index.get(key)
    if not entries:
        return
    kept = [e for e in entries if not predicate(e)]
    if kept:
        index[key] = kept
    else:
        del index[key]


def _same_objects(a: list, b: list) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))
