"""Where derived requirements go and how they are written there.

A derived requirement belongs with the items of its kind (TSRs in the technical safety concept, not under
the FSR they come from), so the target is the document that holds most items of that kind; when two or more
hold equally many the editor asks (:func:`choose_document` returns the tie). In the target the new items go
after their siblings (items of the kind derived from the same parent), else after the last item of the kind,
and are written in the style of those neighbours: heading level, blank lines after the heading and before
the attributes, the bullet and spelling of attribute keys and their order, and prose wrapped at the width
the document wraps its own paragraphs at (one line per paragraph when it does not wrap). Stdlib only.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from ...model.ids import ATX_HEADING_RE, kind_prefix

if TYPE_CHECKING:
    from ...model.document import Document, Item
    from ...workspace import Workspace
    from ..writing.suggestions import DerivedRequirement

_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_NOT_PROSE = re.compile(r"^\s*(?:[-*+>|#=`~<]|\d{1,9}[.)]\s|$)")
# A line that must not start a wrapped continuation: it would read as a bullet, heading, quote, table, code
# fence, ordered list item or an attribute line ("Key: value").
_RISKY_START = re.compile(r"^(?:[-*+#>|=`~<]|\d{1,9}[.)](?:\s|$)|[^\s:][^:]{0,30}:(?:\s|$))")
DEFAULT_ORDER = ("asil", "derived-from", "safe-state", "ftti", "allocated-to", "cites", "status", "rationale")


@cache
def _labels() -> dict[str, str]:
    from ...data import load_rules_yaml

    return {key: str(spec.get("label") or spec["aliases"][0]) for key, spec in
            load_rules_yaml("attributes.yaml")["attributes"].items()}


@dataclass(frozen=True, slots=True)
class Style:
    """How a document writes its items (measured from neighbours by :func:`style_of`)."""

    level: int = 2
    blank_after_heading: bool = True
    blank_before_attributes: bool = True
    bullet: str = "- "
    labels: dict[str, str] = field(default_factory=dict)  # canonical key → the key as the document spells it
    order: tuple[str, ...] = ()  # canonical keys in the document's order
    width: int | None = None  # wrap prose at this many columns; None: one line per paragraph
    indent: str = "  "  # continuation of a wrapped attribute line

    def label(self, key: str) -> str:
        return self.labels.get(key) or _labels().get(key, key)


@dataclass(frozen=True, slots=True)
class Placement:
    """The target document, the line before which to insert, and the style to write in."""

    path: str
    line: int
    style: Style
    reason: str


def kind_of(suggestions: list[DerivedRequirement]) -> str:
    """The kind (ID prefix) of the derived requirements, e.g. ``TSR``."""
    kinds = Counter(kind_prefix(s.id) for s in suggestions)
    return kinds.most_common(1)[0][0] if kinds else ""


def documents_holding(ws: Workspace, kind: str) -> list[tuple[str, int]]:
    """(path, number of items of ``kind``) for each document with any, most first (ties by path)."""
    counts = Counter(it.path for it in ws.items() if it.kind == kind)
    return sorted(counts.items(), key=lambda pc: (-pc[1], pc[0]))


def choose_document(ws: Workspace, kind: str, source_path: str) -> tuple[str | None, list[str]]:
    """(the target document, []) when it is clear, or (None, the tied candidates) when the user should choose.

    No document holds the kind yet: the source document (the items go after the source item)."""
    held = documents_holding(ws, kind)
    if not held:
        return source_path, []
    tied = [p for p, n in held if n == held[0][1]]
    return (tied[0], []) if len(tied) == 1 else (None, tied)


def subtree_end(lines: list[str], heading_line: int, level: int) -> int:
    """The line after an item's subtree: the next heading of ``level`` or higher, or the end of the document."""
    fenced = False
    for i in range(heading_line + 1, len(lines)):
        if _FENCE.match(lines[i]):
            fenced = not fenced
            continue
        m = None if fenced else ATX_HEADING_RE.match(lines[i])
        if m and len(m.group(1)) <= level:
            return i
    return len(lines)


def section_end(lines: list[str], heading_line: int) -> int:
    """The line after an item's own section (before its first sub-heading): where a review block goes."""
    return subtree_end(lines, heading_line, 6)


def place(ws: Workspace, path: str, source: Item, kind: str) -> Placement:
    """Where in ``path`` the derived items of ``kind`` from ``source`` go, and in which style."""
    doc = ws.documents[path]
    lines = doc.text.split("\n")
    kin = [it for it in doc.items if it.kind == kind]
    if kin:
        siblings = [it for it in kin if source.id in {l.target for l in it.links("derived-from")}]
        after = (siblings or kin)[-1]
        why = (f"after {after.id}, the last {kind} derived from {source.id}" if siblings
               else f"after {after.id}, the last {kind} of the document")
        return Placement(path, subtree_end(lines, after.line, after.level), style_of(doc, kin), why)
    at = subtree_end(lines, source.line, source.level) if source.path == path else len(lines)
    neighbours = [source] if source.path == path else list(doc.items[-1:])
    style = style_of(doc, neighbours)
    if source.path == path:
        style = _with_level(style, source.level)
    return Placement(path, at, style, f"after {source.id}: no document holds {kind} items yet")


def _with_level(style: Style, level: int) -> Style:
    return Style(level, style.blank_after_heading, style.blank_before_attributes, style.bullet, style.labels,
                 style.order, style.width, style.indent)


def style_of(doc: Document, neighbours: list[Item]) -> Style:
    """The style of ``neighbours`` (the last one decides what they disagree on) in ``doc``."""
    lines = doc.text.split("\n")
    width, indent = _wrapping(lines)
    if not neighbours:
        return Style(width=width, indent=indent)
    last = neighbours[-1]
    labels: dict[str, str] = {}
    order: list[str] = []
    bullet = "- "
    for item in neighbours:
        for attr in item.attributes:
            labels[attr.key] = attr.raw_key.strip()
            if attr.key not in order:
                order.append(attr.key)
    if last.attributes:
        first = last.attributes[0]
        prefix = lines[first.span.start_line][: first.span.start_col]
        bullet = prefix if not prefix.strip(" -*+") else "- "
    heading = last.line
    body_start = last.statement.span.start_line if last.statement.text else (
        last.attributes[0].span.start_line if last.attributes else heading + 1)
    blank_after = body_start > heading + 1
    blank_before = True
    if last.statement.text and last.attributes:
        blank_before = last.attributes[0].span.start_line > last.statement.last_line + 1
    return Style(last.level, blank_after, blank_before, bullet, labels, tuple(order), width, indent)


def _wrapping(lines: list[str]) -> tuple[int | None, str]:
    """The width a document wraps its paragraphs at (the longest line that another line of the same
    paragraph follows), or None; and the indentation of its wrapped list lines."""
    widths: list[int] = []
    indents: Counter[str] = Counter()
    fenced = False
    for i, line in enumerate(lines[:-1]):
        if _FENCE.match(line):
            fenced = not fenced
        nxt = lines[i + 1]
        if fenced or not line.strip() or not nxt.strip() or ATX_HEADING_RE.match(nxt):
            continue
        if re.match(r"^\s*[-*+>|#]", nxt) or re.match(r"^\s*\d{1,9}[.)]\s", nxt):
            continue
        if not _NOT_PROSE.match(line) or re.match(r"^\s*[-*+]\s", line) or line[:1] == " ":
            widths.append(len(line.rstrip()))
            if re.match(r"^\s*[-*+]\s", line) or line[:1] == " ":
                indents[nxt[: len(nxt) - len(nxt.lstrip())]] += 1
    width = max(widths) if widths else None
    indent = indents.most_common(1)[0][0] if indents else "  "
    return width, indent


def wrap(text: str, width: int | None, first: str = "", rest: str = "") -> list[str]:
    """``first + text`` as lines of at most ``width`` columns (continuations start with ``rest``), never
    starting a continuation with something that would read as Markdown structure or an attribute."""
    words = _units(text.split())
    if width is None or not words:
        return [first + " ".join(words)]
    out: list[str] = []
    line = first + words[0]
    for word in words[1:]:
        if len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            out.append(line)
            line = rest + word
    out.append(line)
    merged = [out[0]]
    for cont in out[1:]:
        if _RISKY_START.match(cont[len(rest):]):
            merged[-1] += " " + cont[len(rest):]
        else:
            merged.append(cont)
    return merged


_GLUE_AFTER = frozenset({"ISO", "ISO/PAS", "IEC", "SAE", "UN", "UNECE", "clause", "Clause", "Table", "Part"})


def _units(words: list[str]) -> list[str]:
    """Words joined where a line break would split a clause reference ("ISO 26262-3:2018 §7.4.2")."""
    out: list[str] = []
    for word in words:
        if out and (out[-1].split(" ")[-1] in _GLUE_AFTER or word.startswith("§")):
            out[-1] += " " + word
        else:
            out.append(word)
    return out


def item_lines(s: DerivedRequirement, style: Style, cites: list[str], rationale: str) -> list[str]:
    """The derived requirement as the document would write it (no trailing blank line)."""
    from ..trust.sanitise import quote_line as one  # one line, no escapes or controls, whoever wrote the text

    out = [f"{'#' * style.level} {one(s.id)}: {one(s.title)}"]
    if style.blank_after_heading:
        out.append("")
    out.extend(wrap(one(s.statement), style.width))
    if style.blank_before_attributes:
        out.append("")
    values = {"asil": one(s.asil), "derived-from": ", ".join(one(d) for d in s.derived_from),
              "safe-state": one(s.safe_state), "ftti": one(s.ftti), "allocated-to": one(s.allocated_to),
              "cites": ", ".join(cites), "status": "proposed", "rationale": one(rationale)}
    keys = [k for k in style.order if k in values] + [k for k in DEFAULT_ORDER if k not in style.order]
    for key in keys:
        if values.get(key):
            out.extend(wrap(values[key], style.width, f"{style.bullet}{style.label(key)}: ", style.indent))
    return out
