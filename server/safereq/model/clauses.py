"""The grammar of clause references such as ``ISO 26262-9:2018 §5.4.10``.

A reference names a standard (and part), optionally its edition year, and optionally a clause, table or
annex. The same grammar serves document parsing, hovers, the knowledge base's clause resolver and the
agent's citation checks, so that "ISO 26262-9, 5.4.10" and "ISO 26262-9:2018 clause 5.4.10" resolve alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .ranges import FIXED, Anchor, Span

_STANDARD = r"""
(?P<std>
    (?P<org>ISO(?:/PAS|/TR|/TS|/SAE)?|IEC|SAE)\s?(?P<num>\d{3,5})(?:-(?P<part>\d{1,2}))?
  | (?P<un>UN(?:/?ECE)?\s?R\s?(?P<unnum>\d{1,3}))
  | (?P<mil>MIL-STD-882E?)
)
"""
_YEAR = r"(?::(?P<year>(?:19|20)\d\d))?"
_CLAUSE = r"""
(?:
    (?:\s*,\s*|\s+)(?:§\s?|clauses?\s+|cl\.\s?|section\s+|sect\.\s?)(?P<clause>\d{1,3}(?:\.\d{1,3})*|[A-H](?:\.\d{1,3})+)
  | \s*,\s*(?P<bare>\d{1,3}(?:\.\d{1,3})+|[A-H](?:\.\d{1,3})+|\d{1,2}(?=\s|$|[;)\]]))
  | \s*§\s?(?P<sect>\d{1,3}(?:\.\d{1,3})*|[A-H](?:\.\d{1,3})+)
  | (?:\s*,\s*|\s+)(?P<table>Table\s\d{1,3})
  | (?:\s*,\s*|\s+)(?P<annex>Annex\s[A-Z](?:\.\d{1,3})*)
)?
"""
CLAUSE_REF_RE = re.compile(r"(?<![\w/-])" + _STANDARD + _YEAR + _CLAUSE + r"(?![\w])", re.VERBOSE)


@dataclass(frozen=True, slots=True)
class ClauseRef:
    """A parsed clause reference; ``document`` is the standard without year, e.g. ``ISO 26262-9``."""

    document: str
    year: str | None
    clause: str | None
    raw: str
    parsed_span: Span | None = None  # where it was parsed; ``span`` is where it is now (see ranges.Anchor)
    anchor: Anchor = FIXED

    @property
    def span(self) -> Span | None:
        return None if self.parsed_span is None else self.parsed_span.shifted(self.anchor.shift)

    @property
    def key(self) -> str:
        """A normalised lookup key: ``ISO 26262-9 5.4.10`` (no year, so any edition resolves)."""
        return f"{self.document} {self.clause}" if self.clause else self.document

    def __str__(self) -> str:
        year = f":{self.year}" if self.year else ""
        clause = ""
        if self.clause:
            clause = f" {self.clause}" if self.clause[0].isalpha() else f" §{self.clause}"
        return f"{self.document}{year}{clause}"


def _normalise_document(m: re.Match[str]) -> str:
    if m.group("mil"):
        return "MIL-STD-882E"
    if m.group("un"):
        return f"UN R{m.group('unnum')}"
    org = m.group("org")
    doc = f"{org} {m.group('num')}"
    if m.group("part"):
        doc += f"-{m.group('part')}"
    return doc


def _from_match(m: re.Match[str], span: Span | None, anchor: Anchor = FIXED) -> ClauseRef:
    clause = m.group("clause") or m.group("bare") or m.group("sect") or m.group("table") or m.group("annex")
    return ClauseRef(_normalise_document(m), m.group("year"), clause, m.group(0), span, anchor)


def find_clause_refs(line: str, line_no: int = 0, anchor: Anchor = FIXED) -> list[ClauseRef]:
    """Every clause reference in one line of text, with its span on line ``line_no`` of a section whose
    anchor is ``anchor``."""
    if "ISO" not in line and "UN" not in line and "IEC" not in line and "SAE" not in line and "MIL" not in line:
        return []
    return [
        _from_match(m, Span.on_line(line_no, m.start(), m.end()), anchor)
        for m in CLAUSE_REF_RE.finditer(line)
    ]


def parse_clause_ref(text: str) -> ClauseRef | None:
    """Parse a reference that makes up the whole of ``text`` (surrounding white space allowed)."""
    m = CLAUSE_REF_RE.fullmatch(text.strip())
    return _from_match(m, None) if m else None


def clause_ref_with_clause(ref: ClauseRef | str) -> ClauseRef | None:
    """``ref`` parsed when given as text; None unless it names a clause (not just a standard)."""
    if isinstance(ref, str):
        ref = parse_clause_ref(ref)
    return ref if ref is not None and ref.clause else None
