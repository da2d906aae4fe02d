"""The review block: suggestions proposed in the document, accepted or rejected one at a time.

The assistant never writes a suggestion into an item. It writes a block quote (block quotes are no item's
statement, so the checks ignore it) headed ``> **safereq review: trace links for FSR-1** …`` with one entry
per suggestion, each followed by its citations as ``safereq derive|links|rebut`` prints them. Derived
requirements are entries written exactly as they will appear (heading, statement, attributes in the target
document's style, see :mod:`.placement`); trace links and rebuttals are one bullet each.

:func:`resolve` turns "accept / reject the entry at this line (or every entry, at the header)" into edits of
the current text: an accepted derived requirement is un-quoted in place of the block, an accepted parent or
clause is merged into the item's ``Derived from`` / ``Cites`` line (a new line when there is none; no
duplicates), an accepted child gets the item in its own ``Derived from``, an accepted rebuttal becomes a note
under the item; rejected entries just disappear, and the block goes when its last entry does. Only verified
citations are ever written into an attribute. Stdlib only (the language server uses it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...checks.findings import Edit
from ...model.ranges import Span
from .placement import Style, item_lines, wrap
from .render import MODE_WORDS, citation_text, presentable, quote, shown_citations
from ..trust.sanitise import quote_line
from ..writing.suggestions import DerivedRequirement, Rebuttal, SuggestionSet, TraceLinkSuggestion

if TYPE_CHECKING:
    from ...model.document import Item
    from ...workspace import Workspace

WHAT = {"derive": "derived requirements from", "links": "trace links for", "rebut": "rebuttals for"}
_TASK_OF = {v: k for k, v in WHAT.items()}
HEADER_RE = re.compile(r"^> \*\*safereq review: (derived requirements from|trace links for|rebuttals for) ([^*\s]+)\*\*")
_DERIVED_START = re.compile(r"^> {0,3}#{1,6} ")
_BULLET_START = re.compile(r"^> - ")
_CITE_LINE = re.compile(r"^\s*cites .+ \((?:verified|UNVERIFIED[^)]*|summary by safereq, not the standard's words)\): ")
_LINK_ENTRY = re.compile(r"^- (Derived from|Child|Cites): `([^`]+)`")
_REBUTTAL_ENTRY = re.compile(r"^- \*([^*]+)\*: (.*)$")
_PROPOSED = re.compile(r"— \d+ suggestions? proposed")
_LABEL = {"parent": "Derived from", "child": "Child", "cites": "Cites"}


# -- proposing ---------------------------------------------------------------------------------------------
def _quoted(lines: list[str]) -> list[str]:
    return [f"> {line}" if line else ">" for line in lines]


def header(task: str, item_id: str, count: int, mode: str, where: str = "") -> str:
    noun = "suggestion" if count == 1 else "suggestions"
    return (f"> **safereq review: {WHAT[task]} {item_id}** — {count} {noun} proposed "
            f"({MODE_WORDS.get(mode, mode)}){where}. Accept or reject each one; nothing is in the item until "
            "you accept it.")


def derived_entry(s: DerivedRequirement, style: Style, mode: str) -> list[str]:
    """The entry of one derived requirement: the item as it will be written, then its citations."""
    verified = [c for c in s.citations if c.stands]
    cites = list(dict.fromkeys(_one(c.label) for c in verified))
    evidence = (f" {verified[0].label} (summary): {quote(verified[0])}" if verified and verified[0].summary
                else f' {verified[0].label}: "{quote(verified[0])}"' if verified else "")
    rationale = f"suggested by safereq ({MODE_WORDS.get(mode, mode)}); {_one(s.rationale or s.pattern)}.{evidence}"
    lines = item_lines(s, style, cites, rationale)
    if verified:
        lines += ["", *(citation_text(c) for c in shown_citations(s))]
    return lines


def _one(text: str) -> str:
    """A field on one line without escapes or controls, so that no text can add an entry, a citation line or
    an attribute of its own (model text was cleaned before, by agent.trust.admit; this holds whoever wrote it)."""
    return quote_line(str(text))


def bullet_entry(s: TraceLinkSuggestion | Rebuttal) -> list[str]:
    """The entry of one trace link or rebuttal: a bullet, then its citations indented under it."""
    if isinstance(s, TraceLinkSuggestion):
        title = f" — {_one(s.title)}" if s.title else ""
        target = _one(s.target).replace("`", "'")
        first = f"- {_LABEL.get(s.relation, s.relation)}: `{target}`{title} (score {s.score:.2f}): {_one(s.reason)}"
    else:
        mitigation = f" Mitigation: {_one(s.mitigation)}" if s.mitigation else ""
        first = f"- *{_one(s.category).replace('*', '')}*: {_one(s.statement)}{mitigation}"
    return [first, *(f"  {citation_text(c)}" for c in shown_citations(s))]


def propose(result: SuggestionSet, style: Style | None = None, where: str = "") -> tuple[str, int]:
    """The review block for ``result`` (text ending with a blank line) and the number of entries; ("", 0)
    when nothing is worth presenting. ``style`` is the target document's (derive only)."""
    suggestions = [s for s in result.suggestions if presentable(s)]
    entries = []
    for s in suggestions:
        if isinstance(s, DerivedRequirement):
            entries.append(derived_entry(s, style or Style(), result.mode))
        elif isinstance(s, (TraceLinkSuggestion, Rebuttal)):
            entries.append(bullet_entry(s))
    if not entries:
        return "", 0
    lines = [header(result.task, result.item_id, len(entries), result.mode, where), ">"]
    for i, entry in enumerate(entries):
        if i:
            lines.append(">")
        lines.extend(_quoted(entry))
    return "\n".join(lines) + "\n\n", len(entries)


# -- reading -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Entry:
    start: int
    end: int  # exclusive, without the trailing ">" separator lines
    lines: tuple[str, ...]  # un-quoted

    @property
    def first(self) -> str:
        return self.lines[0] if self.lines else ""


@dataclass(frozen=True, slots=True)
class Block:
    task: str
    item_id: str
    start: int  # the header line
    end: int  # exclusive: the first line after the quote
    preamble: tuple[str, ...]  # quoted lines from the header to the first entry
    entries: tuple[Entry, ...] = field(default_factory=tuple)

    def entry_at(self, line: int) -> Entry | None:
        return next((e for e in self.entries if e.start <= line < max(e.end, e.start + 1)), None)


def _unquote(line: str) -> str:
    return line[2:] if line.startswith("> ") else line[1:]


def blocks(lines: list[str]) -> list[Block]:
    """The review blocks of a document (cheap: only lines starting with the header are looked at closely)."""
    out = []
    i, n = 0, len(lines)
    while i < n:
        m = HEADER_RE.match(lines[i]) if lines[i].startswith("> **safereq review: ") else None
        if m is None:
            i += 1
            continue
        task, item_id = _TASK_OF[m.group(1)], m.group(2)
        end = i + 1
        while end < n and lines[end].startswith(">") and not HEADER_RE.match(lines[end]):
            end += 1
        start_re = _DERIVED_START if task == "derive" else _BULLET_START
        starts = [j for j in range(i + 1, end) if start_re.match(lines[j])]
        entries = []
        for k, s in enumerate(starts):
            e = starts[k + 1] if k + 1 < len(starts) else end
            while e > s + 1 and not _unquote(lines[e - 1]).strip():
                e -= 1
            entries.append(Entry(s, e, tuple(_unquote(x) for x in lines[s:e])))
        preamble = tuple(lines[i:starts[0]] if starts else lines[i:end])
        while len(preamble) > 1 and not _unquote(preamble[-1]).strip():
            preamble = preamble[:-1]
        out.append(Block(task, item_id, i, end, preamble, tuple(entries)))
        i = end
    return out


def block_at(lines: list[str], line: int) -> Block | None:
    return next((b for b in blocks(lines) if b.start <= line < b.end), None)


# -- resolving ---------------------------------------------------------------------------------------------
@dataclass(slots=True)
class Outcome:
    """The edits that carry out a decision and what to tell the user."""

    edits: list[Edit]
    message: str
    accepted: int = 0
    rejected: int = 0
    left: int = 0


class ReviewError(ValueError):
    """The line holds no suggestion, or the item the block is about is gone."""


def resolve(ws: Workspace, path: str, line: int, accept: bool) -> Outcome:
    """Accept or reject the entry at ``line`` of ``path`` — every entry when ``line`` is the block's header —
    as edits of the workspace's current text."""
    lines = ws.documents[path].text.split("\n")
    block = block_at(lines, line)
    if block is None:
        raise ReviewError(f"line {line + 1} is not inside a safereq review block")
    if line == block.start:
        chosen = list(block.entries)
    else:
        entry = block.entry_at(line)
        if entry is None:
            raise ReviewError(f"line {line + 1} is not a suggestion of the review block")
        chosen = [entry]
    kept = [e for e in block.entries if e not in chosen]
    item = _item(ws, block.item_id, path)
    edits: list[Edit] = []
    done: list[str] = []
    accepted_items: list[str] = []
    if accept:
        if block.task == "derive":
            for e in chosen:
                accepted_items += [*_item_part(e.lines), ""]
            done.append(f"{_count(len(chosen), 'derived requirement')} written into the document")
        elif block.task == "links":
            done += _accept_links(ws, item, chosen, edits)
        else:
            done += _accept_rebuttals(ws, item, chosen, edits)
    edits.append(_rewrite(path, lines, block, kept, accepted_items))
    verb = "accepted" if accept else "rejected"
    left = f"{len(kept)} left for review" if kept else "the review block is closed"
    details = f" ({'; '.join(done)})" if done else ""
    message = f"{block.item_id}: {_count(len(chosen), 'suggestion')} {verb}{details}; {left}."
    return Outcome(edits, message, len(chosen) if accept else 0, 0 if accept else len(chosen), len(kept))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _item(ws: Workspace, item_id: str, path: str) -> Item | None:
    defs = ws.definitions(item_id)
    return next((d for d in defs if d.path == path), defs[0] if defs else None)


def _item_part(entry_lines: tuple[str, ...]) -> list[str]:
    """A derived entry without its citation lines and trailing blank lines: what is written on accept."""
    out = [x for x in entry_lines if not _CITE_LINE.match(x)]
    while out and not out[-1].strip():
        out.pop()
    return out


def _rewrite(path: str, lines: list[str], block: Block, kept: list[Entry], before: list[str]) -> Edit:
    """One edit replacing the block with ``before`` (accepted items) and what is left of the block."""
    new: list[str] = list(before)
    if kept:
        noun = "suggestion" if len(kept) == 1 else "suggestions"
        head = _PROPOSED.sub(f"— {len(kept)} {noun} proposed", block.preamble[0], count=1)
        new += [head, *block.preamble[1:], ">"]
        for i, e in enumerate(kept):
            if i:
                new.append(">")
            new.extend(lines[e.start:e.end])
    end = block.end
    if not kept and end < len(lines) - 1 and not lines[end].strip():
        end += 1  # the blank line that separated the block from what follows
    elif kept and new and new[-1] == "":
        new.pop()
    if end >= len(lines):  # the block ends the document without a final newline
        last = len(lines) - 1
        text = "\n".join(new)
        return Edit(path, Span(block.start, 0, last, len(lines[last])), text.rstrip("\n") if not kept else text)
    return Edit(path, Span(block.start, 0, end, 0), "".join(f"{x}\n" for x in new))


def _norm(value: str) -> str:
    return " ".join(value.split()).casefold()


def merge_attribute(ws: Workspace, item: Item, key: str, values: list[str]) -> tuple[Edit | None, list[str]]:
    """An edit adding ``values`` to the item's ``key`` attribute (a new attribute line when it has none),
    leaving out those already there; and the values added."""
    attr = item.attribute(key)
    lines = ws.documents[item.path].text.split("\n")
    if attr is not None:
        existing = {_norm(l.target) for l in attr.links} if attr.links else {_norm(v) for v in attr.value.split(",")}
        new = [v for v in dict.fromkeys(values) if _norm(v) not in existing]
        if not new:
            return None, []
        end = attr.value_span
        sep = ", " if attr.value.strip() else ""
        return Edit(item.path, Span(end.end_line, end.end_col, end.end_line, end.end_col), sep + ", ".join(new)), new
    new = list(dict.fromkeys(values))
    label = Style().label(key)
    if item.attributes:
        first = item.attributes[0]
        bullet = lines[first.span.start_line][: first.span.start_col]
        bullet = bullet if not bullet.strip(" -*+") else "- "
        last = max(a.span.end_line for a in item.attributes)
        return Edit(item.path, Span(last + 1, 0, last + 1, 0), f"{bullet}{label}: {', '.join(new)}\n"), new
    at = item.statement.last_line if item.statement.text else item.line
    return Edit(item.path, Span(at, len(lines[at]), at, len(lines[at])), f"\n\n- {label}: {', '.join(new)}"), new


def _accept_links(ws: Workspace, item: Item | None, chosen: list[Entry], edits: list[Edit]) -> list[str]:
    if item is None:
        raise ReviewError("the item this review block is about is no longer defined")
    parents, cites, done = [], [], []
    for e in chosen:
        m = _LINK_ENTRY.match(e.first)
        if m is None:
            raise ReviewError(f"cannot read the suggestion {e.first[:60]!r}")
        relation, target = m.groups()
        if relation == "Derived from":
            parents.append(target)
        elif relation == "Cites":
            if not any("(verified):" in c or "(summary by safereq" in c for c in e.lines[1:]):
                raise ReviewError(f"{target} has no verified citation, so it is not written into the item")
            cites.append(target)
        else:
            child = _item(ws, target, item.path)
            if child is None:
                raise ReviewError(f"{target} is no longer defined")
            edit, added = merge_attribute(ws, child, "derived-from", [item.id])
            if edit:
                edits.append(edit)
            done.append(f"{item.id} added to {target}'s Derived from" if added else f"{target} already derives from {item.id}")
    for key, values, label in (("derived-from", parents, "Derived from"), ("cites", cites, "Cites")):
        if not values:
            continue
        edit, added = merge_attribute(ws, item, key, values)
        if edit:
            edits.append(edit)
        if added:
            done.append(f"{', '.join(added)} added to {item.id}'s {label}")
        skipped = [v for v in values if v not in added]
        if skipped:
            done.append(f"{', '.join(skipped)} already in {item.id}'s {label}")
    return done


def _accept_rebuttals(ws: Workspace, item: Item | None, chosen: list[Entry], edits: list[Edit]) -> list[str]:
    """Accepted rebuttals become a note (a block quote, outside the statement) at the end of the item."""
    if item is None:
        raise ReviewError("the item this review block is about is no longer defined")
    from .placement import section_end, style_of

    doc = ws.documents[item.path]
    lines = doc.text.split("\n")
    width = style_of(doc, [item]).width
    note: list[str] = []
    for e in chosen:
        m = _REBUTTAL_ENTRY.match(e.first)
        if m is None:
            raise ReviewError(f"cannot read the suggestion {e.first[:60]!r}")
        category, text = m.groups()
        note += ["", *wrap(f"Rebuttal accepted in review ({category}): {text}", width, "> ", "> ")]
    end = section_end(lines, item.line)
    end = min([end, *(b.start for b in blocks(lines) if item.line < b.start < end)])  # not after a review block
    while end > item.line + 1 and not lines[end - 1].strip():
        end -= 1
    last = end - 1
    edits.append(Edit(item.path, Span(last, len(lines[last]), last, len(lines[last])), "\n".join(["", *note])))
    return [f"{_count(len(chosen), 'rebuttal')} noted under {item.id}"]
