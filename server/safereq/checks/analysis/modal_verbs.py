"""Find the modal verbs of a requirement statement, in English and Chinese.

The modal rules, the EARS classification, the pronoun rule and the split fix all need to know where a
statement's modal verbs are and which of them binds. The word data is in rules/en/modal.yaml and
rules/zh/modal.yaml; a scan is compiled once per language and extra words and cached per statement text, so
re-checking an unchanged statement costs a dictionary lookup.

English words are matched as whole words with a few context rules ("at will" is no modal verb, "Should the
sensor fail" is a condition). Chinese has no spaces, so a modal character is only taken where no longer
word that contains it (响应, 重要, 需求) covers it, and 应 at the start of 应对 or 应用 counts only when the
statement has no other modal verb.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from ...data import load_rules_yaml
from .statements import KeyFilter, first_key, word_positions
from .spans import Spans

_CLAUSE_BOUNDARY = re.compile(r"[,;:，；：。.!?！？]|\bthen\b", re.IGNORECASE)
_PREV_WORD = re.compile(r"(\S+)\s*$")
_WORD_AFTER = re.compile(r"\s+[A-Za-z]")


@dataclass(frozen=True, slots=True)
class ModalVerb:
    """One modal verb: offsets into the statement text, its role and, for flagged ones, the standard word.

    ``role`` is ``binding`` (shall, 应), ``obligation`` (binds, but not in the standard word: must, 必须),
    ``non-binding`` (recommends or predicts: should, will, 宜) or ``permission`` (may, 可以).
    """

    start: int
    end: int
    word: str
    role: str
    negated: bool = False
    replacement: str | None = None

    @property
    def flagged(self) -> bool:
        return self.role in ("obligation", "non-binding")

    @property
    def modal(self) -> bool:
        """True for a verb that states the requirement (every role but permission)."""
        return self.role != "permission"


def _fold(word: str) -> str:
    return " ".join(word.lower().split())


class _Scanner:
    """The compiled word data of one language plus extra not-modal words."""

    def __init__(self, language: str, extra_not_modal: tuple[str, ...]) -> None:
        data = load_rules_yaml(f"{language}/modal.yaml")
        self.language = language
        self.roles: dict[str, tuple[str, str | None]] = {}
        negators = [str(n) for n in data.get("negators", [])]
        for word in data.get("binding", []):
            self.roles[_fold(word)] = ("binding", None)
            if language == "zh":
                for neg in negators:
                    self.roles[neg + word] = ("binding", None)
        for role in ("obligation", "non-binding"):
            for word, replacement in (data.get(role) or {}).items():
                self.roles[_fold(word)] = (role, replacement)
        for word in data.get("permission", []):
            self.roles[_fold(word)] = ("permission", None)
        self.negators = negators
        self.negated_re = (re.compile(r"\s+(?:" + "|".join(map(re.escape, negators)) + r")\b", re.IGNORECASE)
                           if negators and language != "zh" else None)
        self.not_after = {_fold(k): [str(v) for v in vs] for k, vs in (data.get("not-after") or {}).items()}
        self.in_condition = {
            _fold(k): re.compile(r"(?<!\w)(?:" + "|".join(_phrase(v) for v in vs) + r")(?!\w)", re.IGNORECASE)
            for k, vs in (data.get("in-condition") or {}).items()
        }
        self.needs_word_after = {_fold(w) for w in data.get("needs-word-after", [])}
        self.ambiguous = tuple(data.get("ambiguous", []))
        not_modal = {*map(str, data.get("not-modal", [])), *extra_not_modal}
        self.words = _groups(self.roles, language)
        self.masks = _groups(not_modal, language)
        self.keys = frozenset(self.words).union(self.masks)  # the only words a scan needs the positions of
        # English verbs and masks match whole words, so a statement needs all words of one of them: "a must"
        # needs "must" too. Chinese words are not spaced, so all their keys are looked at.
        self.filter = KeyFilter([*self.roles, *not_modal]) if language != "zh" else None

    # -- scanning ----------------------------------------------------------------------------------------
    def scan(self, text: str) -> tuple[ModalVerb, ...]:
        positions = word_positions(text, self.filter.candidates(text) if self.filter else self.keys)
        spans = [m.span() for _, m in _matches(self.masks, text, positions)]
        if "`" in text:  # a code span is a name or a display text ("`Driver must brake`"), never the statement's verb
            spans += [m.span() for m in _CODE_SPAN.finditer(text)]
        masked = Spans(spans)
        found: list[ModalVerb] = []
        end = 0
        for start, m in _matches(self.words, text, positions):
            if start < end or masked.overlapping(start, m.end()):
                continue
            end = m.end()
            verb = self._verb(text, start, end)
            if verb is not None:
                found.append(verb)
        if self.language == "zh":
            found = self._resolve_ambiguous(text, found, masked)
        return tuple(found)

    def _verb(self, text: str, start: int, end: int) -> ModalVerb | None:
        word = text[start:end]
        key = _fold(word)
        role, replacement = self.roles[key]
        if self.language == "zh":
            return ModalVerb(start, end, word, role, any(key.startswith(n) for n in self.negators), replacement)
        if key in self.not_after and _after_any(text, start, self.not_after[key]):
            return None
        cond = self.in_condition.get(key)
        if cond is not None and cond.search(_clause_before(text, start)):
            return None
        if key in self.needs_word_after and not _WORD_AFTER.match(text, end):
            return None
        negated = bool(self.negated_re and self.negated_re.match(text, end))
        return ModalVerb(start, end, word, role, negated, _match_case(word, replacement) if replacement else None)

    def _resolve_ambiguous(self, text: str, found: list[ModalVerb], masked: Spans) -> list[ModalVerb]:
        """Drop 应 at the start of 应对/应用 … unless no other modal verb is left to state the requirement."""
        def ambiguous(v: ModalVerb) -> bool:
            return v.word == "应" and any(
                text.startswith(a, v.start) and not masked.overlapping(v.start + 1, v.start + len(a))
                for a in self.ambiguous)

        if not any(ambiguous(v) for v in found):
            return found
        if any(v.modal and not ambiguous(v) for v in found):
            return [v for v in found if not ambiguous(v)]
        first = next(v for v in found if ambiguous(v))
        return [v for v in found if v is first or not ambiguous(v)]


# An inline code span: a run of backticks, text, and a run of the same length (CommonMark).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)


def _groups(words, language: str) -> dict[str, re.Pattern[str]]:
    """Words grouped by their first word or character, each group one expression (longest words first)."""
    by_key: dict[str, list[str]] = {}
    for word in sorted(words, key=len, reverse=True):
        by_key.setdefault(first_key(word), []).append(word)
    if language == "zh":
        return {k: re.compile("|".join(map(re.escape, ws))) for k, ws in by_key.items()}
    return {k: re.compile(r"(?<![\w'-])(?:" + "|".join(map(_phrase, ws)) + r")(?![\w-])", re.IGNORECASE)
            for k, ws in by_key.items()}


def _matches(groups: dict[str, re.Pattern[str]], text: str,
             positions: dict[str, list[int]]) -> list[tuple[int, re.Match[str]]]:
    """Each match of a group at a position of its key, by position (overlapping matches included).
    ``positions`` holds only keys of this scanner's words and masks (``word_positions``), so it is small."""
    out = []
    for key, where in positions.items():
        regex = groups.get(key)
        if regex is not None:
            for pos in where:
                m = regex.match(text, pos)
                if m is not None:
                    out.append((pos, m))
    if len(out) > 1:
        out.sort(key=itemgetter(0))
    return out


def _phrase(word: str) -> str:
    """A regex for a word or phrase, any run of white space between its words."""
    return r"\s+".join(re.escape(part) for part in str(word).split())


def _after_any(text: str, start: int, previous: list[str]) -> bool:
    """True when the word before ``start`` is one of ``previous`` ("^": the start of a sentence)."""
    before = _before(text, start).rstrip()
    if "^" in previous and (not before or before[-1] in ".!?。！？"):
        return True
    m = _PREV_WORD.search(before)
    if m is None:
        return False
    prev = m.group(1).lower().strip("\"'()[]*_`")
    return any(prev.endswith(p) if p.startswith("'") else prev == p for p in previous if p != "^")


def _clause_before(text: str, start: int) -> str:
    """The text of the clause ``start`` is in, from the last comma, semicolon, sentence end or "then"."""
    before = _before(text, start)
    last = 0
    for m in _CLAUSE_BOUNDARY.finditer(before):
        last = m.end()
    return before[last:]


# Characters before a word that the look-behinds read first; text[:start] for every verb of one long
# paragraph would be quadratic.
_WINDOW = 512


def _before(text: str, start: int) -> str:
    """The text before ``start``: the last :data:`_WINDOW` characters when they hold a clause boundary and
    a word (all a look-behind needs), else all of it."""
    if start <= _WINDOW:
        return text[:start]
    window = text[start - _WINDOW:start]
    if _CLAUSE_BOUNDARY.search(window, 1) and window.strip():
        return window
    return text[:start]


def _match_case(word: str, replacement: str) -> str:
    """``replacement`` written like ``word``: "Must" -> "Shall", "MUST" -> "SHALL", "must" -> "shall"."""
    letters = [c for c in word if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return replacement.upper()
    if letters and letters[0].isupper():
        return replacement[0].upper() + replacement[1:]
    return replacement


@lru_cache(maxsize=16)
def _scanner(language: str, extra_not_modal: tuple[str, ...]) -> _Scanner:
    return _Scanner("zh" if language == "zh" else "en", extra_not_modal)


def modal_verbs(text: str, language: str, extra_not_modal: tuple[str, ...] = ()) -> tuple[ModalVerb, ...]:
    """The modal verbs of ``text`` in order; ``extra_not_modal`` are the user's extra not-modal words."""
    return _scan(text, language, extra_not_modal)


@lru_cache(maxsize=8192)
def _scan(text: str, language: str, extra_not_modal: tuple[str, ...]) -> tuple[ModalVerb, ...]:
    return _scanner(language, extra_not_modal).scan(text)


def main_verb(verbs: tuple[ModalVerb, ...]) -> ModalVerb | None:
    """The verb that states the requirement: the first binding one, else the first flagged one."""
    return next((v for v in verbs if v.role == "binding"), None) or next((v for v in verbs if v.flagged), None)
