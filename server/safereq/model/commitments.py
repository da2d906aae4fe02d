"""What a document commits to — its IDs, ASILs, links and numbers — so that a "safe" fix can be proved to
leave them alone.

A fix applied without review (``safereq check --fix``, a fix-all on save) may change wording, never an
engineering decision: an ASIL, a decomposition, a trace link, an item's ID or a limit. The fixes are
classified where they are made; this is the second line: the document is compared before and after, and a
round of fixes that changes any commitment is not written.
"""

from __future__ import annotations

import re

from .document import Document

_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*")

Commitments = tuple[tuple, ...]


def _numbers(text: str) -> tuple[str, ...]:
    return tuple(_NUMBER_RE.findall(text))


def commitments(doc: Document) -> Commitments:
    """Every item's ID, ASIL, links and numbers, and every hazardous event's ASIL, goals and numbers, in order."""
    out: list[tuple] = []
    for item in doc.items:
        asil = tuple(a.value.strip() for a in item.attributes if a.key == "asil")
        links = tuple((a.key, link.target, link.valid) for a in item.attributes for link in a.links)
        numbers = _numbers(item.title) + _numbers(item.statement.text) + tuple(
            n for a in item.attributes if not a.links for n in _numbers(a.value))
        out.append(("item", item.id, asil, links, numbers))
    for row in doc.hara_rows:
        cell = row.cells.get("asil")
        numbers = tuple(n for key, c in row.cells.items() if key != "asil" for n in _numbers(c.text))
        out.append(("hazardous event", row.id, cell.text.strip() if cell else None,
                    tuple(link.target for link in row.goal_links()), numbers))
    return tuple(out)


def changed_commitment(before: Document, after: Document) -> str | None:
    """In words, the first ID, ASIL, link or number that differs between the two parses; None if none does."""
    old, new = commitments(before), commitments(after)
    if old == new:
        return None
    if len(old) != len(new):
        return f"the items go from {len(old)} to {len(new)}"
    for a, b in zip(old, new):
        if a != b:
            what = ("its ID" if a[1] != b[1] else "its ASIL" if a[2] != b[2] else
                    "its links" if a[3] != b[3] else "a number")
            return f"{what} of {a[0]} {a[1]} would change"
    return None
