"""What the assistant hands back: suggestions with citations, and the mode that made them.

Plain dataclasses with a ``to_json`` each, shared by the CLI (``--json``), the worker protocol and the
language server's edits. A citation records whether it was verified against the indexed clause text; the
adapters decide how to show an unverified one (marked in JSON and text output, left out of editor edits).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MODE_OFFLINE = "offline"
MODE_LLM = "llm"


@dataclass(slots=True)
class Citation:
    """A clause and a span of its text: ``verified`` once :mod:`.verify` found the span in text the user indexed;
    ``summary`` when the clause's only text is safereq's own summary of it (the shipped clause catalogue),
    which is shown as a summary, never as a quotation of the standard."""

    document: str
    clause: str
    quote: str
    verified: bool = False
    title: str = ""
    year: str = ""
    score: float = 0.0
    note: str = ""
    summary: bool = False

    @property
    def stands(self) -> bool:
        """Whether the citation may be shown: its span was found in indexed text, or in the clause summary."""
        return self.verified or self.summary

    @property
    def label(self) -> str:
        """"ISO 26262-9:2018 §5.4.10" style, for inserted text and messages."""
        from ...knowledge.types import cite

        return cite(self.document, self.year, self.clause)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"document": self.document, "clause": self.clause,
                               "summary" if self.summary else "quote": self.quote, "verified": self.verified}
        if self.title:
            out["title"] = self.title
        if self.year:
            out["year"] = self.year
        if self.note:
            out["note"] = self.note
        return out


@dataclass(slots=True)
class DerivedRequirement:
    """A derived requirement: one *shall*, an EARS shape, an ASIL, its parent and citations."""

    id: str
    title: str
    statement: str
    asil: str
    derived_from: list[str]
    citations: list[Citation] = field(default_factory=list)
    pattern: str = ""
    ears: str = ""
    rationale: str = ""
    safe_state: str = ""
    ftti: str = ""
    allocated_to: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "title": self.title, "statement": self.statement, "asil": self.asil,
            "derived_from": list(self.derived_from), "citations": [c.to_json() for c in self.citations],
        }
        for key in ("pattern", "ears", "rationale", "safe_state", "ftti", "allocated_to"):
            value = getattr(self, key)
            if value:
                out[key] = value
        return out


@dataclass(slots=True)
class TraceLinkSuggestion:
    """A likely link: ``relation`` is parent, child or cites; ``target`` an item ID or a clause citation."""

    relation: str
    target: str
    reason: str
    score: float
    title: str = ""
    citations: list[Citation] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"relation": self.relation, "target": self.target, "title": self.title, "reason": self.reason,
                "score": round(self.score, 3), "citations": [c.to_json() for c in self.citations]}


@dataclass(slots=True)
class Rebuttal:
    """A defeater: a way the claim or requirement could fail to hold, in one of the pattern categories."""

    category: str
    statement: str
    target: str
    citations: list[Citation] = field(default_factory=list)
    pattern: str = ""
    mitigation: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"category": self.category, "statement": self.statement, "target": self.target,
                               "citations": [c.to_json() for c in self.citations]}
        if self.pattern:
            out["pattern"] = self.pattern
        if self.mitigation:
            out["mitigation"] = self.mitigation
        return out


@dataclass(slots=True)
class Answer:
    """A free question's answer (``safereq ask``): prose plus the citations it rests on."""

    text: str
    citations: list[Citation] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"statement": self.text, "citations": [c.to_json() for c in self.citations]}


Suggestion = DerivedRequirement | TraceLinkSuggestion | Rebuttal | Answer


@dataclass(slots=True)
class SuggestionSet:
    """The result of one task: who made it (``mode``), for which item, the suggestions and notes.

    ``mode`` is the mode that made every suggestion ("llm" or "offline"); ``fallback`` says why a task meant
    for the model ran offline ("" when it did not). ``notes`` says what the user should know (unverified
    citations left out, suggestions dropped and why); ``trace`` lists the agent's steps for ``--verbose``.
    Every citation in ``suggestions`` is verified.
    """

    task: str
    mode: str
    item_id: str
    suggestions: list[Any] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)
    fallback: str = ""

    def to_json(self, *, with_trace: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "mode": self.mode, "item": self.item_id,
                               "suggestions": [s.to_json() for s in self.suggestions], "notes": list(self.notes)}
        if self.fallback:
            out["fallback"] = self.fallback
        if self.tokens:
            out["tokens"] = dict(self.tokens)
        if with_trace:
            out["trace"] = list(self.trace)
        return out

    def citations(self) -> list[Citation]:
        return [c for s in self.suggestions for c in getattr(s, "citations", [])]


def from_json(data: dict[str, Any]) -> SuggestionSet:
    """Rebuild a set sent over the worker protocol (the language server turns it into edits)."""
    task = data.get("task", "")
    sugg: list[Any] = []
    for raw in data.get("suggestions", []):
        cites = [Citation(c["document"], c["clause"], c.get("quote", c.get("summary", "")), bool(c.get("verified")),
                          c.get("title", ""), c.get("year", ""), note=c.get("note", ""), summary="summary" in c)
                 for c in raw.get("citations", [])]
        if task == "derive":
            sugg.append(DerivedRequirement(
                raw["id"], raw.get("title", ""), raw["statement"], raw.get("asil", ""), list(raw.get("derived_from", [])),
                cites, raw.get("pattern", ""), raw.get("ears", ""), raw.get("rationale", ""), raw.get("safe_state", ""),
                raw.get("ftti", ""), raw.get("allocated_to", "")))
        elif task == "links":
            sugg.append(TraceLinkSuggestion(raw["relation"], raw["target"], raw.get("reason", ""),
                                            float(raw.get("score", 0.0)), raw.get("title", ""), cites))
        elif task == "rebut":
            sugg.append(Rebuttal(raw["category"], raw["statement"], raw.get("target", ""), cites,
                                 raw.get("pattern", ""), raw.get("mitigation", "")))
        else:
            sugg.append(Answer(raw.get("statement", ""), cites))
    return SuggestionSet(task, data.get("mode", ""), data.get("item", ""), sugg, list(data.get("notes", [])),
                         list(data.get("trace", [])), dict(data.get("tokens", {})), str(data.get("fallback", "")))
