"""EARS rules: which Easy Approach to Requirements Syntax pattern a requirement statement follows.

``classify_ears`` is also what hovers and the agent use to show a statement's pattern and its trigger or
precondition clauses. The patterns are data (rules/en/ears.yaml, rules/zh/ears.yaml). A statement is
classified by the sentence that holds its main modal verb: English opening clauses ("When …, ", "While …, ",
"If …, then ", "Where …, ") in front of the system; Chinese markers (当…时, 在…期间, 如果…那么, 在具备…的情况下)
anywhere before the response, since Chinese puts adverbial clauses before the verb.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ...data import load_rules_yaml
from ...model.document import Item
from ..analysis.shared import analysed
from ..context import CheckContext
from ..findings import Finding
from ..analysis.modal_verbs import main_verb, modal_verbs
from ..registry import item_check
from ..analysis.statements import first_key, sentence_at, source_span, word_positions

ROLES = {"event": "trigger", "state": "precondition", "unwanted": "trigger", "optional": "feature"}


@dataclass(frozen=True, slots=True)
class EarsClause:
    """One condition of a statement: ``start``/``end`` cover the clause with its keyword (offsets in the
    statement text); ``body_start``/``body_end`` the condition alone, without keyword and comma."""

    kind: str
    start: int
    end: int
    body_start: int
    body_end: int

    @property
    def role(self) -> str:
        """trigger (event, unwanted), precondition (state) or feature (optional)."""
        return ROLES[self.kind]


@dataclass(frozen=True, slots=True)
class EarsClass:
    """A statement's EARS pattern, its clauses in order and where its system and response start.

    ``pattern`` is ubiquitous, event, state, unwanted, optional, complex (clauses of several kinds) or none;
    for none, ``reason`` says why and ``reason_span`` which words (offsets) are at fault, if any.
    ``subject_start`` is where the system's name starts and ``response_start`` where the modal verb is.
    """

    pattern: str
    clauses: tuple[EarsClause, ...] = ()
    subject_start: int | None = None
    response_start: int | None = None
    reason: str | None = None
    reason_span: tuple[int, int] | None = None

    @property
    def kinds(self) -> tuple[str, ...]:
        """The distinct clause kinds in order of appearance (what a complex statement combines)."""
        return tuple(dict.fromkeys(c.kind for c in self.clauses))


@dataclass(frozen=True)
class _English:
    keywords: dict[str, str]
    keyword_re: re.Pattern[str]
    then_re: re.Pattern[str]
    openers: dict[str, str]
    opener_re: re.Pattern[str] | None
    trailing: dict[str, re.Pattern[str]]  # by first word, tried where the statement has that word
    trailing_keys: frozenset[str]


@dataclass(frozen=True)
class _Chinese:
    clauses: tuple[tuple[str, re.Pattern[str]], ...]
    openers: tuple[tuple[re.Pattern[str], str], ...]


def _alternation(words) -> str:
    return "|".join(r"\s+".join(map(re.escape, str(w).split())) for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _english() -> _English:
    data = load_rules_yaml("en/ears.yaml")
    # Keys casefolded, as the look-ups below: the patterns match without case, and some letters match without
    # case only under case folding (the long s in "caſe", the Kelvin sign).
    keywords = {str(k).casefold(): v for k, v in data["keywords"].items()}
    openers = {" ".join(str(k).casefold().split()): v for k, v in (data.get("not-ears-openers") or {}).items()}
    trailing = {key: re.compile(rf"(?<![\w-])(?:{_alternation(group)})\b", re.IGNORECASE)
                for key, group in _by_first_word(data.get("trailing-conditions") or []).items()}
    return _English(
        keywords,
        re.compile(rf"(?:{_alternation(keywords)})\b", re.IGNORECASE),
        re.compile(rf"(?<=[\s,])(?:{_alternation(data.get('then', []))})\b\s*", re.IGNORECASE),
        openers,
        re.compile(rf"(?:{_alternation(openers)})\b", re.IGNORECASE) if openers else None,
        trailing,
        frozenset(trailing),
    )


def _by_first_word(words) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(first_key(str(word)), []).append(str(word))
    return groups


def _first_trailing(en: _English, text: str, lo: int, hi: int) -> re.Match[str] | None:
    """The first condition word between the modal verb (``lo``) and the end of its sentence (``hi``)."""
    best: re.Match[str] | None = None
    words = word_positions(text, en.trailing_keys)
    for key, regex in en.trailing.items():
        for pos in words.get(key, ()):
            if pos >= hi or (best is not None and pos >= best.start()):
                break
            if pos >= lo and (m := regex.match(text, pos)) is not None:
                best = m
                break
    return best


@lru_cache(maxsize=1)
def _chinese() -> _Chinese:
    data = load_rules_yaml("zh/ears.yaml")
    clauses = tuple((c["pattern"], re.compile(c["regex"])) for c in data["clauses"])
    openers = tuple((re.compile(o["regex"]), o["use"]) for o in data.get("not-ears-openers") or [])
    return _Chinese(clauses, openers)


def _pattern_of(clauses: list[EarsClause]) -> str:
    kinds = {c.kind for c in clauses}
    if not kinds:
        return "ubiquitous"
    return kinds.pop() if len(kinds) == 1 else "complex"


def _classify_en(text: str, s_start: int, s_end: int, verb_start: int) -> EarsClass:
    en = _english()
    if en.keyword_re.match(text, s_start) is None:
        opener = en.opener_re.match(text, s_start) if en.opener_re else None
        if opener is not None:
            word = text[opener.start():opener.end()]
            use = en.openers[" ".join(word.casefold().split())]
            return EarsClass("none", (), None, verb_start,
                             f"it opens with '{word}', which is not an EARS keyword: write '{use} …, the <system> shall …'",
                             opener.span())
        trailing = _first_trailing(en, text, verb_start, s_end)
        if trailing is not None:
            word = trailing.group(0)
            return EarsClass("none", (), s_start, verb_start,
                             f"the condition '{word} …' follows the response: EARS puts it first "
                             f"('{word.capitalize()} …, the <system> shall …')", trailing.span())
        return EarsClass("ubiquitous", (), s_start, verb_start)
    # Opening clauses run from each keyword to the comma before the next clause; the last one ends at "then"
    # or at the last comma before the system. Without such a comma the clause runs up to the modal verb.
    starts = [s_start]
    for i in range(s_start, verb_start):
        if text[i] == ",":
            j = _skip(text, i + 1)
            if j < verb_start and en.keyword_re.match(text, j):
                starts.append(j)
    region_end, subject = verb_start, None
    then = None
    for then in en.then_re.finditer(text, starts[-1], verb_start):
        pass  # the last "then" before the system ends the condition …
    comma = text.rfind(",", starts[-1], verb_start)
    if then is not None and comma < then.start():
        region_end, subject = then.start(), then.end()
    elif comma != -1:  # … unless a comma follows it ("If it resets and then restarts, the ECU …")
        region_end, subject = comma, _skip(text, comma + 1)
    clauses = []
    for k, start in enumerate(starts):
        end = _trim_end(text, start, starts[k + 1] if k + 1 < len(starts) else region_end)
        kw = en.keyword_re.match(text, start)
        assert kw is not None
        clauses.append(EarsClause(en.keywords[kw.group(0).casefold()], start, end, _skip(text, kw.end()), end))
    return EarsClass(_pattern_of(clauses), tuple(clauses), subject, verb_start)


def _classify_zh(text: str, s_start: int, s_end: int, verb_start: int) -> EarsClass:
    zh = _chinese()
    for regex, use in zh.openers:
        m = regex.match(text, s_start)
        if m is not None:
            return EarsClass("none", (), None, verb_start,
                             f"it opens with '{m.group(0).rstrip('，,')}', which is not an EARS marker: write '{use}'",
                             m.span())
    taken: list[EarsClause] = []
    for kind, regex in zh.clauses:
        for m in regex.finditer(text, s_start, s_end):
            if not any(m.start() < c.end and c.start < m.end() for c in taken):
                end = _trim_zh_end(text, m.start(), m.end())
                body_end = _trim_end(text, m.start("clause"), m.end("clause"))
                taken.append(EarsClause(kind, m.start(), end, m.start("clause"), body_end))
    taken.sort(key=lambda c: c.start)
    # The system's name follows the clauses that open the sentence (and 那么/则 after an 如果 clause).
    subject = s_start
    for c in taken:
        if c.start != subject:
            break
        subject = _skip_then(text, _skip_zh(text, c.end))
    return EarsClass(_pattern_of(taken), tuple(taken), subject if subject <= verb_start else None, verb_start)


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _skip_zh(text: str, pos: int) -> int:
    while pos < len(text) and (text[pos].isspace() or text[pos] in "，,"):
        pos += 1
    return pos


def _skip_then(text: str, pos: int) -> int:
    for word in ("那么", "则"):
        if text.startswith(word, pos):
            return _skip_zh(text, pos + len(word))
    return pos


def _trim_zh_end(text: str, start: int, end: int) -> int:
    """The end of a Chinese clause without the comma, 那么 or 则 that closes it."""
    while True:
        end = _trim_end(text, start, end)
        for word in ("那么", "则"):
            if text.endswith(word, start, end):
                end -= len(word)
                break
        else:
            return end


def _trim_end(text: str, start: int, end: int) -> int:
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",，"):
        end -= 1
    return end


@lru_cache(maxsize=8192)
def classify_ears(text: str, language: str, extra_not_modal: tuple[str, ...] = ()) -> EarsClass:
    """The EARS pattern of a requirement statement (``language`` "en" or "zh") with its clauses' offsets;
    ``extra_not_modal`` are the project's extra not-modal words.

    The sentence holding the main modal verb is classified; a statement without a modal verb has pattern
    "none" and the reason "it has no modal verb".
    """
    verb = main_verb(modal_verbs(text, language, extra_not_modal))
    if verb is None:
        return EarsClass("none", reason="it has no modal verb")
    s_start, s_end = sentence_at(text, verb.start)
    if language == "zh":
        return _classify_zh(text, s_start, s_end, verb.start)
    return _classify_en(text, s_start, s_end, verb.start)


def describe_ears(text: str, language: str, extra_not_modal: tuple[str, ...] = ()) -> str:
    """One line naming the EARS pattern of a statement and its conditions, for hovers and the agent: e.g.
    ``event-driven; trigger: the driver brakes`` or ``no EARS pattern: 'Upon' opens the statement ...``."""
    cls = classify_ears(text, language, extra_not_modal)
    names = _pattern_names()
    name = names.get(cls.pattern, cls.pattern)
    if cls.pattern == "none":
        return f"{name}: {cls.reason}" if cls.reason else name
    parts = [name] + [f"{c.role}: {text[c.body_start:c.body_end]}" for c in cls.clauses]
    return "; ".join(parts)


@lru_cache(maxsize=1)
def _pattern_names() -> dict[str, str]:
    return {str(k): str(v) for k, v in (load_rules_yaml("en/ears.yaml").get("names") or {}).items()}


@item_check("ears/no-pattern", topics={"modal:main"})
def no_pattern(ctx: CheckContext, item: Item) -> Iterable[Finding]:
    a = analysed(ctx, item)
    if a is None or main_verb(a.verbs) is None:
        return ()  # modal/missing reports it; without a modal verb no pattern can be told
    cls = classify_ears(a.text, item.language, a.extra)
    if cls.pattern != "none":
        return ()
    start, end = cls.reason_span or (0, len(a.text))
    return [ctx.finding("ears/no-pattern", item.path, source_span(item.statement, start, end),
                        f"{item.id} fits no EARS pattern: {cls.reason}")]
