"""Suggestions as Markdown: proper items to insert after the source item, or a review block, and plain text.

Derived requirements become items in the document's own conventions (heading with the new ID, the
statement, ``ASIL``, ``Derived from``, ``Cites``, ``Status: proposed`` and a ``Rationale`` that says which
mode made it and quotes the evidence). Trace links and rebuttals become a block quote for review: block
quotes are not part of any item's statement, so the checks ignore them until the user moves what they accept
into the item. Only verified citations are written into documents or printed, and every text field goes
through :func:`.sanitise.one_line` (controls and terminal escapes out, one line) whoever wrote it, so no
text can add a line, an attribute or a heading of its own. Stdlib only (the language server uses it).
"""

from __future__ import annotations

import re

from .sanitise import quote_line as one_line
from .suggestions import Citation, DerivedRequirement, Rebuttal, SuggestionSet, TraceLinkSuggestion

_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]|$)")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
MODE_WORDS = {"offline": "offline patterns", "llm": "LLM"}


def insertion_line(lines: list[str], heading_line: int, level: int) -> int:
    """The line before which to insert: the next heading of ``level`` or higher after the item (its subtree
    stays whole), or the end of the document."""
    fenced = False
    for i in range(heading_line + 1, len(lines)):
        if _FENCE.match(lines[i]):
            fenced = not fenced
            continue
        m = None if fenced else _HEADING.match(lines[i])
        if m and len(m.group(1)) <= level:
            return i
    return len(lines)


def _verified(citations: list[Citation]) -> list[Citation]:
    return [c for c in citations if c.verified]


def _quote(c: Citation, limit: int = 160) -> str:
    q = one_line(c.quote).replace('"', "'")
    return q if len(q) <= limit else q[: q.rfind(" ", 0, limit)] + " …"


def derived_items(result: SuggestionSet, level: int) -> str:
    """The derived requirements as Markdown items at heading ``level``, separated by blank lines."""
    blocks = []
    mode = MODE_WORDS.get(result.mode, result.mode)
    for s in result.suggestions:
        if not isinstance(s, DerivedRequirement):
            continue
        cites = _verified(s.citations)
        lines = [f"{'#' * level} {one_line(s.id)}: {one_line(s.title)}", one_line(s.statement), ""]
        if s.asil:
            lines.append(f"- ASIL: {one_line(s.asil)}")
        lines.append(f"- Derived from: {', '.join(one_line(d) for d in s.derived_from)}")
        if s.safe_state:
            lines.append(f"- Safe state: {one_line(s.safe_state)}")
        if s.ftti:
            lines.append(f"- FTTI: {one_line(s.ftti)}")
        if cites:
            lines.append(f"- Cites: {', '.join(dict.fromkeys(one_line(c.label) for c in cites))}")
        lines.append("- Status: proposed")
        evidence = f' {one_line(cites[0].label)}: "{_quote(cites[0])}"' if cites else ""
        lines.append(f"- Rationale: suggested by safereq ({mode}); {one_line(s.rationale or s.pattern)}.{evidence}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n\n" if blocks else ""


def review_block(result: SuggestionSet) -> str:
    """Trace links or rebuttals as a block quote to review (accept by moving lines into the item)."""
    what = {"links": "trace links", "rebut": "rebuttals"}.get(result.task, result.task)
    mode = MODE_WORDS.get(result.mode, result.mode)
    out = [f"> **safereq review: {what} for {result.item_id}** ({mode}; move what you accept into the item, "
           "then delete this block)", ">"]
    for s in result.suggestions:
        cites = _verified(s.citations)
        cite_text = "".join(f' — {one_line(c.label)}: "{_quote(c)}"' for c in cites[:2])
        if isinstance(s, TraceLinkSuggestion):
            target, title, reason = one_line(s.target), one_line(s.title), one_line(s.reason)
            if s.relation == "parent":
                out.append(f"> - Derived from: {target} ({title}) — score {s.score:.2f}: {reason}{cite_text}")
            elif s.relation == "child":
                out.append(f"> - Child: {target} ({title}) should say \"Derived from: {result.item_id}\" — "
                           f"score {s.score:.2f}: {reason}{cite_text}")
            elif cites:
                out.append(f"> - Cites: {target} — score {s.score:.2f}: {reason}{cite_text}")
        elif isinstance(s, Rebuttal) and cites:
            mitigation = f" Mitigation: {one_line(s.mitigation)}" if s.mitigation else ""
            out.append(f"> - *{one_line(s.category)}*: {one_line(s.statement)}{mitigation}{cite_text}")
    if len(out) == 2:
        return ""
    return "\n".join(out) + "\n\n"


def text_report(result: SuggestionSet) -> str:
    """Human-readable output for the command line: every field on one line, without terminal escapes; only
    verified citations are printed as citations."""
    mode = result.mode + (" (fallback: the task was meant for the model)" if result.fallback else "")
    out = [f"{result.task}{' ' + one_line(result.item_id) if result.item_id else ''} — mode: {mode}"]
    for s in result.suggestions:
        out.append("")
        if isinstance(s, DerivedRequirement):
            out.append(f"{one_line(s.id)}: {one_line(s.title)}  [ASIL {one_line(s.asil) or '-'}; derived from "
                       f"{', '.join(one_line(d) for d in s.derived_from)}; {one_line(s.pattern or s.ears)}]")
            out.append(f"  {one_line(s.statement)}")
        elif isinstance(s, TraceLinkSuggestion):
            out.append(f"{s.relation}: {one_line(s.target)} {('— ' + one_line(s.title)) if s.title else ''} "
                       f"(score {s.score:.2f})")
            out.append(f"  {one_line(s.reason)}")
        elif isinstance(s, Rebuttal):
            out.append(f"[{one_line(s.category)}] {one_line(s.statement)}")
            if s.mitigation:
                out.append(f"  mitigation: {one_line(s.mitigation)}")
        else:
            out.append(one_line(s.text))
        for c in _verified(s.citations):
            out.append(f"  cites {one_line(c.label)} (verified): \"{_quote(c, 200)}\"")
    if not result.suggestions:
        out.extend(["", "no suggestions"])
    if result.notes:
        out.append("")
        out.extend(f"note: {one_line(n)}" for n in result.notes)
    return "\n".join(out)
