"""safereq's own checks, run on a suggestion before it is offered.

A derived requirement is written into a small document as an item of the kind it will have (with its ASIL,
its "Derived from" link and a copy of its parent's heading and ASIL, so that the ASIL rules can see the
parent), and the real check engine checks it, as ``safereq check`` would. EARS shape is checked too (the
rule is off by default, but the assistant claims a shape for every suggestion). A suggestion with any
finding is rewritten by the caller or dropped; nothing the checks flag (a vague word copied from the
parent, a second modal verb, a placeholder) is ever offered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ...checks import Checker, Config
from ...checks.findings import Finding
from ...model.document import Document
from ...workspace import Workspace

PATH = "<suggestion>"
# Rules about a single requirement's text and ASIL; trace rules about the rest of the workspace do not apply
# to a one-document copy.
FAMILIES = ("modal/", "wording/", "ears/", "asil/")
_CONFIG = Config(rules={"ears/no-pattern": "on"})


@dataclass(frozen=True, slots=True)
class Draft:
    """A candidate requirement: its ID, title, statement and ASIL."""

    id: str
    title: str
    statement: str
    asil: str


@lru_cache(maxsize=1)
def _checker() -> Checker:
    return Checker(_CONFIG)


def document_text(drafts: Sequence[Draft], parent_id: str, parent_title: str, parent_asil: str) -> str:
    """The drafts as one Markdown document, after a copy of their parent (heading and ASIL only)."""
    lines = [f"# Suggestions for {parent_id}", "", f"## {parent_id}: {parent_title or parent_id}", ""]
    if parent_asil:
        lines += [f"- ASIL: {parent_asil}", ""]
    for d in drafts:
        lines += [f"## {d.id}: {d.title}", d.statement, ""]
        if d.asil:
            lines.append(f"- ASIL: {d.asil}")
        lines += [f"- Derived from: {parent_id}", ""]
    return "\n".join(lines)


def check_suggestion(text: str, families: tuple[str, ...] = FAMILIES) -> tuple[Document, list[Finding]]:
    """A suggestion written out as the Markdown document ``text``, parsed and checked as ``safereq check``
    would, and the findings of the rules in ``families`` (prefixes such as ``"modal/"``)."""
    ws = Workspace()
    doc = ws.update(PATH, text)
    return doc, [f for f in _checker().check(ws) if f.rule.startswith(families)]


def findings(drafts: Sequence[Draft], parent_id: str, parent_title: str = "", parent_asil: str = "") -> dict[str, list[str]]:
    """For each draft ID, the findings of safereq's checks on it (rule: message); empty lists for clean ones."""
    doc, found = check_suggestion(document_text(drafts, parent_id, parent_title, parent_asil))
    spans = {it.id: (it.line, it.end_line) for it in doc.items if it.id != parent_id}
    out: dict[str, list[str]] = {d.id: [] for d in drafts}
    for f in found:
        for item_id, (first, last) in spans.items():
            if first <= f.span.start_line <= last:
                out.setdefault(item_id, []).append(f"{f.rule}: {f.message}")
    return out
