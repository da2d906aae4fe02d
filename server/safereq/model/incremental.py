"""Assemble a :class:`Document` from its sections, re-doing after an edit only what the edit touched.

A keystroke in a 2,000-requirement document must cost well under 10 ms, so nothing here may walk every
section or item of the document in Python: the re-split (:func:`.sections.resplit_sections`) says how many
sections at the start (``head``) and at the end (``tail``) of the document the edit left alone, and the
previous parse's section results and items are spliced around the few sections parsed again.

- Section results before the edit are the old objects; after it, the old objects too when the edit kept
  the line count, else copies moved down (:meth:`SectionResult.shifted`).
- Items whose sections and closing heading all lie before the edit are the old objects; items that start
  after the edit are the old objects when nothing moved, else rebuilt and recorded in ``moved`` so that
  the checker moves their findings instead of checking them again. Only the items in between are grouped
  again, and even those are reused when their sections are the same objects as before.

Unchanged items keep their identity, which is what the workspace index and the checker's caches key on.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from .clauses import ClauseRef
from .document import Document, HaraRow, Item, Problem
from .parser import SectionResult, build_item, parse_front_matter, parse_section
from .sections import Layout, Resplit, front_matter_end, has_fences, resplit_sections, split_sections
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
    # Items rebuilt only because an edit above them moved them: id(new item) → (old item, lines moved).
    # Lets the checker move the old item's findings instead of checking the item again.
    moved: dict[int, tuple[Item, int]] = field(default_factory=dict)
    # What changed since the document whose item list is ``base`` (None: a parse from scratch), so that
    # the workspace re-indexes the changed items without comparing every item.
    base: list[Item] | None = None
    removed: list[Item] = field(default_factory=list)
    added: list[Item] = field(default_factory=list)


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

    # Section results: the old ones around the edit, the sections in between parsed again unless their
    # text was already there (a block of lines moved, or the front matter changed).
    # (A document may repeat a section's text, e.g. a "Notes" sub-section: the one at the same line first.)
    known: dict[str, SectionResult] = {}
    known_at: dict[tuple[int, str], SectionResult] = {}
    if old is not None:
        around = list(zip(old.layout.lines[head:n_old - tail], old.layout.texts[head:n_old - tail],
                          old_results[head:n_old - tail]))
        known = {key: res for _line, key, res in around}
        known_at = {(line, key): res for line, key, res in around}
    origin: dict[int, SectionResult] = {}  # id(moved copy) → the old result it was moved from
    middle: list[SectionResult] = []
    fresh = zip(layout.lines[head:n - tail], layout.texts[head:n - tail])
    if not known:  # nothing to look up (a first parse, or an edit that only added sections)
        middle = [parse_section(key, start, vocab) for start, key in fresh]
    for start, key in fresh if known else ():
        res = known_at.get((start, key)) or known.get(key)
        if res is None:
            res = parse_section(key, start, vocab)
        elif res.start != start:
            moved_copy = res.shifted(start)
            origin[id(moved_copy)] = res
            res = moved_copy
        middle.append(res)
    suffix = old_results[n_old - tail:] if tail else []
    if line_delta and suffix:
        copies = [r.shifted(r.start + line_delta) for r in suffix]
        origin.update(zip(map(id, copies), suffix))
        suffix = copies
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
            if origin and all(id(r) in origin for r in sections):
                before = reusable.get(tuple(id(origin[id(r)]) for r in sections))
                if before is not None:
                    moved[id(item)] = (before, sections[0].start - origin[id(sections[0])].start)
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

    later_ranges = old_ranges[later:]
    if index_shift:
        later_ranges = [(a + index_shift, b + index_shift) for a, b in later_ranges]
    ranges += later_ranges
    if not line_delta:
        items += old_items[later:]  # the same objects: nothing about them changed
    else:
        for item, (a, b) in zip(old_items[later:], later_ranges):
            rebuilt = build_item(path, results[a:b], vocab, front, default_language)
            moved[id(rebuilt)] = (item, line_delta)
            added.append(rebuilt)
            items.append(rebuilt)

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
    if same_front:
        regrouped = set(map(id, items[kept:len(items) - (len(old_items) - later)]))
        cache.base, cache.added = old_items, added
        cache.removed = [item for item in old_items[kept:later] if id(item) not in regrouped]
        if line_delta:
            cache.removed += old_items[later:]
    # Sections run to the end of the text: counting the last one's lines is cheaper than the text's.
    line_count = layout.lines[-1] + layout.texts[-1].count("\n") + 1
    return Document(
        path=path, text=text, items=items, hara_rows=hara, clause_refs=refs, front_matter=front,
        problems=problems, language=default_language, line_count=line_count,
        sections=cache,
    )
