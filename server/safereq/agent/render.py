"""Suggestions as text: the command line's report, and the pieces the editor's review block shares with it.

One rendering of a citation (:func:`citation_text`: label with edition, verification state, quote) and one
rule for which suggestions are shown (:func:`presentable`) serve both ``safereq derive|links|rebut`` and the
review block (:mod:`.review`), so the two give the same suggestions with the same citations. Stdlib only
(the language server uses it).
"""

from __future__ import annotations

from .suggestions import Citation, DerivedRequirement, Rebuttal, SuggestionSet, TraceLinkSuggestion

MODE_WORDS = {"offline": "offline patterns", "llm": "LLM"}


def quote(c: Citation, limit: int = 160) -> str:
    """The citation's quote on one line, cut at a word before ``limit`` characters."""
    q = " ".join(c.quote.split())
    return q if len(q) <= limit else q[: q.rfind(" ", 0, limit)] + " …"


def shown_citations(s: object) -> list[Citation]:
    """The citations shown with a suggestion, by the command line and the review block alike: the verified
    ones (an unverified citation is no citation; the notes say how many were left out)."""
    return [c for c in getattr(s, "citations", []) if c.verified]


def citation_text(c: Citation) -> str:
    """One citation with its edition and verification state, as both the command line and the editor's
    review block show it: ``cites ISO 26262-9:2018 §5.4 (verified): "…"``."""
    mark = "verified" if c.verified else f"UNVERIFIED: {c.note}" if c.note else "UNVERIFIED"
    return f'cites {c.label} ({mark}): "{quote(c, 200)}"'


def presentable(s: object) -> bool:
    """Whether a suggestion is shown at all: a rebuttal or a clause to cite stands on its verified citation."""
    if isinstance(s, Rebuttal) or (isinstance(s, TraceLinkSuggestion) and s.relation not in ("parent", "child")):
        return any(c.verified for c in s.citations)
    return True


def text_report(result: SuggestionSet) -> str:
    """Human-readable output for the command line."""
    out = [f"{result.task}{' ' + result.item_id if result.item_id else ''} — mode: {result.mode}"]
    for s in result.suggestions:
        if not presentable(s):
            continue
        out.append("")
        if isinstance(s, DerivedRequirement):
            out.append(f"{s.id}: {s.title}  [ASIL {s.asil or '-'}; derived from {', '.join(s.derived_from)}; {s.pattern or s.ears}]")
            out.append(f"  {s.statement}")
        elif isinstance(s, TraceLinkSuggestion):
            out.append(f"{s.relation}: {s.target} {('— ' + s.title) if s.title else ''} (score {s.score:.2f})")
            out.append(f"  {s.reason}")
        elif isinstance(s, Rebuttal):
            out.append(f"[{s.category}] {s.statement}")
            if s.mitigation:
                out.append(f"  mitigation: {s.mitigation}")
        else:
            out.append(s.text)
        out.extend(f"  {citation_text(c)}" for c in shown_citations(s))
    if result.notes:
        out.append("")
        out.extend(f"note: {n}" for n in result.notes)
    return "\n".join(out)
