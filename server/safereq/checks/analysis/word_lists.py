"""Word lists of the wording rules, compiled once per language and set of extra words.

The lists are data (rules/en/wording.yaml, rules/zh/wording.yaml), extended per project through
``[tool.safereq.words.<lang>] <list-name> = [...]``. Checks run on every keystroke, so the lists are compiled
once per (language, extra words) and shared by every statement, and an entry is only tried where a statement
has its first word (English) or first character (Chinese).

English entries match whole words, case-insensitively, with any white space between the words of a phrase.
Chinese entries match anywhere, except where a longer word of the ``not-in`` list covers them (等 "etc." is
not the 等 of 等级 "level"); the same rule keeps "least" of "at least" from counting as a superlative.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...data import load_rules_yaml
from ..context import CheckContext
from ..registry import scanned_lists, word_list_names
from .statements import KeyFilter, any_subset, first_key, statement_words, term_words, word_positions
from .spans import Spans

# Which lists are scanned and which a project may extend is derived from the rules' metadata (``lists`` and
# ``raw-lists`` in rules/checks/*.yaml, see registry.scanned_lists): a list no rule reads is not scanned.
# ``not-in`` is scanned for every rule: its phrases cover entries of the others.
NOT_IN = "not-in"
# Lists a Chinese statement also takes from the English data (Latin placeholders appear in Chinese text).
_SHARED_WITH_ZH = ("placeholders", "placeholder-patterns")


def _is_latin(term: str) -> bool:
    return all(ord(c) < 0x2E80 for c in term)


def term_regex(term: str) -> str:
    """The regular expression of one entry: whole words for Latin text, any spacing around "/" and "%"."""
    term = term.strip()
    if _is_latin(term):
        body = r"\s+".join(re.escape(part) for part in term.split())
        body = body.replace(r"\s+%", r"\s*%").replace("/", r"\s*[/／]\s*")
        body = re.sub(r"(\d)%", r"\1\\s*%", body)
        # ASCII boundaries: in Chinese text a Latin word (TBD) is often written right next to characters.
        head = r"(?<![A-Za-z0-9_-])" if term[0].isalnum() or term[0] == "_" else ""
        tail = r"(?![A-Za-z0-9_-])" if term[-1].isalnum() or term[-1] == "_" else ""
        return head + body + tail
    body = r"\s*".join(re.escape(ch) for ch in term if not ch.isspace())
    return body.replace("/", r"[/／]").replace("%", r"\s*[%％]")


_SINGLE_WORD = re.compile(r"[a-z0-9_]+")
_CJK_LITERAL = re.compile(r"[\u2e80-\U0002ffff]+")


class _Group:
    """The entries of one list that start with one key, compiled on first use (most keys never occur).

    ``needs``: per entry, the words an ASCII statement must have for it to match (statements.term_words);
    None when some entry cannot be judged so. Most groups are phrases that start with a common word ("as
    far as possible", "and so forth"), and the phrase's other words are rarely all there.
    """

    __slots__ = ("name", "source", "needs", "_regex")

    def __init__(self, name: str, terms: list[str]) -> None:
        self.name = name
        self.source = "|".join(term_regex(t) for t in sorted(terms, key=len, reverse=True))
        needs = tuple(term_words(t) for t in terms)
        self.needs = None if None in needs else needs
        self._regex: re.Pattern[str] | None = None

    def may_match(self, words: frozenset[str]) -> bool:
        """False when no entry can match in an ASCII statement with these words."""
        return self.needs is None or any_subset(self.needs, words)

    @property
    def regex(self) -> re.Pattern[str]:
        if self._regex is None:
            self._regex = re.compile(self.source, re.IGNORECASE)
        return self._regex


class Lexicon:
    """The word lists of one language with a user's extra words; ``find(name, text)`` is what rules call.

    All lists share one index from key (first word or character) to the entries starting with it, so a
    statement is scanned once for every list: each of its words is looked up, and only the entries that
    start with that word are tried there.
    """

    def __init__(self, language: str, extras: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
        data = dict(load_rules_yaml(f"{language}/wording.yaml"))
        if language == "zh":
            english = load_rules_yaml("en/wording.yaml")
            for name in _SHARED_WITH_ZH:
                data[name] = [*data.get(name, []), *english.get(name, [])]
        for name, words in extras:
            data[name] = [*data.get(name, []), *words]
        self.language = language
        self.data = data
        # Three kinds of entries, from cheapest to dearest to look for: single Latin words (the key itself),
        # Chinese words without spacing or symbols (compared in place), everything else (an expression).
        self.single: dict[str, list[str]] = {}
        self.literals: dict[str, list[tuple[str, str]]] = {}
        self.index: dict[str, list[_Group]] = {}
        scanned: list[str] = []
        for name in (*scanned_lists(), NOT_IN):
            by_key: dict[str, list[str]] = {}
            terms = {str(t).strip() for t in data.get(name, []) if t and str(t).strip()}
            scanned.extend(terms)
            for term in terms:
                key = first_key(term)
                if term.lower() == key and _SINGLE_WORD.fullmatch(key):
                    self.single.setdefault(key, []).append(name)
                elif _CJK_LITERAL.fullmatch(term):
                    self.literals.setdefault(key, []).append((name, term))
                else:
                    by_key.setdefault(key, []).append(term)
            for key, terms in by_key.items():
                self.index.setdefault(key, []).append(_Group(name, terms))
        for entries in self.literals.values():
            entries.sort(key=lambda e: len(e[1]), reverse=True)
        # One lookup per word of a statement: key -> (single-word lists, literal entries, expression groups).
        self.by_key = {k: (self.single.get(k, ()), self.literals.get(k, ()), self.index.get(k, ()))
                       for k in {*self.single, *self.literals, *self.index}}
        self.filter = KeyFilter(scanned)  # which keys a statement needs looked at
        sources = [str(p) for p in data.get("placeholder-patterns", [])]
        self.patterns = {"placeholders": re.compile("|".join(f"(?:{p})" for p in sources), re.IGNORECASE)} if sources else {}
        # The characters a pattern match can start with (None: unknown), so that the many statements
        # without any of them skip a search that tries every position.
        starts = [first_chars(p) for p in sources]
        self.pattern_starts = ({"placeholders": None if None in starts else _any_of(frozenset().union(*starts))}
                               if sources else {})

    def find(self, name: str, text: str) -> list[tuple[int, int]]:
        """Entries of list ``name`` in ``text``, leftmost-longest, except those inside a ``not-in`` phrase."""
        return _scan(self, text).get(name, [])

    def entries(self, text: str) -> dict[str, list[tuple[int, int]]]:
        """``find`` for every list at once: list name -> entries (lists without entries are absent)."""
        return _scan(self, text)

    def words(self, name: str) -> list[str]:
        """A raw list from the data (for rules that interpret it themselves, e.g. units)."""
        return [str(w) for w in self.data.get(name, [])]


@lru_cache(maxsize=8192)
def _scan(lex: Lexicon, text: str) -> dict[str, list[tuple[int, int]]]:
    """Every list's entries in ``text`` in one pass over its words, cached per statement text."""
    hits: dict[str, list[tuple[int, int]]] = {}
    words = statement_words(text)
    for key, positions in word_positions(text, lex.filter.candidates(text)).items():
        names, literals, groups = lex.by_key[key]
        if names:
            size = len(key)
            for pos in positions:
                if text[pos - 1:pos] != "-" and text[pos + size:pos + size + 1] != "-":
                    for name in names:
                        hits.setdefault(name, []).append((pos, pos + size))
        for name, term in literals:
            for pos in positions:
                if text.startswith(term, pos):
                    hits.setdefault(name, []).append((pos, pos + len(term)))
        for group in groups:
            if words is not None and not group.may_match(words):
                continue
            regex = group.regex
            for pos in positions:
                m = regex.match(text, pos)
                if m is not None and m.end() > pos:
                    hits.setdefault(group.name, []).append(m.span())
    for name, regex in lex.patterns.items():
        starts = lex.pattern_starts[name]
        if starts is not None and starts.search(text) is None:
            continue
        for m in regex.finditer(text):
            hits.setdefault(name, []).append(m.span())
    covers = Spans(hits.pop(NOT_IN, []))
    out: dict[str, list[tuple[int, int]]] = {}
    for name, spans in hits.items():
        if len(spans) == 1 and not covers.spans:
            out[name] = spans
            continue
        spans.sort(key=lambda h: (h[0], -h[1]))
        kept: list[tuple[int, int]] = []
        for start, end in spans:
            if kept and start < kept[-1][1]:
                continue  # leftmost, then longest: overlapping entries count once
            if any(not (start <= cs and ce <= end) for cs, ce in covers.overlapping(start, end)):
                continue  # inside a not-in phrase ("least" of "at least")
            kept.append((start, end))
        out[name] = kept
    return out


def _any_of(chars: frozenset[str]) -> re.Pattern[str]:
    """An expression that finds any of ``chars`` (a search in C, where a set would be tried per character)."""
    return re.compile("[" + "".join(re.escape(ch) for ch in sorted(chars)) + "]")


def first_chars(source: str) -> frozenset[str] | None:
    """The characters a match of regular expression ``source`` can start with, when Python's own parser of
    expressions tells a small set of them without letters (so that it holds case-insensitively too); None
    when it cannot be told (an internal module is read, so anything unexpected just means no shortcut)."""
    try:
        from re import _constants, _parser

        found = _firsts(list(_parser.parse(source)), _constants)
    except Exception:
        return None
    if not found or any(ch.lower() != ch.upper() for ch in found):
        return None
    return frozenset(found)


def _firsts(items: list, c) -> set[str] | None:
    """The first characters of a parsed expression (a list of (opcode, argument)), or None if unknown."""
    if not items:
        return None
    op, av = items[0]
    if op is c.LITERAL:
        return {chr(av)}
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
        return _firsts(list(av[2]), c)
    if op is c.SUBPATTERN:
        return _firsts(list(av[3]), c)
    if op is c.ATOMIC_GROUP:
        return _firsts(list(av), c)
    if op is c.BRANCH:
        found: set[str] = set()
        for branch in av[1]:
            more = _firsts(list(branch), c)
            if more is None:
                return None
            found |= more
        return found
    if op is c.IN and all(o is c.LITERAL for o, _a in av):
        return {chr(a) for _o, a in av}
    return None


@lru_cache(maxsize=32)
def _lexicon(language: str, extras: tuple[tuple[str, tuple[str, ...]], ...]) -> Lexicon:
    return Lexicon(language, extras)


def lexicon(ctx: CheckContext, language: str) -> Lexicon:
    """The lexicon for ``language`` under the context's configuration, looked up once per check run."""
    language = "zh" if language == "zh" else "en"
    key = ("wording", "lexicon", language)
    lex = ctx.memo.get(key)
    if lex is None:
        extras = tuple((name, tuple(words)) for name in sorted(word_list_names())
                       if (words := ctx.config.extra_words(language, name)))
        lex = ctx.memo[key] = _lexicon(language, extras)
    return lex
