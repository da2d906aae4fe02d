"""The analysis of one requirement statement that the text checks share: its modal verbs and word-list entries.

About thirty item rules (modal, wording, EARS) read every requirement statement, and a cold check of a large
workspace calls each of them for tens of thousands of items. So a statement is analysed once per item and
check run, by the first rule that asks, and every other rule gets the record with one look-up; the scans
themselves are cached per statement text (modal_verbs, word_lists), so repeated statements cost nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..model.document import Item
from .engine import CheckContext
from .modal_verbs import ModalVerb, modal_verbs
from .statements import statement_of
from .word_lists import Lexicon, lexicon

_KEY = "text/analysis"


@dataclass(slots=True)  # not frozen: one is made per item, and a frozen dataclass is several times dearer to make
class Statement:
    """A requirement statement as the text checks read it (treat as read-only).

    ``verbs`` are found with the project's extra not-modal words (what the modal rules report);
    ``plain_verbs`` without them, as the pronoun and EARS rules have always read them.
    """

    text: str
    language: str
    lexicon: Lexicon
    verbs: tuple[ModalVerb, ...]
    plain_verbs: tuple[ModalVerb, ...]
    entries: dict[str, list[tuple[int, int]]]  # word-list name -> entries (lists without entries absent)
    roles: frozenset[str]  # the roles of ``verbs``, so that most rules can tell at once they have nothing to say
    binding: tuple[ModalVerb, ...]  # the binding ones among ``verbs`` ("shall", 应)


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
    key = ("modal", "not-modal", language)
    extra = ctx.memo.get(key)
    if extra is None:
        extra = ctx.memo[key] = tuple(ctx.config.extra_words(language, "not-modal"))
    lex = lexicon(ctx, language)
    return Statement(text, language, lex, *_of_text(text, language, extra, lex))


@lru_cache(maxsize=8192)
def _of_text(text: str, language: str, extra: tuple[str, ...], lex: Lexicon) -> tuple:
    """What a statement's analysis takes from its text alone, cached per text: workspaces repeat statements."""
    verbs = modal_verbs(text, language, extra)
    plain = modal_verbs(text, language) if extra else verbs
    return (verbs, plain, lex.entries(text), frozenset(v.role for v in verbs),
            tuple(v for v in verbs if v.role == "binding"))
