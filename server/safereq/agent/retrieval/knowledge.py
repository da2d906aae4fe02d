"""The narrow view of the knowledge base the agent works through, and the sources that provide it.

The agent needs four things: ranked search (optionally within some documents), reading a whole clause,
listing a clause's children, and the list of documents. :class:`KnowledgeSource` names exactly those, so the
pipeline runs the same over the LanceDB knowledge base (:class:`KnowledgeBaseSource`), over the shipped
clause catalogue when no index was built (:class:`LexicalSource` via :func:`catalogue_source`), and over
small in-memory corpora in tests.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from ...knowledge.location import IndexLocation, index_location, may_hold_index
from ...knowledge.types import ClauseText, DocumentInfo, Hit

log = logging.getLogger(__name__)

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]+|\d+(?:\.\d+)*")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
STOP_WORDS = frozenset(
    "a an and are as at be by for from has have if in into is it its of on or shall should that the their then "
    "this to was were when where which while with within without not no any all each other than such may can "
    "will must only also".split()
)


def tokens(text: str) -> list[str]:
    """Lower-cased content words, plus overlapping character pairs of Chinese text (no segmenter needed)."""
    out = [w.lower() for w in _WORD.findall(text) if w.lower() not in STOP_WORDS and len(w) > 1]
    for run in _CJK.findall(text):
        out.extend(run[i:i + 2] for i in range(max(1, len(run) - 1)))
    return out


class KnowledgeSource(Protocol):
    """What the agent asks of a knowledge base."""

    def search(self, query: str, *, documents: Sequence[str] | None = None, limit: int = 8) -> list[Hit]: ...

    def read(self, document: str, clause: str) -> ClauseText | None: ...

    def children(self, document: str, clause: str) -> list[tuple[str, str]]: ...

    def documents(self) -> list[DocumentInfo]: ...


class LexicalSource:
    """An in-memory source over whole clauses with BM25 scoring: the catalogue fallback and test corpora."""

    def __init__(self, clauses: Sequence[ClauseText], titles: dict[str, str] | None = None):
        self._clauses = {(c.document, c.clause): c for c in clauses}
        self._order = list(self._clauses)
        self._titles = titles or {}
        self._tf = [Counter(tokens(f"{c.title} {c.title} {c.text}")) for c in self._clauses.values()]
        self._len = [sum(tf.values()) for tf in self._tf]
        self._avg = (sum(self._len) / len(self._len)) if self._len else 1.0
        df: Counter[str] = Counter()
        for tf in self._tf:
            df.update(tf.keys())
        n = len(self._tf)
        self._idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
        self._kids: dict[tuple[str, str], list[tuple[str, str]]] = {}
        from ...knowledge.clause_ids import parent_clause, sort_key

        for (doc, clause), c in self._clauses.items():
            parent = parent_clause(clause)
            while parent and (doc, parent) not in self._clauses:
                parent = parent_clause(parent)
            self._kids.setdefault((doc, parent), []).append((clause, c.title))
        for kids in self._kids.values():
            kids.sort(key=lambda k: sort_key(k[0]))

    def search(self, query: str, *, documents: Sequence[str] | None = None, limit: int = 8) -> list[Hit]:
        q = set(tokens(query))
        wanted = set(documents) if documents else None
        scored: list[tuple[float, int]] = []
        for i, key in enumerate(self._order):
            if wanted is not None and key[0] not in wanted:
                continue
            tf, length = self._tf[i], self._len[i]
            s = 0.0
            for t in q:
                f = tf.get(t, 0)
                if f:
                    s += self._idf[t] * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * length / self._avg))
            if s > 0:
                scored.append((s, i))
        scored.sort(key=lambda p: (-p[0], p[1]))
        out = []
        for s, i in scored[:limit]:
            c = self._clauses[self._order[i]]
            out.append(Hit(c.document, c.year, c.clause, c.title, c.text, s, source=c.source, kind=c.kind))
        return out

    def read(self, document: str, clause: str) -> ClauseText | None:
        from ...knowledge.clause_ids import normalise_clause

        c = self._clauses.get((document, normalise_clause(clause)))
        if c is None:
            return None
        return ClauseText(c.document, c.year, c.clause, c.title, c.text, c.kind, c.pages, c.source,
                          tuple(self._kids.get((document, c.clause), ())))

    def children(self, document: str, clause: str) -> list[tuple[str, str]]:
        from ...knowledge.clause_ids import normalise_clause

        return list(self._kids.get((document, normalise_clause(clause)), ()))

    def documents(self) -> list[DocumentInfo]:
        counts = Counter(doc for doc, _ in self._order)
        years = {c.document: c.year for c in self._clauses.values()}
        return [DocumentInfo(doc, years.get(doc, ""), self._titles.get(doc, doc), n) for doc, n in sorted(counts.items())]


def catalogue_source(directory: Path | None = None) -> LexicalSource:
    """The shipped clause catalogue as a source: titles and our own summaries, no index needed."""
    from ...knowledge.catalogue import get_catalogue

    cat = get_catalogue(directory)
    clauses = [ClauseText(e.document, e.year, e.clause, e.title, e.summary or e.title, "catalogue",
                          source="catalogue") for e in cat.entries()]
    return LexicalSource(clauses, {d.document: d.title for d in cat.documents()})


class KnowledgeBaseSource:
    """The LanceDB knowledge base (issue 4) seen through :class:`KnowledgeSource`."""

    def __init__(self, kb: object):
        self._kb = kb

    def search(self, query: str, *, documents: Sequence[str] | None = None, limit: int = 8) -> list[Hit]:
        return list(self._kb.search(query, limit=limit, document=list(documents) if documents else None))

    def read(self, document: str, clause: str) -> ClauseText | None:
        found = self._kb.read(document, clause)
        return found if found is not None and (found.text or found.children) else None

    def children(self, document: str, clause: str) -> list[tuple[str, str]]:
        return [(c, t) for c, t in self._kb.children(document, clause)]

    def documents(self) -> list[DocumentInfo]:
        return list(self._kb.documents())


def open_source(index_dir: IndexLocation | None) -> tuple[KnowledgeSource, str]:
    """The knowledge base at ``index_dir`` when one was built there, else the catalogue; and a note saying which."""
    if index_dir is not None and may_hold_index(index_location(index_dir)):
        try:
            from ...knowledge import open_knowledge_base

            return KnowledgeBaseSource(open_knowledge_base(index_location(index_dir))), f"knowledge base {index_dir}"
        except Exception as exc:  # an unreadable index must not stop the assistant
            log.warning("cannot open the knowledge base at %s (%s); using the catalogue", index_dir, exc)
    return catalogue_source(), "clause catalogue (no index built: run `safereq index`)"
