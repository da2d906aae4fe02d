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
    requirement); ``modal:main`` (``verbs`` have a main verb, so EARS can classify); ``number`` (a digit).
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
    return Statement(text, language, lex, verbs, extra, entries, roles, binding, frozenset(topics))
