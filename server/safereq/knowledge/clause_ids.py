"""Clause identifiers as the knowledge base stores them: normalised, ordered and arranged in a tree.

The reference grammar (``safereq.model.clauses``) says how people *write* clause references; this module says
how the index *keys* them, so that "§5.4.10", "clause 5.4.10", "Annex B.2" and "B.2" all land on one row, and
so that "the children of 5.4" and "the parent of B.2" can be answered without reading any text.

Clause ids come in a few shapes: numbered ("5.4.10", "101.2.1"), annex/appendix heads ("Annex B",
"Appendix A"), annex subclauses ("B.2", "B.2.1"), tables ("Table 4", "Table III") and tasks ("Task 101",
MIL-STD-882E). Stdlib only: the language server imports this for hovers.
"""

from __future__ import annotations

import re

_NUMBERED = re.compile(r"^\d{1,3}(?:\.\d{1,3})*$")
_ANNEX_SUB = re.compile(r"^([A-Z])(?:\.\d{1,3})+$")
_ANNEX_HEAD = re.compile(r"^(Annex|Appendix)\s+([A-Z])$", re.IGNORECASE)
_TABLE = re.compile(r"^(?:Table|TABLE)\s*([0-9]{1,3}[a-z]?|[IVXLC]{1,6})$")
_TASK = re.compile(r"^(?:Task|TASK)\s*(\d{3})$")
_PREFIX = re.compile(r"^(?:§\s*|clauses?\s+|cl\.\s*|section\s+|sect\.\s*)", re.IGNORECASE)


def normalise_clause(text: str | None) -> str:
    """The canonical form of a clause id as typed by a person or found in a document ("" when empty).

    "§ 5.4.10." → "5.4.10"; "annex b" → "Annex B"; "Annex B.2" → "B.2"; "table 4" → "Table 4".
    """
    if not text:
        return ""
    s = " ".join(text.strip().split())
    s = _PREFIX.sub("", s).rstrip(".").strip()
    m = re.match(r"^(?:Annex|Appendix)\s+([A-Za-z](?:\.\d{1,3})+)$", s, re.IGNORECASE)
    if m:
        return m.group(1)[0].upper() + m.group(1)[1:]
    m = _ANNEX_HEAD.match(s)
    if m:
        return f"{m.group(1).capitalize()} {m.group(2).upper()}"
    m = re.match(r"^table\s*(.+)$", s, re.IGNORECASE)
    if m:
        return f"Table {m.group(1).strip()}"
    m = re.match(r"^task\s*(\d{3})$", s, re.IGNORECASE)
    if m:
        return f"Task {m.group(1)}"
    if re.match(r"^[a-z](?:\.\d{1,3})+$", s):
        return s[0].upper() + s[1:]
    return s


def parent_clause(clause: str, annex_word: str = "Annex") -> str:
    """The clause one level up, or "" at the top: "5.4.10" → "5.4"; "B.2" → "Annex B"; "Table 4" → ""."""
    if _NUMBERED.match(clause):
        return clause.rsplit(".", 1)[0] if "." in clause else ""
    m = _ANNEX_SUB.match(clause)
    if m:
        head, _, _ = clause.rpartition(".")
        return head if "." in head else f"{annex_word} {m.group(1)}"
    return ""


def ancestors(clause: str, annex_word: str = "Annex") -> list[str]:
    """Every ancestor of ``clause``, outermost first ("5.4.10" → ["5", "5.4"])."""
    out: list[str] = []
    cur = parent_clause(clause, annex_word)
    while cur:
        out.append(cur)
        cur = parent_clause(cur, annex_word)
    return out[::-1]


def is_within(clause: str, prefix: str) -> bool:
    """True when ``clause`` is ``prefix`` or lies below it ("5.4.10" is within "5.4"; "5.40" is not)."""
    if not prefix:
        return True
    if clause == prefix:
        return True
    m = _ANNEX_HEAD.match(prefix)
    if m:
        return bool(re.match(rf"^{m.group(2)}\.\d", clause))
    return clause.startswith(prefix + ".")


def _roman(s: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for i, ch in enumerate(s):
        v = values[ch]
        total += -v if i + 1 < len(s) and values[s[i + 1]] > v else v
    return total


def sort_key(clause: str) -> tuple:
    """Document order: front matter, numbered clauses, tasks, annexes (with their subclauses), then tables."""
    if not clause:
        return (0,)
    if _NUMBERED.match(clause):
        return (1, tuple(int(p) for p in clause.split(".")))
    m = _TASK.match(clause)
    if m:
        return (2, (int(m.group(1)),))
    m = _ANNEX_HEAD.match(clause)
    if m:
        return (3, m.group(2), ())
    m = _ANNEX_SUB.match(clause)
    if m:
        return (3, m.group(1), tuple(int(p) for p in clause.split(".")[1:]))
    m = _TABLE.match(clause)
    if m:
        num = m.group(1)
        n = int(re.sub(r"\D", "", num)) if num[0].isdigit() else _roman(num)
        return (4, n, num)
    return (5, clause)


def clause_depth(clause: str) -> int:
    """How deep a clause sits: "5" → 1, "5.4.10" → 3, "Annex B" → 1, "B.2" → 2."""
    return len(ancestors(clause)) + 1 if clause else 0
