"""Document agents: one per indexed document, built with LlamaIndex, and the top-level document router.

Each agent has two engines, described for routing: a vector query engine (a retriever over the knowledge
base restricted to the document, for facts) and a summary index over the document's top-level clauses (for
overview questions). A ``RouterQueryEngine`` picks the engine through :class:`PolicySelector`, and the
engine's answer is condensed by :class:`PolicySynthesizer`; an agent that finds nothing relevant returns
``None``, so irrelevant context is discarded rather than passed on. The document router asks the policy to
choose among the documents' descriptions, with retrieval scores as the offline signal.

LlamaIndex is imported inside :func:`_li` only (about 2 s), and only for the LLM policy: offline, the same
engines run without it (see :class:`DocumentAgent`). ``Settings.llm`` is set explicitly to a mock that is never
called: every model call goes through :mod:`.generate`, never LlamaIndex's implicit default.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...knowledge.types import Hit
from .knowledge import KnowledgeSource
from ..trust.citing import uncitable
from .policies import Choice, Condensed, OfflinePolicy

log = logging.getLogger(__name__)

MAX_SUMMARY_NODES = 40
SUMMARY_NODE_CHARS = 500
_settings_lock = threading.Lock()


@cache
def _li() -> Any:
    """Import LlamaIndex once, define the adapter classes, and pin ``Settings.llm`` to an inert mock."""
    import types

    from llama_index.core import Settings, SummaryIndex
    from llama_index.core.base.base_selector import BaseSelector, MultiSelection, SingleSelection
    from llama_index.core.base.response.schema import Response
    from llama_index.core.llms import MockLLM
    from llama_index.core.query_engine import RetrieverQueryEngine, RouterQueryEngine
    from llama_index.core.response_synthesizers import BaseSynthesizer
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
    from llama_index.core.tools import QueryEngineTool, ToolMetadata

    with _settings_lock:
        Settings.llm = MockLLM(max_tokens=1)

    class KnowledgeRetriever(BaseRetriever):
        """Retrieves from the knowledge base (its own hybrid search), restricted to one document."""

        def __init__(self, source: KnowledgeSource, document: str, limit: int = 6):
            super().__init__()
            self._source, self._document, self._limit = source, document, limit

        def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
            hits = self._source.search(query_bundle.query_str, documents=[self._document], limit=self._limit)
            return [NodeWithScore(node=node_of(h, i), score=h.score) for i, h in enumerate(hits)]

    def node_of(hit: Hit, i: int) -> TextNode:
        return TextNode(text=hit.text, id_=hit.chunk_id or f"{hit.document}#{hit.clause}#{i}",
                        metadata={"document": hit.document, "clause": hit.clause, "title": hit.title, "year": hit.year},
                        excluded_embed_metadata_keys=["document", "clause", "title", "year"],
                        excluded_llm_metadata_keys=["year"])

    class PolicySynthesizer(BaseSynthesizer):
        """Condenses retrieved nodes through the policy; keeps only the nodes the condensed text rests on."""

        def __init__(self, policy: OfflinePolicy):
            super().__init__(llm=Settings.llm)
            self._policy = policy

        def _get_prompts(self) -> dict:
            return {}

        def _update_prompts(self, prompts: dict) -> None:
            return None

        def get_response(self, query_str: str, text_chunks: Sequence[str], **kwargs: Any) -> str:
            return self._policy.condense(query_str, [("", "", t) for t in text_chunks]).text

        async def aget_response(self, query_str: str, text_chunks: Sequence[str], **kwargs: Any) -> str:
            return self.get_response(query_str, text_chunks)

        def synthesize(self, query: Any, nodes: list[NodeWithScore], additional_source_nodes: Any = None,
                       **kwargs: Any) -> Response:
            query_str = query.query_str if isinstance(query, QueryBundle) else str(query)
            chunks = [(n.node.metadata.get("document", ""), n.node.metadata.get("clause", ""),
                       _chunk_text(n.node.metadata.get("title", ""), n.node.get_content())) for n in nodes]
            condensed = self._policy.condense(query_str, chunks) if chunks else Condensed("")
            keep = set(condensed.clauses)
            sources = [n for n in nodes if (n.node.metadata.get("document"), n.node.metadata.get("clause")) in keep]
            return Response(condensed.text, source_nodes=sources, metadata={"clauses": condensed.clauses})

    class PolicySelector(BaseSelector):
        """A LlamaIndex selector whose decision is the policy's engine choice (by question type, or the LLM)."""

        def __init__(self, policy: OfflinePolicy, *, question_type: str = "fact"):
            self._policy, self._qtype = policy, question_type

        def _get_prompts(self) -> dict:
            return {}

        def _update_prompts(self, prompts: dict) -> None:
            return None

        def _select(self, choices: Sequence[ToolMetadata], query: QueryBundle) -> MultiSelection:
            menu = [Choice(c.name or str(i), c.description) for i, c in enumerate(choices)]
            i = self._policy.pick_engine(menu, query.query_str, self._qtype)
            return MultiSelection(selections=[SingleSelection(index=i, reason=f"{self._qtype} question")])

        async def _aselect(self, choices: Sequence[ToolMetadata], query: QueryBundle) -> MultiSelection:
            return self._select(choices, query)

    return types.SimpleNamespace(
        SummaryIndex=SummaryIndex, RetrieverQueryEngine=RetrieverQueryEngine, RouterQueryEngine=RouterQueryEngine,
        QueryEngineTool=QueryEngineTool, ToolMetadata=ToolMetadata, TextNode=TextNode, QueryBundle=QueryBundle,
        KnowledgeRetriever=KnowledgeRetriever, PolicySynthesizer=PolicySynthesizer, PolicySelector=PolicySelector,
    )


@dataclass(slots=True)
class DocumentAnswer:
    """What one document agent returns: the condensed context, the engine used and the hits it rests on."""

    document: str
    engine: str
    text: str
    hits: list[Hit]


class DocumentAgent:
    """The agent of one document: a router over its vector engine and its summary engine.

    With the LLM policy the router is LlamaIndex's ``RouterQueryEngine`` (the model reads the engines'
    descriptions). The offline policy's choice needs no menu (overview questions go to the summary engine,
    everything else to the vector engine), so offline the same two engines run directly, through the same
    policy and condensation, without importing LlamaIndex (about 2 s): :meth:`ask` gives the same answer
    either way (tests/agent/test_documents.py compares the two).
    """

    def __init__(self, source: KnowledgeSource, document: str, title: str, policy: OfflinePolicy,
                 question_type: str = "fact", limit: int = 6):
        self.document, self.title = document, title
        self._source, self._policy, self._qtype, self._limit = source, policy, question_type, limit

    def ask(self, query: str) -> DocumentAnswer | None:
        if self._policy.mode == "offline":
            return self.ask_direct(query)
        return self.ask_routed(query)

    def ask_direct(self, query: str) -> DocumentAnswer | None:
        """The offline route: the policy's engine choice, the engine's nodes, the policy's condensation."""
        summary = _summary_chunks(self._source, self.document) if self._qtype == "overview" else []
        engine = "summary" if summary else "vector"
        if engine == "vector":
            hits = self._source.search(query, documents=[self.document], limit=self._limit)
            chunks = [(h.document, h.clause, _chunk_text(h.title, h.text)) for h in hits]
        else:
            hits = [Hit(self.document, year, clause, title, text, 0.0) for clause, title, year, text in summary]
            chunks = [(self.document, clause, _chunk_text(title, text)) for clause, title, _, text in summary]
        condensed = self._policy.condense(query, chunks) if chunks else Condensed("")
        text = condensed.text.strip()
        if not text:
            return None
        keep = set(condensed.clauses)
        return DocumentAnswer(self.document, engine, text, [h for h in hits if (h.document, h.clause) in keep])

    def ask_routed(self, query: str) -> DocumentAnswer | None:
        """Through LlamaIndex's ``RouterQueryEngine`` with the policy as selector and synthesizer."""
        li = _li()
        synth = li.PolicySynthesizer(self._policy)
        vector = li.RetrieverQueryEngine(li.KnowledgeRetriever(self._source, self.document, self._limit),
                                         response_synthesizer=synth)
        summary_nodes = [li.TextNode(text=text, id_=f"{self.document}#{clause}",
                                     metadata={"document": self.document, "clause": clause, "title": title,
                                               "year": year})
                         for clause, title, year, text in _summary_chunks(self._source, self.document)]
        tools = [li.QueryEngineTool(vector, li.ToolMetadata(
            name="vector",
            description=f"Facts from {self.document} ({self.title}): specific requirements, definitions, methods."))]
        if summary_nodes:
            index = li.SummaryIndex(nodes=summary_nodes)
            tools.append(li.QueryEngineTool(index.as_query_engine(response_synthesizer=synth), li.ToolMetadata(
                name="summary", description=f"Overview of {self.document} ({self.title}): what its clauses cover.")))
        engine = li.RouterQueryEngine(selector=li.PolicySelector(self._policy, question_type=self._qtype),
                                      query_engine_tools=tools, verbose=False)
        response = engine.query(query)
        text = (response.response or "").strip()
        if not text:
            return None
        selected = (response.metadata or {}).get("selector_result")
        chosen = "summary" if selected is not None and selected.selections and selected.selections[0].index == 1 else "vector"
        hits = [Hit(n.node.metadata.get("document", self.document), n.node.metadata.get("year", ""),
                    n.node.metadata.get("clause", ""), n.node.metadata.get("title", ""), n.node.get_content(),
                    float(n.score or 0.0)) for n in response.source_nodes]
        return DocumentAnswer(self.document, chosen, text, hits)


def _chunk_text(title: str, text: str) -> str:
    """A node as the synthesizer condenses it: its title, then its text."""
    return f"{title}. {text}".lstrip(". ")


def _summary_chunks(source: KnowledgeSource, document: str) -> list[tuple[str, str, str, str]]:
    """One (clause, title, year, text) per top-level clause: its title and the start of its text (what an
    overview needs). Read only when an overview is asked for (reading every top clause costs index scans)."""
    out = []
    for clause, title in source.children(document, "")[:MAX_SUMMARY_NODES]:
        found = source.read(document, clause)
        text = (found.text if found else "")[:SUMMARY_NODE_CHARS]
        out.append((clause, title, found.year if found else "", f"{title}. {text}".strip()))
    return out


def route_documents(source: KnowledgeSource, policy: OfflinePolicy, query: str, *, preferred: Sequence[str] = (),
                    limit: int = 3) -> tuple[list[tuple[str, str]], dict[str, float], dict[tuple[str, str], float]]:
    """The ~``limit`` documents most relevant to ``query`` with a reason each; every document's prior (its best
    global retrieval score relative to the best document's, 0–1); and the global scores of the clauses the
    whole-index search found (relative to the best), so evidence from different documents ranks on one scale.

    Every indexed document is a choice, described by its title (and "named by the plan" for the plan's).
    The offline signal ranks the plan's documents first, each group by its best hit score for the query over
    the whole index; the LLM policy reads the descriptions instead.
    """
    docs = {d.document: d for d in source.documents()}
    scores: dict[str, float] = {}
    found: dict[tuple[str, str], float] = {}
    for hit in source.search(query, limit=30):
        if uncitable(hit.title or ""):
            continue  # "Inputs to this clause" and the like name everything and answer nothing
        scores[hit.document] = max(scores.get(hit.document, 0.0), hit.score)
        found[(hit.document, hit.clause)] = max(found.get((hit.document, hit.clause), 0.0), hit.score)
    top = max(scores.values(), default=0.0) or 1.0
    names = list(docs)
    ranked = {d: (1.0 if d in preferred else 0.0) + 0.999 * scores.get(d, 0.0) / top for d in names}
    menu = [Choice(d, f"{docs[d].title} ({docs[d].chunks} chunks)" + ("; named by the plan" if d in preferred else ""),
                   ranked[d]) for d in names]
    chosen = [(names[i], reason) for i, reason in policy.route(menu, query, limit) if 0 <= i < len(names)][:limit]
    return chosen, {d: scores.get(d, 0.0) / top for d in names}, {k: v / top for k, v in found.items()}
