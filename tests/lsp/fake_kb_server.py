"""``safereq serve`` with a stand-in knowledge base, to test clause hovers without LanceDB (the real index is
tested with the knowledge base, tests/knowledge/). Opening it takes as long as the test wants: it waits for
``release`` to exist in the index folder, so the test sees the catalogue answer first, deterministically."""

from __future__ import annotations

import time
from pathlib import Path

import safereq.knowledge as knowledge
from safereq.knowledge.types import ClauseText


class FakeKnowledgeBase:
    def resolve(self, ref):
        if (ref.document, ref.clause) != ("ISO 99999-2", "5.2"):
            return None
        return ClauseText("ISO 99999-2", "2020", "5.2", "Watchdog supervision",
                          "A watchdog shall supervise the widget controller.", "text", (2,),
                          "/corpus/widget-standard.txt", (("5.2.1", "Watchdog timeout"),))


def fake_open(index_dir, *, config=None, embedder="auto"):
    release = Path(index_dir) / "release"
    deadline = time.monotonic() + 60
    while not release.exists() and time.monotonic() < deadline:  # a background thread: blocking is fine
        time.sleep(0.02)
    return FakeKnowledgeBase()


knowledge.open_knowledge_base = fake_open

if __name__ == "__main__":
    from safereq.lsp.server import serve

    serve()
