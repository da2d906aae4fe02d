"""Find numbers that state a time, threshold or limit without a unit ("within 100", "超过 2.0 时").

A number counts as a quantity when a context word from the word lists stands right before it (within,
exceeds, more than …; 超过, 在, 至少 …) or, in Chinese, when a time-window marker follows it (100 内). It
lacks a unit when what follows is punctuation, the end of the statement, or a word that cannot be a unit
(and, the, after …). Any other word after the number is taken as its unit or counted noun ("3 consecutive
frames", "2 个周期"), which keeps the rule quiet on counts. Years (after 2018), version numbers (2.3.1),
ranges whose unit follows the second number ("between 60 and 180 km/h") and zero are not reported.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .word_lists import Lexicon

# A number that is not part of a word, an ID or a longer number (TSR-1, ISO 26262-9, 2.3.1).
_NUMBER_RE = re.compile(r"(?<![A-Za-z0-9_.\-:§])\d+(?:\.\d+)?")
_UNIT_SYMBOL = "%％°µμΩ′″'\"/‰℃"
_RANGE_TAIL = re.compile(r"\s*(?:and|or|to|[-–—~～至到])\s*\d")
_YEAR = re.compile(r"(?:19|20)\d\d")
_DECIMAL_AFTER = re.compile(r"\.\d")
_LETTERS = re.compile(r"[^\W\d_]+")


# Characters before a number that the look-behinds read: phrases of a few words (and the white space between).
_WINDOW = 256


class _Compiled:
    """The quantity data of one lexicon: context phrases, window markers, non-units and Chinese units."""

    def __init__(self, lex: Lexicon) -> None:
        self.language = lex.language
        self.contexts = tuple(sorted((" ".join(c.lower().split()) for c in lex.words("quantity-contexts")),
                                     key=len, reverse=True))
        self.context_set = frozenset(self.contexts)
        self.longest = max((len(c.split()) for c in self.contexts), default=0)
        markers = "|".join(map(re.escape, sorted(lex.words("window-markers"), key=len, reverse=True)))
        self.window_re = re.compile(rf"\s*(?:{markers})") if markers else None
        self.not_units = frozenset(lex.words("not-units"))
        self.dimensionless = frozenset(w.lower() for w in lex.words("dimensionless"))
        self.links = frozenset(w.lower() for w in lex.words("quantity-links"))
        self.zh_units = tuple(sorted(lex.words("units"), key=len, reverse=True))

    def context(self, text: str, start: int) -> str | None:
        """The quantity-context word or phrase right before the number at ``start``, if any."""
        before = text[max(0, start - _WINDOW):start]  # not text[:start]: a copy per number is quadratic
        if self.language == "zh":
            stripped = before.rstrip()
            return next((c for c in self.contexts if stripped.endswith(c)), None)
        if not before[-1:].isspace():
            return None
        words = before[-60:].split()[-self.longest:]
        for k in range(len(words), 0, -1):
            phrase = " ".join(words[-k:]).lower().lstrip("([\"'")
            if phrase in self.context_set:
                return " ".join(words[-k:]).lstrip("([\"'")
        return None


    def dimensionless_before(self, text: str, start: int, context: str) -> bool:
        """True when what is compared by ``context`` before the number at ``start`` is dimensionless: a
        word of ``dimensionless`` right before the comparison, or before it and some quantity links."""
        before = text[max(0, start - _WINDOW):start].rstrip()
        if self.language == "zh":
            head = before[:len(before) - len(context)].rstrip()
            stripped = True
            while stripped:
                stripped = False
                for link in self.links:
                    if link and head.endswith(link):
                        head, stripped = head[:-len(link)].rstrip(), True
            return any(head.endswith(word) for word in self.dimensionless)
        words = before[-120:].split()[:-len(context.split()) or None]
        while words and words[-1].lower() in self.links:
            words.pop()
        return bool(words) and words[-1].lower().strip("\"'()[],;:") in self.dimensionless


@lru_cache(maxsize=32)
def _compiled(lex: Lexicon) -> _Compiled:
    return _Compiled(lex)


def quantity_context(lex: Lexicon, text: str, start: int) -> str | None:
    """The quantity-context word right before offset ``start`` ("more than" before "100 %"), if any."""
    return _compiled(lex).context(text, start)


@lru_cache(maxsize=8192)
def missing_units(lex: Lexicon, text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, context) of each number in ``text`` that needs a unit and has none (cached per text)."""
    c = _compiled(lex)
    found = []
    for m in _NUMBER_RE.finditer(text):
        start, end = m.span()
        window = c.window_re is not None and c.window_re.match(text, end) is not None
        has_unit = _has_unit(c, text, end)
        if has_unit and not window:
            continue  # most numbers have their unit: no need to look for the context word before them
        context = c.context(text, start)
        if context is None:
            if not window or not _is_quantity(text, start, end, ""):
                continue
            found.append((start, end, ""))
        elif _is_quantity(text, start, end, context) and not has_unit and \
                not c.dimensionless_before(text, start, context):
            found.append((start, end, context))
    return tuple(found)


def _is_quantity(text: str, start: int, end: int, context: str) -> bool:
    number = text[start:end]
    if float(number) == 0:
        return False  # zero needs no unit to be exact
    if _DECIMAL_AFTER.match(text, end) or text[end:end + 1].isdigit():
        return False  # a version or clause number (2.3.1)
    if _YEAR.fullmatch(number) and context.lower() in ("after", "before", "by", "since", "until", "in", "在", "于"):
        return False
    return not _RANGE_TAIL.match(text, end)


# "2 or more consecutive cycles": the unit follows the open end of the bound.
_OPEN_BOUND = re.compile(r"\s+or\s+(?:more|fewer|less|greater|higher|lower)\b", re.IGNORECASE)


def _has_unit(c: _Compiled, text: str, end: int) -> bool:
    """True when a unit, a counted noun or another word that is not a function word follows the number
    (also after a hyphen, "12-bit", or after an open bound, "2 or more cycles")."""
    bound = _OPEN_BOUND.match(text, end)
    if bound is not None:
        end = bound.end()
    rest = text[end:end + 24]
    if rest[:1] == "-" and rest[1:2].isalpha():
        return True  # written with a hyphen: 12-bit, 60-second
    stripped = rest.lstrip()
    if not stripped:
        return False
    first = stripped[0]
    if first in _UNIT_SYMBOL:
        return True
    if c.language == "zh" and ord(first) >= 0x2E80:
        return stripped.startswith(c.zh_units)
    if not first.isalpha():
        return False
    if rest[0].isalpha():
        return True  # written together: 100ms
    word = _LETTERS.match(stripped)
    return word is not None and word.group(0) not in c.not_units
