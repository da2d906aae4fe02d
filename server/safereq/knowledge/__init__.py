"""The knowledge base: shipped reference corpora, the clause catalogue and the user's own standards, indexed in
an embedded LanceDB and searched with hybrid retrieval that returns citable clauses.

Importing this package is cheap (stdlib only). LanceDB, pyarrow and the embedding model load on first use:

    from safereq.knowledge import open_knowledge_base
    kb = open_knowledge_base(".safereq/index")
    kb.search("how is an ASIL decomposed?", limit=5, document="ISO 26262-9")
    kb.resolve("ISO 26262-9:2018 §5.4.10")      # ClauseText | None
    kb.children("ISO 26262-9", "5")             # [(clause, title), ...]

For hovers before the index is loaded, use :mod:`safereq.knowledge.catalogue` (YAML only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .types import (ClauseText, DocumentInfo, Hit, IndexCancelled, IndexedFile, IndexReport, ProgressCallback,
                    ProgressEvent)

if TYPE_CHECKING:
    from .base import KnowledgeBase
    from .config import KnowledgeConfig

__all__ = ["ClauseText", "DocumentInfo", "Hit", "IndexCancelled", "IndexReport", "IndexedFile", "KnowledgeBase",
           "ProgressCallback", "ProgressEvent", "index", "open_knowledge_base"]


def open_knowledge_base(index_dir=None, *, config: KnowledgeConfig | None = None, embedder="auto") -> KnowledgeBase:
    """Open an index for reading (see :func:`safereq.knowledge.base.open_knowledge_base`)."""
    from .base import open_knowledge_base as _open

    return _open(index_dir, config=config, embedder=embedder)


def index(paths=(), *, index_dir=None, document: str | None = None, progress: ProgressCallback | None = None,
          force: bool = False, config: KnowledgeConfig | None = None) -> IndexReport:
    """Index files/folders (or the shipped corpora when ``paths`` is empty); see :mod:`.indexer`."""
    from .config import KnowledgeConfig as _Config
    from .indexer import index_paths

    return index_paths(config or _Config.resolve(index_dir), paths, document=document, progress=progress,
                       force=force)


def __getattr__(name: str):
    if name == "KnowledgeBase":
        from .base import KnowledgeBase

        return KnowledgeBase
    raise AttributeError(name)
