"""Wording rules: words that make a requirement ambiguous, unverifiable or incomplete.

They follow the INCOSE Guide to Writing Requirements (R7 vague terms, R8 escape clauses, R9 open-ended
clauses, R19 combinators, R24 pronouns, R26 absolutes, R32 universal quantifiers) and the requirement
smells of the research literature (subjective language, superlatives, comparatives, negative statements,
vague pronouns). Only statements of requirements, safety requirements and safety goals are read; the word
lists are data (rules/en/wording.yaml, rules/zh/wording.yaml) that users extend per project. Each rule
reports the words themselves, so a finding's span is exactly what has to be rewritten.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Iterable, Iterator

from ...model.document import Item
from ...model.ranges import Span
from ..analysis.shared import Statement, analysed, statement_topic
from ..context import CheckContext
from ..findings import Edit, Finding, Fix
from ..registry import item_check, rule_infos
from ..analysis.statements import sentences, source_span
from ..analysis.spans import Spans
from ..analysis.units import missing_units, quantity_context

Keep = Callable[[Statement, int, int], bool]


def _entry_check(rule: str, list_name: str, reports: Callable[[Statement], bool] | None = None) -> Callable:
    """Register the decorated ``body(ctx, item, statement)`` as the item check of ``rule``, called only for a
    statement with an entry of word list ``list_name`` and, when ``reports`` is given (a test of the statement
    alone: whether the body finds anything), only for one it holds for (``analysis.shared.statement_topic``:
    decided once per distinct text, not per item).

    The check answers from the shared analysis with one look-up: most statements have no entry, and a cold
    check runs each of these rules for every item.
    """
    def register(body: Callable[[CheckContext, Item, Statement], Iterable[Finding]]) -> Callable:
        def check(ctx: CheckContext, item: Item) -> Iterable[Finding]:
            a = analysed(ctx, item)
            if a is None or list_name not in a.entries:
                return ()
            return body(ctx, item, a)

        check.__name__ = check.__qualname__ = rule.split("/", 1)[1].replace("-", "_")
        if reports is None:
            return item_check(rule, topics={list_name})(check)
        statement_topic(rule, needs=list_name)(reports)
        return item_check(rule, topics={rule})(check)

    return register


def _list_rule(rule: str, list_name: str, message: str, keep: Keep | None = None) -> Callable:
    """Register the rule that reports each entry of word list ``list_name`` in a statement; ``message`` has a
    ``{word}`` field and ``keep`` (when given) decides per entry whether it counts. Called for every rule
    whose metadata gives a ``message`` (rules/checks/wording.yaml), at the end of this module. The findings
    are a list rather than a generator: cheaper for the few entries a statement has.
    """
    def report(ctx: CheckContext, item: Item, a: Statement) -> list[Finding]:
        text = a.text
        return [ctx.finding(rule, item.path, source_span(item.statement, start, end),
                            message.format(word=text[start:end]))
                for start, end in a.entries[list_name] if keep is None or keep(a, start, end)]

    def reports(a: Statement) -> bool:
        assert keep is not None
        return any(keep(a, start, end) for start, end in a.entries[list_name])

    return _entry_check(rule, list_name, reports if keep is not None else None)(report)


_THAN_VALUE = re.compile(r"\s+than\s+(?:or\s+equal\s+to\s+)?(?:[-+±]?\d|ASIL\b|QM\b|[A-Z][A-Z0-9]*[-_.]\d)",
                         re.IGNORECASE)
_ZH_VALUE_BEFORE = re.compile(r"比[^，,。；]*\d[^，,。；]*$")
_ZH_VALUE_AFTER = re.compile(r"\s*于?\s*\d")
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)


_ZH_CLAUSE_END = re.compile("[，,。；]")


@functools.lru_cache(maxsize=8)
def _clause_marks(text: str) -> list[int]:
    """Where the Chinese clause marks of a statement stand, found once per statement."""
    return [m.start() for m in _ZH_CLAUSE_END.finditer(text)]


def _clause_start(text: str, start: int) -> int:
    """Where the Chinese clause holding ``start`` begins: after the last clause mark before it (found by
    bisection: searching from the paragraph's start for every comparative would be quadratic)."""
    marks = _clause_marks(text)
    i = bisect.bisect_left(marks, start)
    return marks[i - 1] + 1 if i else 0


def _unreferenced_comparison(a: Statement, start: int, end: int) -> bool:
    """False for a comparison with a value ("more than 1.5 Nm", 比 3 Nm 更大) or a choice ("the higher of")."""
    text = a.text
    if a.language == "zh":
        return not (_ZH_VALUE_BEFORE.search(text, _clause_start(text, start), start)
                    or _ZH_VALUE_AFTER.match(text, end))
    if _THAN_VALUE.match(text, end):
        return False
    return not _THE_BEFORE.search(text[max(0, start - 8):start])


_PERIOD = re.compile(r"\s*\d")


def _not_a_period(a: Statement, start: int, end: int) -> bool:
    """False for "every 10 ms": a period, not a quantifier over a set."""
    return not _PERIOD.match(a.text, end)


_NUMBER_SOON = re.compile(r"(?:\s+[^\W\d]+){0,3}\s+\d")


def _open_list(a: Statement, start: int, end: int) -> bool:
    """False for an entry of ``open-ended-bounds`` followed by a number within three words: "at a minimum
    rate of 1 kHz" bounds a value, it leaves no list open."""
    words = " ".join(a.text[start:end].lower().split())
    bounds = {" ".join(w.lower().split()) for w in a.lexicon.words("open-ended-bounds")}
    return not (words in bounds and _NUMBER_SOON.match(a.text, end))


def _not_in_escape_clause(a: Statement, start: int, end: int) -> bool:
    """False for a vague word inside an escape clause ("as appropriate"): wording/escape-clause reports the
    clause, and one defect is reported once."""
    clauses = a.entries.get("escape-clauses")
    if not clauses:
        return True
    return not any(s <= start and end <= e for s, e in _escape_clauses(clauses).overlapping(start, end))


def _escape_clauses(clauses: list[tuple[int, int]]) -> Spans:
    """The statement's escape clauses, sorted once: kept for the statement last asked about, whose words are
    asked about one after the other (a paragraph can hold thousands of both)."""
    global _last_clauses
    if _last_clauses is None or _last_clauses[0] is not clauses:
        _last_clauses = (clauses, Spans(clauses))
    return _last_clauses[1]


_last_clauses: tuple[list[tuple[int, int]], Spans] | None = None


def _is_absolute(a: Statement, start: int, end: int) -> bool:
    """Whether an entry of ``absolutes`` counts: "100 %" does not where it is a value ("set to 100 %")."""
    return not (a.text[start].isdigit() and _percent_value(a.lexicon, a.text, start, end))


@_entry_check("wording/absolute", "absolutes",
              reports=lambda a: any(_is_absolute(a, start, end) for start, end in a.entries["absolutes"]))
def absolute(ctx: CheckContext, item: Item, a: Statement) -> Iterator[Finding]:
    rule = "wording/absolute"
    text = a.text
    for start, end in a.entries["absolutes"]:
        word = text[start:end]
        if not _is_absolute(a, start, end):
            continue
        yield ctx.finding(rule, item.path, source_span(item.statement, start, end),
                          f"'{word}' is an absolute no system can guarantee and no test can show: state the "
                          f"conditions and limits within which the requirement holds",
                          fixes=_absolute_fixes(item, text, start, end))


_PERCENT = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s*[%％]")
_MARKER_WINDOW = 32  # characters before a percentage searched for a value marker ("set to", "=")


@functools.lru_cache(maxsize=8)
def _percentages(text: str) -> frozenset[int]:
    """Where the percentages of a statement start; found once per statement, not once per percentage."""
    return frozenset(m.start() for m in _PERCENT.finditer(text))


def _percent_value(lex, text: str, start: int, end: int) -> bool:
    """True for a percentage that is a value, not a claim of perfection: after a quantity context ("differ by
    more than 100 %"), on a scale the statement states ("0 % to 100 %"), or right after a value marker
    ("set to 100 %", "(100 %)"); see absolute-value-markers in rules/en/wording.yaml."""
    if quantity_context(lex, text, start) is not None:
        return True
    percentages = _percentages(text)
    if len(percentages) - (start in percentages) > 0:
        return True
    before = text[max(0, start - _MARKER_WINDOW):start].rstrip()
    return any(before.lower().endswith(m) and (not m[-1].isalpha() or not before[-len(m) - 1:-len(m)].isalpha())
               for m in lex.words("absolute-value-markers"))


_AFTER_SHALL = re.compile(r"\bshall\s+$", re.IGNORECASE)


def _absolute_fixes(item: Item, text: str, start: int, end: int) -> list[Fix]:
    """'shall never' -> 'shall not' (same obligation); 'shall always' -> 'shall' (needs review)."""
    word = text[start:end].lower()
    if item.language == "zh" or not _AFTER_SHALL.search(text, max(0, start - _MARKER_WINDOW), start):
        return []
    if word == "never":
        not_ = "NOT" if text[start:end].isupper() else "not"
        return [Fix("Write 'shall not'", (Edit(item.path, source_span(item.statement, start, end), not_),), safe=True)]
    if word == "always":
        span = _deletion_span(item, text, start, end)
        if span is not None:
            return [Fix("Delete 'always'", (Edit(item.path, span, ""),), safe=False)]
    return []


def _deletion_span(item: Item, text: str, start: int, end: int) -> Span | None:
    """The span of a word with the space before it, when both are on one source line."""
    if start > 0 and text[start - 1] == " ":
        span = source_span(item.statement, start - 1, end)
        if span.start_line == span.end_line and span.end_col - span.start_col == end - start + 1:
            return span
    return None


def _vague_pronouns(a: Statement) -> list[tuple[int, int]]:
    """The pronouns of the statement that may refer outside it: one that opens a sentence, or the subject of
    a modal verb ("it shall"), except "that" and "such". Of the statement alone, so decided once per text."""
    text = a.text
    starts = {s for s, _ in sentences(text)}
    verbs = {v.start for v in a.verbs if v.modal}
    return [(start, end) for start, end in a.entries["pronouns"]
            if start in starts or (text[start:end].lower() not in ("that", "such")
                                   and _next_non_space(text, end) in verbs)]


@_entry_check("wording/pronoun", "pronouns", reports=lambda a: bool(_vague_pronouns(a)))
def pronoun(ctx: CheckContext, item: Item, a: Statement) -> Iterator[Finding]:
    for start, end in _vague_pronouns(a):
        yield ctx.finding("wording/pronoun", item.path, source_span(item.statement, start, end),
                          f"'{a.text[start:end]}' may refer to something outside the statement: name the system, "
                          f"signal or item it stands for")


def _next_non_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


@statement_topic("number:unitless", needs="number")
def _unitless(a: Statement) -> bool:
    """Whether the statement has a number that needs a unit and has none (what wording/missing-unit reports)."""
    return bool(missing_units(a.lexicon, a.text))


@item_check("wording/missing-unit", topics={"number:unitless"})
def missing_unit(ctx: CheckContext, item: Item) -> Iterable[Finding]:
    a = analysed(ctx, item)
    if a is None:
        return ()
    found = missing_units(a.lexicon, a.text)
    return _missing_units(ctx, item, a.text, found) if found else ()


def _missing_units(ctx: CheckContext, item: Item, text: str,
                   found: tuple[tuple[int, int, str], ...]) -> Iterator[Finding]:
    for start, end, context in found:
        number = text[start:end]
        after = f" after '{context}'" if context else ""
        yield ctx.finding("wording/missing-unit", item.path, source_span(item.statement, start, end),
                          f"The number {number}{after} has no unit: write it with its unit (e.g. '{number} ms')")


# Word-list rules whose entries do not all count: the filter decides per entry (the rest report every entry).
_KEEP: dict[str, Keep] = {
    "wording/comparative": _unreferenced_comparison,
    "wording/open-ended": _open_list,
    "wording/vague-term": _not_in_escape_clause,
    "wording/universal-quantifier": _not_a_period,
}

for _info in rule_infos().values():
    if _info.family == "wording" and _info.message is not None:
        _list_rule(_info.id, _info.lists[0], _info.message, _KEEP.get(_info.id))
