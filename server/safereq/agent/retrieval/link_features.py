"""What the trace-link ranking knows about each candidate: rare-word evidence first, then the workspace's links.

Rare shared words are the backbone: :class:`Bm25` (Okapi BM25 over the workspace's items, words stemmed so
"monitors" meets "monitoring", identifiers split into their parts) scores the item against every other item
in one pass, and a second one over stemmed word pairs beside it. Around it,
:func:`link_features` measures, per candidate, the signals an engineer reads from the project's own links:
the candidate's other children (does this item resemble what was already derived from it?), the item's
remaining parents (is the candidate like them?), which document the item's document derives from, how usual
the kind pair is, the element both are allocated to, whether the ASILs fit, how many children the
candidate already has, and where the items next to this one in its document point (scaled by how often that
document's neighbours share a parent). Each signal is a number in 0..1; how much each counts is data
(rules/links.yaml `ranking`), fitted by eval/agent/links_eval.py on public sets other than the one it
reports on, so a signal only weighs where it helped elsewhere.

The features are kept apart from the weights so that the evaluation computes them once per case and tries
weights without recomputing, and so that the ranking, the evaluation and the reasons read the same numbers.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from ...model.ids import kind_prefix
from ...workspace.asil import parse_asil, rank
from ..item.context import ItemSummary, WorkspaceView
from .knowledge import tokens

Relation = Literal["parent", "child"]
_K1, _B = 1.2, 0.75
FEATURES = ("text", "absolute", "cosine", "reverse", "siblings", "coparents", "document", "chain", "element", "asil",
            "fanout", "meaning", "likeness", "bigrams", "neighbours", "near", "standing", "standing_rank")


@cache
def _stemmer():
    import Stemmer  # PyStemmer: the Snowball stemmers in C (the pure-Python ones take ~0.25 ms a word)

    return Stemmer.Stemmer("english")


@cache
def stem(word: str) -> str:
    """The English Snowball stem of a Latin-script word (Chinese character pairs stay as they are)."""
    return _stemmer().stemWord(word) if word.isascii() and word.isalpha() and len(word) > 3 else word


def terms(text: str) -> list[str]:
    return [stem(t) for t in tokens(text)]


_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_IDENT = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:[a-z][A-Z]|[A-Z]{2}[a-z]|_[A-Za-z0-9])[A-Za-z0-9_]*\b")


def link_terms(text: str) -> list[str]:
    """:func:`terms`, plus the parts of identifiers (``GUILoginHandler`` also counts as gui, login, handler;
    ``TASK_HBEAT`` as task, hbeat): design items name classes and signals where requirements use words."""
    out = terms(text)
    for ident in _IDENT.findall(text):
        parts = [w.lower() for w in _CAMEL.findall(ident) if len(w) > 1]
        out.extend(stem(w) for w in parts if len(parts) > 1)
    return out


def bigrams(words: Sequence[str]) -> list[str]:
    """Adjacent stemmed word pairs: "brake pedal" ties two texts more than "brake" and "pedal" apart."""
    return [f"{a} {b}" for a, b in zip(words, words[1:])]


class Bm25:
    """Okapi BM25 over a set of texts, with an inverted index so one query scores every text at once."""

    def __init__(self, texts: Mapping[str, str], tokenize=terms):
        self.terms = {key: tokenize(text) for key, text in texts.items()}
        self.counts = {key: Counter(ts) for key, ts in self.terms.items()}
        n = max(1, len(self.terms))
        df: Counter[str] = Counter(t for c in self.counts.values() for t in c)
        self.share = {t: d / n for t, d in df.items()}
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        avg = sum(len(ts) for ts in self.terms.values()) / n or 1.0
        self._norm = {key: _K1 * (1 - _B + _B * len(ts) / avg) for key, ts in self.terms.items()}
        self._postings: dict[str, list[tuple[str, int]]] = {}
        for key, c in self.counts.items():
            for t, tf in c.items():
                self._postings.setdefault(t, []).append((key, tf))
        self._length = {key: math.sqrt(sum(self._weight(t, tf) ** 2 for t, tf in c.items())) or 1.0
                        for key, c in self.counts.items()}

    def _weight(self, term: str, tf: int) -> float:
        return (1.0 + math.log(tf)) * self.idf.get(term, 0.0)

    def cosine_all(self, key: str) -> dict[str, float]:
        """TF-IDF cosine of text ``key`` with every text sharing a term: symmetric and length-normalised,
        so a long candidate does not win by length and the value means the same in any workspace."""
        mine = self.counts.get(key, Counter())
        out: dict[str, float] = {}
        for t, tf in mine.items():
            w = self._weight(t, tf)
            for other, otf in self._postings.get(t, ()):
                out[other] = out.get(other, 0.0) + w * self._weight(t, otf)
        norm = self._length.get(key, 1.0)
        return {other: v / (norm * self._length[other]) for other, v in out.items()}

    def score_all(self, query: Iterable[str]) -> dict[str, float]:
        """BM25 of ``query`` against every text that shares a term with it."""
        out: dict[str, float] = {}
        for t in set(query):
            idf = self.idf.get(t, 0.0)
            for key, tf in self._postings.get(t, ()):
                out[key] = out.get(key, 0.0) + idf * tf * (_K1 + 1) / (tf + self._norm[key])
        return out

    def score(self, query: Iterable[str], key: str) -> float:
        counts, norm = self.counts.get(key), self._norm.get(key, _K1)
        if not counts:
            return 0.0
        return sum(self.idf.get(t, 0.0) * counts[t] * (_K1 + 1) / (counts[t] + norm) for t in set(query) if t in counts)

    def relative(self, query_key: str, key: str) -> float:
        """The query text's BM25 against ``key`` over its BM25 against itself: 0..1, comparable across texts."""
        query = self.terms.get(query_key, ())
        best = self.score(query, query_key)
        return min(1.0, self.score(query, key) / best) if best > 0 else 0.0

    def distinctive(self, a: str, b: str, limit: int = 3, cap: float = 0.25,
                    common: Mapping[str, int] | None = None, pool: int = 0) -> list[str]:
        """Shared words that few texts use (at most a share ``cap``), rarest first: what ties ``a`` to ``b``.

        With ``common`` (term -> how many of the ``pool`` candidates also share it with ``a``), words that most
        candidates share are left out: they tie ``a`` to all of them, not to ``b``.
        """
        shared = {t for t in self.counts.get(a, ()) if t in self.counts.get(b, ())}
        rare = [t for t in shared if self.share.get(t, 1.0) <= cap and (len(t) > 2 or not t.isalpha())]
        if common is not None and pool > 2:
            rare = [t for t in rare if common.get(t, 0) <= max(1, pool // 3)]
        rare.sort(key=lambda t: (-self.idf[t], t))
        return rare[:limit]

    def surface(self, key: str, term: str, text: str) -> str:
        """The word of ``text`` a stemmed term came from (what a reason shows)."""
        for word in tokens(text):
            if stem(word) == term:
                return word
        return term


_INDEX: dict[int, tuple[Bm25, Bm25]] = {}
_FROM: dict[str, dict[str, float]] = {}  # item -> its words' BM25 against every item, for the current index


def _indexes(view: WorkspaceView) -> tuple[tuple[Bm25, Bm25], dict[str, str]]:
    """BM25 over the view's items' words (identifier parts included) and over their word pairs (the request's
    own item as it is now); reused while the texts are the same (the evaluation asks about one workspace many
    times; a request builds them once)."""
    texts = {it.id: text_of(it) for it in view.items}
    if view.item is not None:
        texts[view.item.id] = f"{view.item.title} {view.item.statement}".strip()
    key = hash(tuple(sorted(texts.items())))
    if key not in _INDEX:
        _INDEX.clear()
        _FROM.clear()
        words = Bm25(texts, link_terms)
        pairs = Bm25({k: " ".join(v) for k, v in words.terms.items()}, lambda t: bigrams(t.split()))
        _INDEX[key] = (words, pairs)
    return _INDEX[key], texts


def _scores_from(bm25: Bm25, key: str) -> dict[str, float]:
    """BM25 of item ``key``'s words against every item, kept while the index is the same."""
    if key not in _FROM:
        _FROM[key] = bm25.score_all(bm25.terms.get(key, []))
    return _FROM[key]


def standing(bm25: Bm25, parent: str, child: str, row: Sequence[str]) -> tuple[float, float]:
    """How the child stands among the items of its document (``row``) when the parent's words are the query:
    (its z-score among them over 3, clipped to -1..1; 1 / its rank among them, 0 when it shares no word).

    The parent-side view of the same words: a parent whose words every item of the document shares (a
    high-level requirement on "the DPU-CCM", a use case's boilerplate) ties the child no more than its
    neighbours; one whose rare words this child holds and the others do not picks it out.
    """
    scores = _scores_from(bm25, parent)
    values = [scores.get(k, 0.0) for k in row]
    mine = scores.get(child, 0.0)
    if mine <= 0 or len(values) < 2:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    z = (mine - mean) / sd if sd > 0 else 0.0
    return max(-1.0, min(1.0, z / 3)), 1.0 / (1 + sum(1 for v in values if v > mine))


def workspace_index(view: WorkspaceView) -> tuple[Bm25, dict[str, str]]:
    """BM25 over the view's items' words (see :func:`_indexes`) and their texts."""
    (words, _), texts = _indexes(view)
    return words, texts


def text_of(it: ItemSummary) -> str:
    return f"{it.title} {it.statement}".strip()


_HAN = re.compile("[\u4e00-\u9fff]")


def is_zh(text: str) -> bool:
    return _HAN.search(text) is not None


# -- the workspace's links --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Links:
    """The workspace's "Derived from" links as edges, by item and by document."""

    parents: dict[str, tuple[str, ...]]
    children: dict[str, tuple[str, ...]]
    doc_pairs: dict[tuple[str, str], int]  # (child document, parent document) -> links
    doc_out: dict[str, int]  # child document -> its links to parents anywhere
    doc_in: dict[str, int]  # parent document -> links into it


def links_of(items: Sequence[ItemSummary], me: ItemSummary) -> Links:
    path = {it.id: it.path for it in items}
    path[me.id] = me.path
    ups: dict[str, tuple[str, ...]] = {it.id: it.parents for it in items if it.id != me.id}
    ups[me.id] = me.parents
    downs: dict[str, list[str]] = {}
    pairs: Counter[tuple[str, str]] = Counter()
    out: Counter[str] = Counter()
    into: Counter[str] = Counter()
    for child, parents in ups.items():
        for p in parents:
            if p not in path:
                continue
            downs.setdefault(p, []).append(child)
            pairs[(path[child], path[p])] += 1
            out[path[child]] += 1
            into[path[p]] += 1
    return Links(ups, {k: tuple(v) for k, v in downs.items()}, dict(pairs), dict(out), dict(into))


def at_top(me: ItemSummary, items: Sequence[ItemSummary], links: Links) -> bool:
    """Whether the item heads its chain: its kind, or its document, is derived from by others and never
    derived from anything (a safety goal where hazards are no items; the high-level requirements)."""
    kinds = {it.id: kind_prefix(it.id) for it in items}
    kinds[me.id] = kind_prefix(me.id)
    kind = kinds[me.id]
    as_child = any(kinds.get(c) == kind for c, ps in links.parents.items() for p in ps if p in kinds)
    as_parent = any(kinds.get(p) == kind for ps in links.parents.values() for p in ps)
    if as_parent and not as_child:
        return True
    return links.doc_in.get(me.path, 0) > 0 and links.doc_out.get(me.path, 0) == 0


# -- features ---------------------------------------------------------------------------------------------
@dataclass(slots=True)
class Candidate:
    """One candidate with its signals (each 0..1) and what the reasons name."""

    item: ItemSummary
    f: dict[str, float]
    prior: float  # the derivation chain's prior for the pair (0 when only the workspace's links allow it)
    sibling: str = ""  # the candidate's child (or the item's child) this item resembles most
    neighbour: str = ""  # the item's neighbour in its document linked to the candidate (for a child: next to it)
    coparent: str = ""  # the item's remaining parent the candidate resembles most
    same_document: bool = False
    notes: list[str] = field(default_factory=list)


def asil_fits(upper: ItemSummary, lower: ItemSummary) -> tuple[bool, str]:
    """(whether the ASILs allow ``upper`` to be ``lower``'s parent, what to say about it)."""
    up = parse_asil(upper.asil) if upper.asil else None
    low = parse_asil(lower.asil) if lower.asil else None
    if up is None or low is None:
        return True, ""
    low_level = low.original if low.decomposed and low.original else low.level
    if rank(low_level) > rank(up.effective):
        return False, f"but ASIL {lower.asil} is above {upper.id}'s {upper.asil}"
    if low.decomposed and low.original == up.effective:
        return True, f"ASIL {lower.asil} decomposes {upper.id}'s {upper.asil}"
    return True, ""


def link_features(view: WorkspaceView, relation: Relation, pool: Sequence[ItemSummary],
                  priors: Mapping[str, float], meaning: Mapping[str, float] | None = None,
                  likeness: Mapping[str, float] | None = None) -> list[Candidate]:
    """The signals of every candidate in ``pool`` (the items the derivation chain allows, with the chain's
    prior per candidate ID); ``meaning`` holds 0..1 embedding evidence where words cannot meet, ``likeness``
    the same within one language (small pools only)."""
    ctx = view.item
    assert ctx is not None
    me = ItemSummary(ctx.id, ctx.kind, ctx.category, ctx.title, ctx.statement, ctx.asil, ctx.path,
                     tuple(p.id for p in ctx.parents), ctx.allocated_to, ctx.language)
    if not pool:
        return []
    (bm25, pairs), _ = _indexes(view)
    links = links_of(view.items, me)
    mine = bm25.terms.get(me.id, [])
    by_pairs = pairs.score_all(pairs.terms.get(me.id, []))
    # over the best candidate's, damped when even the best shares little of the item's pairs (a common pair)
    own_pairs = pairs.score(pairs.terms.get(me.id, []), me.id) or 1.0
    top_pairs = max((by_pairs.get(it.id, 0.0) for it in pool), default=0.0) or 1.0
    pairs_scale = min(1.0, 4 * top_pairs / own_pairs) / top_pairs
    near_links = _neighbourhood(view.items, me, links, relation)
    own = bm25.score(mine, me.id) or 1.0
    from_me = bm25.score_all(mine)
    cosine = bm25.cosine_all(me.id)
    text = {it.id: from_me.get(it.id, 0.0) for it in pool}
    best_text = max(text.values(), default=0.0) or 1.0
    reverse = {}
    for it in pool:
        theirs = bm25.terms.get(it.id, [])
        self_score = bm25.score(theirs, it.id)
        reverse[it.id] = bm25.score(theirs, me.id) / self_score if self_score > 0 else 0.0
    best_reverse = max(reverse.values(), default=0.0) or 1.0
    rows: dict[str, list[str]] = {}
    for it in view.items:
        rows.setdefault(it.path, []).append(it.id)
    if me.id not in rows.setdefault(me.path, []):
        rows[me.path].append(me.id)
    stands = {it.id: standing(bm25, it.id, me.id, rows[me.path]) if relation == "parent"
              else standing(bm25, me.id, it.id, rows.get(it.path, [it.id])) for it in pool}

    # Resemblance to what is already linked: for a parent, its other children; for a child, the item's children.
    sibling: dict[str, tuple[float, str]] = {}
    if relation == "parent":
        for it in pool:
            kids = [c for c in links.children.get(it.id, ()) if c != me.id]
            sibling[it.id] = max(((from_me.get(c, 0.0), c) for c in kids), default=(0.0, ""))
        scale = max(best_text, max((s for s, _ in sibling.values()), default=0.0)) or 1.0
        sibling = {k: (s / scale, c) for k, (s, c) in sibling.items()}
    else:
        per_kid = {c: bm25.score_all(bm25.terms.get(c, [])) for c in links.children.get(me.id, ())}
        for it in pool:
            sibling[it.id] = max(((s.get(it.id, 0.0) / (s.get(c) or 1.0), c) for c, s in per_kid.items()),
                                 default=(0.0, ""))

    # For a parent: likeness to the item's remaining parents (an FSR of three steering goals has a fourth).
    coparent: dict[str, tuple[float, str]] = {it.id: (0.0, "") for it in pool}
    if relation == "parent":
        for r in me.parents:
            r_terms = bm25.terms.get(r, [])
            r_self = bm25.score(r_terms, r)
            if r_self <= 0:
                continue
            scores = bm25.score_all(r_terms)
            for it in pool:
                value = min(1.0, scores.get(it.id, 0.0) / r_self)
                if value > coparent[it.id][0]:
                    coparent[it.id] = (value, r)

    # Which documents this item's document derives from (or, for children, which derive from it).
    fan = {it.id: len(links.children.get(it.id, ())) for it in pool} if relation == "parent" else {
        it.id: len(links.parents.get(it.id, ())) for it in pool}
    best_fan = math.log1p(max(fan.values(), default=0))

    out = []
    for it in pool:
        child, parent = (me, it) if relation == "parent" else (it, me)
        doc_total = links.doc_out.get(child.path, 0)
        document = links.doc_pairs.get((child.path, parent.path), 0) / doc_total if doc_total else 0.0
        fits, _ = asil_fits(parent, child)
        element = bool(it.allocated_to and it.allocated_to.casefold() == me.allocated_to.casefold())
        sib_score, sib_id = sibling[it.id]
        co_score, co_id = coparent[it.id]
        f = {
            "text": text[it.id] / best_text,
            "absolute": min(1.0, text[it.id] / own),
            "cosine": cosine.get(it.id, 0.0),
            "reverse": reverse[it.id] / best_reverse,
            "siblings": min(1.0, sib_score),
            "coparents": co_score,
            "document": document,
            "chain": priors.get(it.id, 0.0),
            "element": 1.0 if element else 0.0,
            "asil": 0.0 if fits else 1.0,
            "fanout": math.log1p(fan[it.id]) / best_fan if best_fan > 0 else 0.0,
            "meaning": (meaning or {}).get(it.id, 0.0),
            "likeness": (likeness or {}).get(it.id, 0.0),
            "bigrams": by_pairs.get(it.id, 0.0) * pairs_scale,
            "neighbours": min(1.0, near_links[0].get(it.id, 0.0)),
            "near": min(1.0, near_links[1].get(it.id, 0.0)),
            "standing": stands[it.id][0],
            "standing_rank": stands[it.id][1],
        }
        out.append(Candidate(it, f, priors.get(it.id, 0.0), sib_id if sib_score > 0 else "",
                             near_links[2].get(it.id, "") if f["neighbours"] > 0 else "",
                             co_id if co_score > 0 else "", it.path == me.path))
    return out


NEIGHBOURHOOD = 3  # items this far apart in a document count as neighbours (weight 1 / distance)


def _neighbourhood(items: Sequence[ItemSummary], me: ItemSummary, links: Links,
                   relation: Relation) -> tuple[dict[str, float], dict[str, float], dict[str, str]]:
    """Where the item's neighbours in its document point: requirements are written in groups, and the items
    next to this one were often derived from the same parent (for children: the items next to the item's
    children are likely children too).

    Returns (neighbours, near, by): ``neighbours`` weighs each candidate by the neighbours linked to it (1 /
    distance); ``near`` weighs the candidates next to those targets and to the item's own remaining links
    in their documents (an FSR under SG-3 whose neighbours derive from SG-3 may also derive from SG-4);
    ``by`` names the closest neighbour behind each ``neighbours`` value (the reason shows it). Both are
    scaled by how often the document's neighbours share a parent (:func:`agreement`).
    """
    where: dict[str, tuple[str, int]] = {}
    by_doc: dict[str, list[str]] = {}
    for it in items:
        row = by_doc.setdefault(it.path, [])
        where[it.id] = (it.path, len(row))
        row.append(it.id)
    if me.id not in where:
        return {}, {}, {}

    def around(key: str):
        path, i = where[key]
        row = by_doc[path]
        for d in range(1, NEIGHBOURHOOD + 1):
            for j in (i - d, i + d):
                if 0 <= j < len(row) and row[j] != me.id:
                    yield row[j], 1.0 / d

    trust = agreement(by_doc[where[me.id][0]], links, me.id)
    if trust <= 0:
        return {}, {}, {}
    neighbours: Counter[str] = Counter()
    by: dict[str, str] = {}
    if relation == "parent":
        targets: Counter[str] = Counter({p: 1.0 for p in me.parents if p in where})
        for other, w in around(me.id):
            for p in links.parents.get(other, ()):
                neighbours[p] += w
                by.setdefault(p, other)
                targets[p] = max(targets[p], w)
    else:  # a candidate child next to one of the item's children
        targets = Counter()
        for c in links.children.get(me.id, ()):
            if c in where:
                for other, w in around(c):
                    neighbours[other] += w
                    by.setdefault(other, c)
    near: Counter[str] = Counter()
    for t, w in targets.items():
        for other, d in around(t):
            near[other] += w * d / 2
    return {k: v * trust for k, v in neighbours.items()}, {k: v * trust for k, v in near.items()}, by


def agreement(row: Sequence[str], links: Links, me: str) -> float:
    """How often two adjacent items of the document, both linked, share a parent (0..1): how far the
    document's order can be trusted as evidence (0.9 in a concept written goal by goal, 0.3 in a list sorted
    some other way). The item itself is left out."""
    linked = [i for i in row if i != me]
    pairs = shared = 0
    for a, b in zip(linked, linked[1:]):
        pa, pb = links.parents.get(a, ()), links.parents.get(b, ())
        if pa and pb:
            pairs += 1
            shared += bool(set(pa) & set(pb))
    return shared / pairs if pairs >= 3 else 0.0


def combine(f: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """The candidate's score: the weighted sum of its signals (an ASIL misfit subtracts)."""
    return sum(weights.get(name, 0.0) * (-value if name == "asil" else value) for name, value in f.items())
