"""The statements the text checks (modal, wording, EARS) read: which items, where their sentences and words are.

Only requirement statements are held to the writing rules: the prose of safety goals and requirements, never
their attributes (the parser keeps Rationale and the like apart) and never hazards, claims or test cases,
whose prose describes rather than obliges.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from ..data import load_rules_yaml
from ..model.document import Item, Text
from ..model.ranges import Span
from ..workspace import Workspace
from .engine import CheckContext

TEXT_CATEGORIES = frozenset({"requirement", "safety-requirement", "safety-goal"})


def is_requirement(ws: Workspace, item: Item) -> bool:
    """True when the item's kind is a requirement, safety requirement or safety goal."""
    return ws.category(item) in TEXT_CATEGORIES


def statement_of(ctx: CheckContext, item: Item) -> str | None:
    """The statement text the text checks read, or None when the item is not checked or has no statement.

    Looked up once per item and check run: a dozen rules ask for it, and ``Text.text`` joins its segments.
    """
    seen = ctx.memo.get("text/statements")
    if seen is None:
        seen = ctx.memo["text/statements"] = {}
    hit = seen.get(id(item))
    if hit is not None and hit[0] is item:
        return hit[1]
    text = item.statement.text if item.statement and is_requirement(ctx.workspace, item) else ""
    value = text if text.strip() else None
    seen[id(item)] = (item, value)
    return value


_END = re.compile(r"[.!?](?=\s|$)|[。！？]")


@cache
def _abbreviations() -> frozenset[str]:
    return frozenset(str(a).lower() for a in load_rules_yaml("en/sentences.yaml")["abbreviations"])


@lru_cache(maxsize=8192)
def sentences(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) offsets of the sentences of ``text``, each end just past its closing punctuation.

    A full stop, ! or ? followed by white space or the end closes a sentence, unless it closes an
    abbreviation (e.g., etc.); a Chinese full stop closes one wherever it is. Decimal points never do.
    """
    out: list[tuple[int, int]] = []
    start = 0
    abbreviations = _abbreviations()
    for m in _END.finditer(text):
        end = m.end()
        if m.group(0) == ".":
            k = m.start()
            while k > start and (text[k - 1].isalnum() or text[k - 1] == "."):
                k -= 1
            if text[k:end].lower() in abbreviations:
                continue
        if text[start:end].strip():
            out.append((_skip_space(text, start), end))
        start = end
    if text[start:].strip():
        out.append((_skip_space(text, start), len(text.rstrip())))
    return tuple(out)


_WORD = re.compile(r"[a-z0-9_]+")
_WORDS_SPLIT = re.compile(r"([a-z0-9_]+)")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@lru_cache(maxsize=8192)
def word_positions(text: str) -> dict[str, list[int]]:
    """Where each Latin word (lower case) and each CJK character of ``text`` starts.

    Word lists and modal verbs are looked up by their first word or character at these positions only,
    which is far cheaper than trying every phrase at every character. The words come from one ``re.split``
    (separators and words alternate), which costs about half of a loop over match objects.
    """
    out: dict[str, list[int]] = {}
    lowered = text.lower()
    if len(lowered) != len(text):  # a few characters (İ) grow when lowered; keep offsets exact
        lowered = text.translate(_ASCII_LOWER)
    parts = _WORDS_SPLIT.split(lowered)
    pos = len(parts[0])
    for k in range(1, len(parts), 2):
        word = parts[k]
        where = out.get(word)
        if where is None:
            out[word] = [pos]
        else:
            where.append(pos)
        pos += len(word) + len(parts[k + 1])
    if not text.isascii():
        for i, ch in enumerate(text):
            if ord(ch) >= 0x2E80:
                out.setdefault(ch, []).append(i)
    return out


def first_key(term: str) -> str:
    """The key ``word_positions`` files a word or phrase under: its first Latin word, or first character."""
    term = term.strip()
    if term[0].isascii():
        m = _WORD.match(term.lower())
        return m.group(0) if m else term[0]
    return term[0]


def source_span(statement: Text, start: int, end: int) -> Span:
    """The source span of ``statement.text[start:end]``, also when ``start`` falls on the space that joins
    two source lines (an edit that removes a line break): that space is the end of the first line."""
    sl, sc = statement.position_of(start, end=True)
    el, ec = statement.position_of(end, end=True)
    return Span(sl, sc, el, ec)


def sentence_at(text: str, offset: int) -> tuple[int, int]:
    """The sentence that holds ``offset`` (the last one when the offset is past the end)."""
    spans = sentences(text)
    for start, end in spans:
        if offset < end:
            return start, end
    return spans[-1] if spans else (0, len(text))


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos
