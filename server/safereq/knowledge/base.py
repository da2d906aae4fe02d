"""The knowledge base object the CLI, the language server and the agent call.

``open_knowledge_base(index_dir)`` returns a :class:`KnowledgeBase` over an index folder. The query embedder
is chosen from what the table was built with (its recorded model id), so queries and chunks are always
embedded by the same model; if that model is not available here, vector search is switched off and
full-text search still works.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

from ..model.clauses import ClauseRef, clause_ref_with_clause
from .clause_ids import normalise_clause, sort_key
from .config import EmbedConfig, KnowledgeConfig
from .embeddings import E5Embedder, Embedder, EmbeddingError, make_embedder
from .retrieval import CANDIDATES, MODES, Filters, fts_search, fuse, vector_search
from .retrieval import rerank as rerank_scored
from .reader import TableReader
from .store_schema import LIGHT_COLUMNS, quote
from .types import ClauseText, DocumentInfo, Hit, IndexedFile

log = logging.getLogger(__name__)


def _query_embedder(model_id: str, dim: int, embed: EmbedConfig) -> Embedder | None:
    if model_id in ("", "none") or not dim:
        return None
    if model_id == E5Embedder.model_id:
        return E5Embedder(threads=embed.threads or 1)
    if model_id.startswith("openai:") and embed.backend == "openai" and f"openai:{embed.model}" == model_id:
        return make_embedder(embed)
    log.warning("the index was embedded with %s, which is not configured here; vector search is off", model_id)
    return None


class KnowledgeBase:
    """Search, clause resolution and clause-tree browsing over one index. Safe to share between threads."""

    def __init__(self, store: TableReader, embedder: Embedder | None):
        self.store = store
        self.embedder = embedder

    @property
    def index_dir(self) -> Path:
        return self.store.index_dir

    @property
    def has_vectors(self) -> bool:
        return self.embedder is not None and self.store.has_vectors()

    def warm(self) -> None:
        """Load the model and touch the table, so the first real query does not pay for it."""
        self.store.count()
        if self.has_vectors:
            self.search("warm up", limit=1, mode="vector")

    # -- search ----------------------------------------------------------------------------------------
    def search(self, query: str, limit: int = 10, *, document: str | Sequence[str] | None = None,
               part: str | None = None,
               clause_prefix: str | None = None, kind: str | None = None, mode: str = "hybrid",
               rerank: bool = False) -> list[Hit]:
        """Ranked chunks for ``query``. ``mode`` is hybrid | fts | vector; filters narrow before ranking.

        ``document`` is a document ("ISO 26262-9") or a standard ("ISO 26262", all parts), or a list of them.
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        query = query.strip()
        if not query:
            return []
        where = Filters(document, part, clause_prefix, kind).where()
        want = max(limit, CANDIDATES if (rerank or mode == "hybrid") else limit)
        lists: list[list[dict]] = []
        if mode in ("hybrid", "vector") and self.has_vectors:
            assert self.embedder is not None
            lists.append(vector_search(self.store, self.embedder.embed_query(query), where, want))
        if mode in ("hybrid", "fts") or not self.has_vectors:
            lists.append(fts_search(self.store, query, where, want))
        if mode == "vector" and self.has_vectors:
            scored = [(r, 1.0 - float(r.get("_distance", 1.0))) for r in lists[0]]
        elif mode == "fts" or len(lists) == 1:
            scored = [(r, float(r.get("_score", 0.0))) for r in lists[-1]]
        else:
            scored = fuse(lists)
        if rerank:
            scored = rerank_scored(query, scored)
        return [self._hit(row, score) for row, score in scored[:limit]]

    def _hit(self, row: dict, score: float) -> Hit:
        return Hit(document=row["document"], year=row["year"], clause=row["clause"], title=row["title"],
                   text=row["text"], score=score, page=row["page"] or None, source=row["source"],
                   kind=row["kind"], path=tuple(t for _c, t in self.store.path_of(row)), chunk_id=row["id"],
                   parent=row["parent"])

    # -- clauses ---------------------------------------------------------------------------------------
    def resolve(self, ref: ClauseRef | str) -> ClauseText | None:
        """The text of the clause a reference names ("ISO 26262-9:2018 §5.4.10"), from the index.

        The edition year is not used to match (compare ``result.year`` with ``ref.year`` to warn about an
        edition mismatch). Full text from an indexed standard wins over a catalogue summary.
        """
        named = clause_ref_with_clause(ref)
        return self.read(named.document, named.clause) if named is not None else None

    def read(self, document: str, clause: str) -> ClauseText | None:
        """The whole clause ``clause`` of ``document`` (all of its chunks, in order), with its children."""
        clause = normalise_clause(clause)
        rows = self.store.scan(f"document = {quote(document)} AND clause = {quote(clause)}", LIGHT_COLUMNS)
        children = tuple(self.children(document, clause))
        if not rows:
            title = self._title_from_paths(document, clause)
            if title is None and not children:
                return None
            year = self._year(document)
            return ClauseText(document, year, clause, title or "", "", "heading", (), "", children)
        full = [r for r in rows if r["kind"] != "catalogue"]
        chosen = full or rows
        source = chosen[0]["source"]
        chosen = sorted((r for r in chosen if r["source"] == source), key=lambda r: r["ordinal"])
        pages = tuple(sorted({r["page"] for r in chosen if r["page"]}))
        title = next((r["title"] for r in chosen if r["title"]), "")
        return ClauseText(document, chosen[0]["year"], clause, title, "\n\n".join(r["text"] for r in chosen),
                          chosen[0]["kind"], pages, source, children)

    def _title_from_paths(self, document: str, clause: str) -> str | None:
        """A heading with no text of its own (e.g. "4 GENERAL REQUIREMENTS") is known from its children's paths."""
        c = quote(clause)
        rows = self.store.scan(f"document = {quote(document)} AND (parent = {c} OR parent LIKE {quote(clause + '.%')})",
                               ["path"], limit=5)
        for row in rows:
            for pc, pt in json.loads(row["path"] or "[]"):
                if pc == clause:
                    return pt
        return None

    def _year(self, document: str) -> str:
        rows = self.store.scan(f"document = {quote(document)}", ["year"], limit=1)
        return rows[0]["year"] if rows else ""

    def children(self, document: str, clause: str = "") -> list[tuple[str, str]]:
        """(clause, title) of the sections directly below ``clause`` ("" = the top of the document)."""
        clause = normalise_clause(clause)
        doc = quote(document)
        if clause:
            where = f"document = {doc} AND parent = {quote(clause)}"
        else:
            where = f"document = {doc} AND parent = ''"
        rows = self.store.scan(where, ["clause", "title", "path"])
        found: dict[str, str] = {}
        for r in rows:
            if r["clause"] and r["clause"] != clause:
                found.setdefault(r["clause"], r["title"])
        if not clause:
            # top-level headings that have no text of their own appear only in their descendants' paths
            for r in self.store.scan(f"document = {doc}", ["path"]):
                p = json.loads(r["path"] or "[]")
                if p and p[0][0] and p[0][0] not in found and "." not in p[0][0] and not p[0][0].startswith("Table"):
                    found[p[0][0]] = p[0][1]
        else:
            for r in self.store.scan(f"document = {doc} AND parent LIKE {quote(clause + '.%')}", ["path"]):
                p = [c for c, _t in json.loads(r["path"] or "[]")]
                titles = dict(json.loads(r["path"] or "[]"))
                if clause in p:
                    i = p.index(clause)
                    if i + 1 < len(p) and p[i + 1] and p[i + 1] not in found:
                        found[p[i + 1]] = titles.get(p[i + 1], "")
        return sorted(found.items(), key=lambda kv: sort_key(kv[0]))

    def documents(self) -> list[DocumentInfo]:
        if not self.store.exists():
            return []
        cols = self.store.columns(["document", "year", "doc_title", "source"])
        agg: dict[str, list] = {}
        for d, y, t, s in zip(*(cols[c] for c in ("document", "year", "doc_title", "source")), strict=True):
            e = agg.setdefault(d, [y, t, 0, set()])
            e[2] += 1
            e[3].add(s)
        return [DocumentInfo(d, y, t, n, tuple(sorted(s))) for d, (y, t, n, s) in sorted(agg.items())]

    def files(self) -> list[IndexedFile]:
        return self.store.files()


def open_knowledge_base(index_dir: Path | str | None = None, *, config: KnowledgeConfig | None = None,
                        embedder: Embedder | None | str = "auto") -> KnowledgeBase:
    """Open the index at ``index_dir`` (default: ``<cwd>/.safereq/index``) for reading.

    Raises ``StoreError`` with a user-facing message when there is no index there or its store fails (see
    :mod:`.faults`), ``IndexIncomplete`` when a run stopped before it could answer, and ``IndexDamaged`` when
    the index cannot be trusted (read in full once here: a damaged data file would
    otherwise give empty results, not an error).
    """
    from .integrity import health_error, inspect

    config = config or KnowledgeConfig.resolve(index_dir)
    health = inspect(config.index_dir)
    problem = health_error(config.index_dir, health)
    if problem is not None:
        raise problem
    store = TableReader(config.index_dir)
    store.dataset  # noqa: B018 - fail early, with the "run safereq index" message
    if embedder == "auto":
        model_id, dim = store.model()
        try:
            embedder = _query_embedder(model_id, dim, config.embed)
        except EmbeddingError as exc:
            log.warning("vector search is off: %s", exc)
            embedder = None
    return KnowledgeBase(store, embedder)  # type: ignore[arg-type]
