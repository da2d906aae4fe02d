"""`ask` answers from the clause that states it, in the question's language, whole, or says the index holds nothing."""

from __future__ import annotations

import re

import pytest

from safereq.agent.item.context import WorkspaceView
from safereq.agent.retrieval.knowledge import catalogue_source
from safereq.agent.tasks.pipeline import AgentRequest, Assistant
from safereq.agent.trust.citing import uncitable
from safereq.agent.writing.answering import outside_index


@pytest.fixture(scope="module")
def ask():
    assistant = Assistant(catalogue_source())
    return lambda q: assistant.run(AgentRequest("ask", WorkspaceView(None, (), frozenset()), q))


def test_a_question_about_a_document_that_is_not_indexed_gets_nothing_in_the_index(ask):
    result = ask("What does UN R155 require for a cyber security management system?")
    assert result.suggestions == []
    assert any("The index holds nothing on UN R155" in n for n in result.notes)
    assert outside_index("What does ISO 26262 say?", {"ISO 26262-2"}) == []  # a part covers its series


def test_the_clause_that_states_the_requirement_is_cited_not_its_inputs(ask):
    (answer,) = ask("What does ISO 26262 require for the safety plan?").suggestions
    labels = [(c.document, c.clause) for c in answer.citations]
    assert labels[0] == ("ISO 26262-2", "6.4.6")
    assert not any(uncitable(c.title) for c in answer.citations)
    assert "Inputs to this clause" not in answer.text


def test_a_chinese_question_is_answered_in_chinese(ask):
    (answer,) = ask("什么是ASIL分解？").suggestions
    assert answer.text.startswith("索引中与此问题相关的条款如下")
    # the substance in Chinese too: the catalogue's Chinese summaries, not its English ones
    assert "ASIL 分解" in answer.text and "redundant" not in answer.text
    assert len(re.findall(r"[\u4e00-\u9fff]", answer.text)) > len(re.findall(r"[A-Za-z]", answer.text))
    assert any(c.clause.startswith("5") and c.document == "ISO 26262-9" or c.clause == "3.3" for c in answer.citations)


def test_the_decomposition_schemes_are_in_the_answer(ask):
    (answer,) = ask("How is an ASIL D requirement decomposed?").suggestions
    assert "C(D)+A(D)" in answer.text and "B(D)+B(D)" in answer.text


def test_sentences_are_never_cut(ask):
    for q in ("How is an ASIL D requirement decomposed?", "What is the fault tolerant time interval?"):
        (answer,) = ask(q).suggestions
        for c in answer.citations:
            assert c.quote in answer.text and re.search(r"[.。)]$", c.quote.strip()), c.quote


def test_a_series_whose_parts_are_indexed_is_not_reported_as_not_indexed(ask):
    result = ask("What does ISO 26262 require for the safety plan?")
    assert not any(n.startswith("not indexed, skipped") for n in result.notes)


def test_catalogue_entries_whose_numbers_are_unconfirmed_are_named_not_cited_and_not_called_absent(ask):
    result = ask("What does ISO/PAS 8800 say about the data used to train a model?")
    assert result.suggestions == []
    (note,) = [n for n in result.notes if n.startswith("Nothing in the index answers this with a clause")]
    assert "ISO/PAS 8800" in note and "not confirmed" in note and "§" not in note
    assert not any("could not be verified" in n or "not offered" in n for n in result.notes)
