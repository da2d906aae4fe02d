"""Assemble a :class:`Document` from its sections, re-doing after an edit only what the edit touched.

A keystroke in a 2,000-requirement document must cost well under 10 ms, so nothing here may build anything
per section or item of the document: the re-split (:func:`.sections.resplit_sections`) says how many
sections at the start (``head``) and at the end (``tail``) of the document the edit left alone, and the
previous parse's section results and items are spliced around the few sections parsed again.

- Section results before the edit are the old objects. After it, they are the old objects too, moved by
  the lines the edit added or removed: moving a section adds to its anchor (see :class:`.ranges.Anchor`),
  which moves everything parsed from it, so inserting a line above 1,000 items rebuilds none of them.
- Items whose sections are all old objects are the old items (recorded in ``moved`` when they moved).
  Only the items around the edit are grouped and built again.

Unchanged and moved items keep their identity, which is what the workspace index and the checker's caches
key on. Moving reuses the previous parse's objects, so that parse is outdated afterwards: its cache is
dropped, and a document must be parsed incrementally from its latest parse only.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter
from typing import Any

from .clauses import ClauseRef
from .document import Document, HaraRow, Item, Problem
from .parser import SectionResult, build_item, parse_front_matter, parse_section
from .sections import (
    Layout, LineChange, Resplit, changed_lines, front_matter_end, has_fences, resplit_sections, split_sections,
)
from .vocabulary import Vocabulary


@dataclass(slots=True)
class SectionCache:
    """The previous parse of a document, kept on the :class:`Document` to make the next parse incremental."""

    vocabulary: Vocabulary
    front_matter: str  # the front matter's text: items depend on it (kind, language)
    layout: Layout
    fenced: bool  # whether the text has fences (the re-split needs to know; see model.sections)
    results: list[SectionResult]  # one per section of ``layout``
    items: list[Item]  # the document's items
    ranges: list[tuple[int, int]]  # per item, the section indexes [first, end) it was built from
    # Items that an edit only moved (the same objects): id(item) → (item, lines moved). Lets the checker
    # move the item's findings instead of checking it again.
    moved: dict[int, tuple[Item, int]] = field(default_factory=dict)
    # What changed since the document whose item list is ``base`` (None: a parse from scratch), so that
    # the workspace re-indexes the changed items without comparing every item.
    base: list[Item] | None = None
    removed: list[Item] = field(default_factory=list)
    added: list[Item] = field(default_factory=list)
    # The parse's number in its chain of incremental parses (0: a parse from scratch, which starts a new
    # ``lineage``), and the line changes of the last parses in that chain, oldest first, each tagged with
    # the version it made: they let the checker move findings found in an earlier version (checks.engine).
    version: int = 0
    changes: tuple[LineChange, ...] = ()
    lineage: object = field(default_factory=object)  # the same object along one chain of parses


HISTORY = 32  # line changes kept per document


def parse_document(path: str, text: str, vocab: Vocabulary, previous: Document | None = None) -> Document:
    """Parse ``text``; when ``previous`` (the last parse of the same document) is given, reuse what is unchanged."""
    old = previous.sections if previous is not None else None
    if not isinstance(old, SectionCache) or old.vocabulary is not vocab:
        old = None
    problems: list[Problem] = []
    fm_end = front_matter_end(text)
    fm_text = text[:fm_end]
    front: dict[str, Any] = parse_front_matter(fm_text.split("\n")[:-1], problems) if fm_end else {}
    default_language = "zh" if str(front.get("language", "en")).lower().startswith("zh") else "en"
    same_front = old is not None and previous is not None and old.front_matter == fm_text

    if same_front:
        assert old is not None and previous is not None
        split = resplit_sections(previous.text, old.layout, text, fm_end, old.fenced)
    else:
        split = Resplit(split_sections(text, fm_end), 0, 0, 0, has_fences(text))
    layout, head, tail, line_delta, fenced = split
    n = len(layout.texts)
    old_results = old.results if old is not None else []
    n_old = len(old_results)
    if previous is not None:
        previous.sections = None  # its sections are about to move (see the module docstring)

    # Section results: the old ones around the edit, the sections in between parsed again unless an old
    # section of the replaced region has the same text (a block of lines moved, or the front matter
    # changed): that one is moved there. Each old section is used once; one at the same line first.
    # (Look-ups by line and text, then by text in document order: a document may repeat a section's text
    # thousands of times, e.g. a "Notes" sub-section under every item, so no look-up may scan.)
    spare_at: dict[tuple[int, str], SectionResult] = {}
    spare: dict[str, list[SectionResult]] = {}
    if old is not None:
        for line, key, res in zip(old.layout.lines[head:n_old - tail], old.layout.texts[head:n_old - tail],
                                  old_results[head:n_old - tail]):
            spare_at[line, key] = res
            spare.setdefault(key, []).append(res)
    taken: set[int] = set()
    cursor: dict[str, int] = {}
    moved_by: dict[int, int] = {}  # id(old result moved to another line) -> the lines it moved
    middle: list[SectionResult] = []
    for start, key in zip(layout.lines[head:n - tail], layout.texts[head:n - tail]):
        res = spare_at.pop((start, key), None) if spare_at else None
        if res is None and key in spare:
            pool, k = spare[key], cursor.get(key, 0)
            while k < len(pool) and (id(pool[k]) in taken or (pool[k].start, key) not in spare_at):
                k += 1  # skip those taken, by text or at their own line
            cursor[key] = k + 1
            if k < len(pool):
                res = pool[k]
                del spare_at[res.start, key]
        if res is None:
            middle.append(parse_section(key, start, vocab))
            continue
        taken.add(id(res))
        if res.start != start:
            moved_by[id(res)] = start - res.start
            res.move(start - res.start)
        middle.append(res)
    suffix = old_results[n_old - tail:] if tail else []
    if line_delta:
        for res in suffix:
            res.anchor.shift += line_delta  # SectionResult.move, inlined: it runs for every later section
    results = old_results[:head] + middle + suffix

    # Items: keep those the edit cannot have touched and group the sections in between again.
    if same_front:
        assert old is not None
        old_items, old_ranges = old.items, old.ranges
        kept = bisect_left(old_ranges, head, key=itemgetter(1))  # items closed by a section before the edit
        later = bisect_left(old_ranges, n_old - tail, key=itemgetter(0))  # items that start after it
    else:
        old_items, old_ranges, kept, later = [], [], 0, 0
    lo = old_ranges[kept - 1][1] if kept else 0
    index_shift = n - n_old
    hi = old_ranges[later][0] + index_shift if later < len(old_ranges) else n
    reusable = {tuple(map(id, old_results[a:b])): item for item, (a, b) in zip(old_items[kept:later], old_ranges[kept:later])}

    items = old_items[:kept]
    ranges = old_ranges[:kept]
    moved: dict[int, tuple[Item, int]] = {}
    added: list[Item] = []

    def add(a: int, b: int) -> None:
        sections = results[a:b]
        item = reusable.get(tuple(map(id, sections))) if reusable else None
        if item is None:
            item = build_item(path, sections, vocab, front, default_language)
            added.append(item)
        elif id(sections[0]) in moved_by:
            moved[id(item)] = (item, moved_by[id(sections[0])])
        items.append(item)
        ranges.append((a, b))

    first: int | None = None  # the first section of the item being grouped
    for i in range(lo, hi):
        h = results[i].heading
        if h is None:
            continue
        if h.item_id is not None:
            if first is not None:
                add(first, i)
            first = i
        elif first is not None and h.level <= results[first].heading.level:  # type: ignore[union-attr]
            add(first, i)
            first = None
    if first is not None:
        add(first, hi)

    later_items = old_items[later:]
    later_ranges = old_ranges[later:]
    if index_shift:
        later_ranges = [(a + index_shift, b + index_shift) for a, b in later_ranges]
    ranges += later_ranges
    items += later_items  # the same objects, moved with their sections
    if line_delta:
        moved.update(zip(map(id, later_items), zip(later_items, repeat(line_delta))))

    hara: list[HaraRow] = []
    refs: list[ClauseRef] = []
    for res in results:
        if res.problems:
            problems.extend(res.problems)
        if res.hara_rows:
            hara.extend(res.hara_rows)
        if res.clause_refs:
            refs.extend(res.clause_refs)
    cache = SectionCache(vocab, fm_text, layout, fenced, results, items, ranges, moved)
    if old is not None and previous is not None:
        # The resplit found the sections before ``head`` and after ``tail`` equal: the search for the
        # changed lines starts from there.
        offsets = old.layout.offsets
        same_before = same_after = line_before = 0
        if same_front:
            if head < n_old:
                same_before, line_before = offsets[head], old.layout.lines[head]
            same_after = len(previous.text) - offsets[n_old - tail] if tail else 0
        cache.version, cache.lineage = old.version + 1, old.lineage
        change = changed_lines(previous.text, text, cache.version, same_before, same_after, line_before)
        cache.changes = old.changes[-(HISTORY - 1):] + (change,)
    if same_front:
        regrouped = set(map(id, items[kept:len(items) - len(later_items)]))
        cache.base, cache.added = old_items, added
        cache.removed = [item for item in old_items[kept:later] if id(item) not in regrouped]
    # Sections run to the end of the text: counting the last one's lines is cheaper than the text's.
    line_count = layout.lines[-1] + layout.texts[-1].count("\n") + 1
    return Document(
        path=path, text=text, items=items, hara_rows=hara, clause_refs=refs, front_matter=front,
        problems=problems, language=default_language, line_count=line_count,
        sections=cache,
    )
