"""Suggestions as text: the command line's report, and the pieces the editor's review block shares with it.

One rendering of a citation (:func:`citation_text`: label with edition, verification state, quote) and one
rule for which suggestions are shown (:func:`presentable`) serve both ``safereq derive|links|rebut`` and the
review block (:mod:`.review`), so the two give the same suggestions with the same citations. Only verified
citations are printed or written, and every text field goes through :func:`.sanitise.one_line` (controls and
terminal escapes out, one line) whoever wrote it, so no text can add a line, an attribute or a heading of its
own. Stdlib only (the language server uses it).
"""

from __future__ import annotations

from ..trust.sanitise import quote_line as one_line
from ..writing.suggestions import Citation, DerivedRequirement, Rebuttal, SuggestionSet, TraceLinkSuggestion

MODE_WORDS = {"offline": "offline patterns", "llm": "LLM"}


def quote(c: Citation, limit: int = 160) -> str:
    """The citation's quote on one line (sanitised, double quotes turned single), cut at a word before ``limit``."""
    q = one_line(c.quote).replace('"', "'")
    return q if len(q) <= limit else q[: q.rfind(" ", 0, limit)] + " …"


def shown_citations(s: object) -> list[Citation]:
    """The citations shown with a suggestion, by the command line and the review block alike: the verified
    ones and the clause summaries (an unverified citation is no citation; the notes say how many were left out)."""
    return [c for c in getattr(s, "citations", []) if c.stands]


def citation_text(c: Citation) -> str:
    """One citation with its edition and verification state, as both the command line and the editor's
    review block show it: ``cites ISO 26262-9:2018 §5.4 (verified): "…"`` for a quote found in the indexed
    text, ``cites ISO 26262-9:2018 §5.4 Title (summary by safereq, not the standard's words): …`` for a clause
    known only from the shipped catalogue: never in quotation marks, so it cannot pass for the standard's wording."""
    if c.summary and not c.verified:
        title = f" {one_line(c.title)}" if c.title else ""
        return f"cites {one_line(c.label)}{title} (summary by safereq, not the standard's words): {quote(c, 600)}"
    mark = "verified" if c.verified else f"UNVERIFIED: {one_line(c.note)}" if c.note else "UNVERIFIED"
    return f'cites {one_line(c.label)} ({mark}): "{quote(c, 200)}"'


def presentable(s: object) -> bool:
    """Whether a suggestion is shown at all: a clause to cite stands on its citation; a rebuttal that claims
    citations of which none stands is not shown; an offline rebuttal without any stands on its own words (a
    citation is attached only where a clause is about it)."""
    if isinstance(s, TraceLinkSuggestion) and s.relation not in ("parent", "child"):
        return any(c.stands for c in s.citations)
    if isinstance(s, Rebuttal) and s.citations:
        return any(c.stands for c in s.citations)
    return True


def text_report(result: SuggestionSet) -> str:
    """Human-readable output for the command line: every field on one line, without terminal escapes; only
    verified citations are printed as citations."""
    mode = result.mode + (" (fallback: the task was meant for the model)" if result.fallback else "")
    out = [f"{result.task}{' ' + one_line(result.item_id) if result.item_id else ''} — mode: {mode}"]
    for s in result.suggestions:
        if not presentable(s):
            continue
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
        out.extend(f"  {citation_text(c)}" for c in shown_citations(s))
    if not any(presentable(s) for s in result.suggestions):
        out.extend(["", "no suggestions"])
    if result.notes:
        out.append("")
        out.extend(f"note: {one_line(n)}" for n in result.notes)
    return "\n".join(out)
