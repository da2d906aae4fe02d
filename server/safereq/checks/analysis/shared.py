"""The analysis of one requirement statement that the text checks share: its modal verbs and word-list entries.

About thirty item rules (modal, wording, EARS) read every requirement statement, and a cold check of a large
workspace has tens of thousands of items. So a statement is analysed once per item and check run, by the
first that asks (the engine's item dispatch, engine/dispatch.py), and every rule gets the record with one look-up. The
record depends on the text alone (with the language and the configured words), so it is cached per text:
repeated statements cost nothing more.

The analysis also names the statement's *topics* (``Statement.topics``), the facts by which the item dispatch
tells which text rules can report on it at all: most statements give most rules nothing to say.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ...model.document import Item
from ..context import CheckContext
from .modal_verbs import ModalVerb, main_verb, modal_verbs
from .statements import statement_of
from .word_lists import Lexicon, lexicon

_KEY = "text/analysis"
_SETTINGS = "text/settings"  # language -> (extra not-modal words, lexicon)
_DIGIT = re.compile(r"\d")
_PERMISSION = frozenset({"permission"})


@dataclass(slots=True)  # not frozen: a frozen dataclass is several times dearer to make, and one is made per text
class Statement:
    """A requirement statement as the text checks read it (treat as read-only: it is shared by every item
    with the same statement text).

    ``verbs`` are found with the project's extra not-modal words (``extra``), so that every rule reads the
    same verbs: a phrase the project says is not a modal verb is one for no rule.
    ``topics``: the name of each word list with entries; ``modal:<role>`` for each role among ``verbs``;
    ``modal:multiple`` (two binding verbs or more); ``modal:none`` (no verb but permissions states the
    requirement); ``modal:main`` (``verbs`` have a main verb, so EARS can classify); ``number`` (a digit);
    and the topics of :func:`statement_topic` whose test holds.
    """

    text: str
    language: str
    lexicon: Lexicon
    verbs: tuple[ModalVerb, ...]
    extra: tuple[str, ...]  # the project's extra not-modal words of the language
    entries: dict[str, list[tuple[int, int]]]  # word-list name -> entries (lists without entries absent)
    roles: frozenset[str]  # the roles of ``verbs``
    binding: tuple[ModalVerb, ...]  # the binding ones among ``verbs`` ("shall", 应)
    topics: frozenset[str]


# Topics a rule decides by its own test of the statement (see statement_topic): (topic, needed topic, test).
_TESTED: list[tuple[str, str, Callable[[Statement], bool]]] = []


def statement_topic(topic: str, needs: str) -> Callable[[Callable[[Statement], bool]], Callable[[Statement], bool]]:
    """Register ``test(statement)``, which says whether a rule reports anything on a statement that has the
    topic ``needs``; ``topic`` is among the statement's topics when it does.

    For a rule whose findings depend on the statement text alone, so that its decision is made once per
    distinct text rather than once per item: registered under ``topic``, the rule is not even called for
    the items it has nothing to say about (in a cold check of 20,000 requirements, ``wording/missing-unit``
    was called 12,000 times and ``wording/pronoun`` 3,800 times, to report nothing). The test must be true
    whenever the rule would report (tests/checks/test_item_dispatch.py holds the dispatch to that).
    """
    def register(test: Callable[[Statement], bool]) -> Callable[[Statement], bool]:
        _TESTED.append((topic, needs, test))
        _of_text.cache_clear()  # analyses made before the test was known lack its topic
        return test

    return register


def analysed(ctx: CheckContext, item: Item) -> Statement | None:
    """The item's statement analysis, or None when its statement is not checked (see ``statement_of``)."""
    table = ctx.memo.get(_KEY)
    if table is None:
        table = ctx.memo[_KEY] = {}
    hit = table.get(id(item))
    if hit is not None and hit[0] is item:
        return hit[1]
    value = _analyse(ctx, item)
    table[id(item)] = (item, value)
    return value


def _analyse(ctx: CheckContext, item: Item) -> Statement | None:
    text = statement_of(ctx, item)
    if text is None:
        return None
    language = item.language
    settings = ctx.memo.get(_SETTINGS)
    if settings is None:
        settings = ctx.memo[_SETTINGS] = {}
    words = settings.get(language)
    if words is None:  # the configured words of the language, looked up once per run
        words = settings[language] = (ctx.config.not_modal(language), lexicon(ctx, language))
    return _of_text(text, language, *words)


@lru_cache(maxsize=8192)
def _of_text(text: str, language: str, extra: tuple[str, ...], lex: Lexicon) -> Statement:
    """The analysis of a statement text, cached per text: workspaces repeat statements."""
    verbs = modal_verbs(text, language, extra)
    entries = lex.entries(text)
    roles = frozenset([v.role for v in verbs])
    binding = tuple([v for v in verbs if v.role == "binding"])
    topics = [*entries, *[f"modal:{role}" for role in roles]]
    if len(binding) > 1:
        topics.append("modal:multiple")
    if roles <= _PERMISSION:
        topics.append("modal:none")
    if main_verb(verbs) is not None:
        topics.append("modal:main")
    if _DIGIT.search(text):
        topics.append("number")
    statement = Statement(text, language, lex, verbs, extra, entries, roles, binding, frozenset(topics))
    tested = [topic for topic, needs, test in _TESTED if needs in statement.topics and test(statement)]
    if tested:
        statement.topics = statement.topics.union(tested)
    return statement
