"""Accepted deviations: ``Deviation: RULE "words": reason`` lines that accept a finding of their item.

A deviation is written in the document, next to the requirement it is about, so that it is reviewed with
the text and versioned with it (docs/format.md#accepted-deviations). The engine applies the deviations of
a document after every rule has reported on it: a finding of the item's rule (about the quoted words, when
some are given) is *accepted*: it leaves the findings and is kept, with its deviation, for the reports
(SARIF ``suppressions``, the deviation list of ``safereq report``). A deviation without a reason
(``deviation/no-reason``) or one that accepts nothing (``deviation/unmatched``) is a finding itself.

What a document's deviations accept depends only on the document and its own findings, so applying them
per document keeps an incremental check equal to a fresh one (see docs/dev/architecture.md).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import NamedTuple

from ...model.document import Attribute, Document, Item
from ...model.ranges import Span
from ..findings import Edit, Finding, Severity

KEY = "deviation"
NO_REASON = "deviation/no-reason"
UNMATCHED = "deviation/unmatched"

# RULE, then optionally the words in straight, curly or corner quotes, then optionally ":" and the reason.
_VALUE = re.compile(
    r"""\s*(?P<rule>[A-Za-z0-9_-]+/[A-Za-z0-9_-]+)\s*"""
    r"""(?:(?:"(?P<w1>[^"]*)"|“(?P<w2>[^”]*)”|「(?P<w3>[^」]*)」|'(?P<w4>[^']*)')\s*)?"""
    r"""(?:[:：]\s*(?P<reason>.*))?\s*$""",
    re.DOTALL,
)
MAX_WORDS = 80  # words longer than this are not quoted by the quick fix: the rule alone is written


class Deviation(NamedTuple):
    """One ``Deviation:`` line of an item; ``rule`` is "" when the line names no rule that can be read."""

    path: str
    item_id: str
    rule: str
    words: str | None
    reason: str
    span: Span  # the whole attribute line(s)


class Accepted(NamedTuple):
    """A finding that a deviation accepted."""

    finding: Finding
    deviation: Deviation


def read(item: Item, attr: Attribute) -> Deviation:
    """The deviation an attribute of ``item`` states."""
    m = _VALUE.fullmatch(attr.value)
    if m is None:
        return Deviation(item.path, item.id, "", None, attr.value.strip(), attr.span)
    words = next((w for w in m.group("w1", "w2", "w3", "w4") if w is not None), None)
    reason = " ".join((m.group("reason") or "").split())
    return Deviation(item.path, item.id, m.group("rule"), words.strip() or None if words else None, reason, attr.span)


def deviations(doc: Document) -> list[tuple[Item, Deviation]]:
    """Every deviation of ``doc`` with its item, in source order."""
    return [(item, read(item, attr)) for item in doc.items for attr in item.attributes if attr.key == KEY]


def apply(doc: Document | None, findings: list[Finding], severities: Mapping[str, Severity | None],
          rules: frozenset[str] | Mapping[str, object]) -> tuple[list[Finding], list[Accepted]]:
    """``findings`` of ``doc`` (sorted) without those its deviations accept, plus the deviations' own
    findings (sorted in); and the accepted findings. ``rules``: the rule IDs a deviation may name."""
    found = deviations(doc) if doc is not None else []
    if not found:
        return findings, []
    by_rule: dict[str, list[int]] = {}
    for k, f in enumerate(findings):
        by_rule.setdefault(f.rule, []).append(k)
    taken: dict[int, Deviation] = {}
    extra: list[Finding] = []
    for item, dev in found:
        matched = False
        for k in by_rule.get(dev.rule, ()):
            finding = findings[k]
            if _belongs(doc, item, finding) and _about(doc, finding, dev.words):
                matched = True
                taken.setdefault(k, dev)
        extra.extend(_own_findings(dev, matched, severities, rules))
    kept = [f for k, f in enumerate(findings) if k not in taken]
    if extra:
        kept = sorted(kept + extra, key=Finding.sort_key)
    return kept, [Accepted(findings[k], dev) for k, dev in sorted(taken.items())]


def _belongs(doc: Document, item: Item, finding: Finding) -> bool:
    """Whether ``finding`` is about ``item`` itself (not a sub-item, which has deviations of its own)."""
    line = finding.span.start_line
    return item.line <= line <= item.end_line and doc.item_at(line) is item


def _about(doc: Document, finding: Finding, words: str | None) -> bool:
    """Whether ``finding`` is about ``words`` (always, when there are none): they are in the text it marks
    or in its message, compared without regard to case."""
    if words is None:
        return True
    want = words.casefold()
    s = finding.span
    text = doc.line(s.start_line)
    marked = text[s.start_col:s.end_col] if s.end_line == s.start_line else text[s.start_col:]
    return want in marked.casefold() or want in finding.message.casefold()


def _own_findings(dev: Deviation, matched: bool, severities: Mapping[str, Severity | None],
                  rules: frozenset[str] | Mapping[str, object]) -> list[Finding]:
    out = []
    if not dev.rule or dev.rule not in rules:
        problem = (f"deviation names no rule: '{dev.rule}' is not a rule ID (see safereq rules)" if dev.rule else
                   'deviation cannot be read: write "Deviation: RULE \\"words\\": reason"')
        _add(out, UNMATCHED, problem, dev, severities)
        return out
    if not matched:
        about = f" about '{dev.words}'" if dev.words else ""
        _add(out, UNMATCHED, f"no {dev.rule} finding{about} in {dev.item_id} to accept: remove the deviation",
             dev, severities)
    if not dev.reason:
        _add(out, NO_REASON, f"deviation from {dev.rule} in {dev.item_id} gives no reason: write it after a colon",
             dev, severities)
    return out


def _add(out: list[Finding], rule: str, message: str, dev: Deviation,
         severities: Mapping[str, Severity | None]) -> None:
    severity = severities.get(rule)
    if severity is not None:
        out.append(Finding(rule, severity, message, dev.path, dev.span))


def clean_reason(text: str) -> str:
    """A reason as one line of plain text: control characters and line breaks become spaces."""
    return " ".join("".join(" " if unicodedata.category(c)[0] == "C" else c for c in text).split())


def accept_edit(doc: Document, finding: Finding, reason: str) -> Edit:
    """The edit that writes a deviation accepting ``finding`` with ``reason`` into its item: a new attribute
    line after the item's last attribute (in the same list style), else after its statement or heading.

    Raises ValueError when the finding is not about an item, or the reason is empty once cleaned.
    """
    reason = clean_reason(reason)
    if not reason:
        raise ValueError("a deviation needs a reason")
    item = doc.item_at(finding.span.start_line)
    if item is None:
        raise ValueError("the finding is not about an item, so it cannot be accepted in the document")
    words = _quoted(doc, finding)
    value = f"{finding.rule} \"{words}\": {reason}" if words else f"{finding.rule}: {reason}"
    if item.attributes:
        last = item.attributes[-1]
        first_line = doc.line(last.start_line)
        m = re.match(r"\s*(?:[-*+]\s+)?", first_line)
        prefix = m.group(0) if m else ""
        text, line = f"{prefix}Deviation: {value}\n", last.end_line + 1
    else:
        end = item.statement.last_line if item.statement else item.line
        text, line = f"\n- Deviation: {value}\n", end + 1
    newlines = doc.text.count("\n")
    if line > newlines:  # after the last line, which has no line break: start one
        last_text = doc.line(newlines)
        return Edit(doc.path, Span(newlines, len(last_text), newlines, len(last_text)), "\n" + text.rstrip("\n"))
    return Edit(doc.path, Span(line, 0, line, 0), text)


def _quoted(doc: Document, finding: Finding) -> str | None:
    """The words a finding marks, when they are on one line, short and can be quoted."""
    s = finding.span
    if s.start_line != s.end_line or s.end_col <= s.start_col:
        return None
    words = doc.line(s.start_line)[s.start_col:s.end_col].strip()
    if not words or len(words) > MAX_WORDS or any(c in words for c in "\"“”「」") or "\n" in words:
        return None
    return words
