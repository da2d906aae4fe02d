"""The document agents: offline, the engines run without LlamaIndex, and answer exactly as the LlamaIndex
router with the same policy does (so the fast path loses nothing)."""

from __future__ import annotations

import pytest

from safereq.agent.retrieval.documents import DocumentAgent
from safereq.agent.retrieval.policies import OfflinePolicy


def _answer(a):
    if a is None:
        return None
    return (a.document, a.engine, a.text, [(h.document, h.clause, h.title, h.text, round(h.score, 6)) for h in a.hits])


@pytest.mark.parametrize("question_type,query", [
    ("fact", "decomposed requirements independence common cause"),
    ("overview", "overview of requirements decomposition and dependent failures"),
    ("fact", "bake the loaf"),
])
def test_direct_engines_answer_as_the_llamaindex_router(source, question_type, query):
    agent = DocumentAgent(source, "ISO 26262-9", "Part 9", OfflinePolicy(), question_type)
    direct, routed = agent.ask_direct(query), agent.ask_routed(query)
    assert _answer(direct) == _answer(routed)
    if query == "bake the loaf":
        assert direct is None  # nothing relevant in that document: the context is discarded
    else:
        assert direct is not None and direct.engine == ("summary" if question_type == "overview" else "vector")


def test_offline_ask_does_not_import_llamaindex(source):
    import subprocess
    import sys

    code = ("import sys; from tests.agent.conftest import CLAUSES; from safereq.agent.retrieval.knowledge import LexicalSource;"
            "from safereq.knowledge.types import ClauseText; from safereq.agent.retrieval.documents import DocumentAgent;"
            "from safereq.agent.retrieval.policies import OfflinePolicy;"
            "s = LexicalSource([ClauseText(d, '2018', c, t, x, 'text') for d, c, t, x in CLAUSES]);"
            "a = DocumentAgent(s, 'ISO 26262-9', 'Part 9', OfflinePolicy()).ask('decomposed requirements');"
            "print(a is not None, any(m.startswith('llama_index') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]
