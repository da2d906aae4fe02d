"""The statements the text checks (modal, wording, EARS) read: which items, where their sentences and words are.

Only requirement statements are held to the writing rules: the prose of safety goals and requirements, never
their attributes (the parser keeps Rationale and the like apart) and never hazards, claims or test cases,
whose prose describes rather than obliges.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Set as AbstractSet
from functools import cache, lru_cache

from ...data import load_rules_yaml
from ...model.document import Item, Text
from ...model.ranges import Span
from ...workspace import Workspace
from ..context import CheckContext

TEXT_CATEGORIES = frozenset({"requirement", "safety-requirement", "safety-goal"})


def is_requirement(ws: Workspace, item: Item) -> bool:
    """True when the item's kind is a requirement, safety requirement or safety goal."""
    return ws.category(item) in TEXT_CATEGORIES


def statement_of(ctx: CheckContext, item: Item) -> str | None:
    """The statement text the text checks read, or None when the item is not checked or has no statement.

    Rules read it through the statement analysis (analysis.analysed), which asks once per item and run.
    """
    if not (item.statement and is_requirement(ctx.workspace, item)):
        return None
    text = item.statement.text
    return None if not text or text.isspace() else text


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
_NOT_WORD = re.compile(r"[^a-z0-9_]")
_CJK = re.compile("[\u2e80-\U0010ffff]")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# ASCII text to lower case, every character that is no part of a Latin word ([a-z0-9_]) made a space.
_ASCII_WORDS = bytes(ord(chr(c).lower()) if _WORD.fullmatch(chr(c).lower()) else ord(" ") for c in range(256))


def word_positions(text: str, keys: AbstractSet[str]) -> dict[str, list[int]]:
    """Where each Latin word (lower case) and each CJK character of ``text`` that is one of ``keys`` starts,
    in order of first appearance.

    Word lists and modal verbs are looked up by their first word or character at these positions only,
    which is far cheaper than trying every phrase at every character. Only a few words of a statement start
    anything a scanner looks for, so they are picked by one set intersection and found with ``str.find``.
    """
    spaced, present = _words(text)
    found = present.intersection(keys)
    if not found:
        return {}
    out: dict[str, list[int]] = {}
    for word in found:
        where = out[word] = []
        if word.isascii():  # " word " in the spaced text: the space before it stands where the word starts
            pattern = f" {word} "
            k = spaced.find(pattern)
            while k >= 0:
                where.append(k)
                k = spaced.find(pattern, k + len(word) + 1)
        else:
            k = text.find(word)
            while k >= 0:
                where.append(k)
                k = text.find(word, k + 1)
    return out if len(out) == 1 else dict(sorted(out.items(), key=_first_start))


def _first_start(entry: tuple[str, list[int]]) -> int:
    return entry[1][0]


# Asked for by the scans of one statement (modal verbs, word lists: about five times), which cache their own
# results per text, so a few entries serve them all. Kept for 8,192 texts, the word sets were the largest
# allocation of a cold check (25 MiB for 20,000 requirements) without ever being asked for again.
@lru_cache(maxsize=64)
def _words(text: str) -> tuple[str, frozenset[str]]:
    """``text`` in lower case with every character that is no part of a Latin word ([a-z0-9_]) made a space
    and a space added before it, so that a word at offset k is " word " at k; and the set of its Latin words
    and CJK characters. An ASCII statement (the common case) is spaced by one ``bytes.translate``."""
    if text.isascii():
        spaced = text.encode("ascii").translate(_ASCII_WORDS).decode("ascii")
        return f" {spaced} ", frozenset(spaced.split())
    lowered = text.lower()
    if len(lowered) != len(text):  # a few characters (İ) grow when lowered; keep offsets exact
        lowered = text.translate(_ASCII_LOWER)
    spaced = _NOT_WORD.sub(" ", lowered)
    return f" {spaced} ", frozenset(spaced.split()).union(_CJK.findall(text))


def term_words(term: str) -> frozenset[str] | None:
    """The Latin words (lower case) of an ASCII ``term``; None for any other term.

    A scanner whose expression matches a term case-insensitively, with any spacing, and as whole words
    (or between characters that are no part of a word) finds it in an ASCII statement only where every
    one of these words is a word of the statement (``statement_words``): the words of a match are the
    term's. So it can pass over an expression that cannot match without running it. Other text is not
    judged so: case-insensitive matching pairs letters that ``lower`` does not (the Kelvin sign with k).
    """
    return frozenset(_WORD.findall(term.lower())) if term.isascii() else None


def statement_words(text: str) -> frozenset[str] | None:
    """The Latin words (lower case) of an ASCII statement (see ``term_words``); None for other text."""
    return _words(text)[1] if text.isascii() else None


def any_subset(sets: Iterable[frozenset[str]], words: frozenset[str]) -> bool:
    """True when one of ``sets`` is a subset of ``words``."""
    for need in sets:
        if need <= words:
            return True
    return False


class KeyFilter:
    """Which keys of a scanner (terms filed under their ``first_key``) may match in a statement.

    A key can match in an ASCII statement only where, for one of its terms, the statement has every word
    (``term_words``). Keys with a single-word term are *sure* once the statement has the word; the others
    file phrases ("as far as possible", "and so forth") under common words, whose other words are rarely
    all there. Each phrase is found through one of its words, the one fewest phrases share (likely the
    rarest: "possible", not "as"), so the keys to judge come from one set intersection with the statement's
    words, and the rest is skipped. Only for scanners that match whole words (see ``term_words``).
    """

    def __init__(self, terms: Iterable[str]) -> None:
        needs: dict[str, list[frozenset[str] | None]] = {}
        for term in terms:
            needs.setdefault(first_key(term), []).append(term_words(term))
        self.keys = frozenset(needs)
        self._needs: dict[str, list[frozenset[str]]] = {}  # keys whose terms are all phrases judged by words
        for key, sets in needs.items():
            phrases = [need for need in sets if need is not None and not need <= {key}]
            if len(phrases) == len(sets):
                self._needs[key] = phrases
        self._sure = self.keys.difference(self._needs)
        shared = Counter(word for sets in self._needs.values() for need in sets for word in need)
        self._by_word: dict[str, set[str]] = {}  # a phrase's chosen word -> keys of such phrases
        for key, sets in self._needs.items():
            for need in sets:
                word = min(need, key=lambda w: (shared[w], -len(w), w))
                self._by_word.setdefault(word, set()).add(key)
        self._words = frozenset(self._by_word)

    def candidates(self, text: str) -> AbstractSet[str]:
        """The keys that may match in ``text``: all keys unless it is ASCII."""
        words = statement_words(text)
        if words is None:
            return self.keys
        found = words.intersection(self.keys)
        live = set(found.intersection(self._sure))
        for word in words.intersection(self._words):
            for key in self._by_word[word]:
                if key in found and key not in live and any_subset(self._needs[key], words):
                    live.add(key)
        return live


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
