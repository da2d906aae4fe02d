"""Derived requirements the way the team derives them: from the children its siblings already have.

An item's siblings (items with the same parent) that already have children show the house style: the kind of
the children, their wording and their level of detail. When a sibling's statement and the item's differ in a
few phrases ("show a short help text" / "show the version"), and the sibling's child repeats the sibling's
phrase, the child rewritten with the item's phrase is the item's child in the team's own style:

    sibling  `help`, `-h` and `--help` show a short help text with command line usage.
    its child  The CLI provides a help command and flags (...) that display a short help text.
    item     `help`, `-h` and `--help` show the version of OFT.
    analogue  The CLI provides a help command and flags (...) that display the version of OFT.

Nothing is invented: every word comes from the sibling's child or from the item. An analogue is offered only
when the sibling is close to the item (most words shared), at least one phrase was carried over, and every
limit, number and negation of the item is in the result (a 50 ms limit stays 50 ms).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from ...model.ids import kind_prefix
from ..item.context import ItemContext, ItemSummary, WorkspaceView
from ..item.reading import is_verb
from .patterns import child_kind, derives_kind

MAX_CHARS = 2000
MIN_SIMILARITY = 0.5  # share of the sibling's and the item's words in common (difflib ratio)
_WORD = re.compile(r"`[^`]*`|\d+(?:[.,]\d+)*|[\w+/%°±<>≤≥-]+(?:\.[\w-]+)*|[^\w\s]", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_ACRONYM = re.compile(r"[A-Z][A-Z0-9]{1,5}")  # "RR", "PIP", "VTI": a quantity's name, short as it is
_NEGATION = re.compile(r"\b(?:not|never|no|without)\b|不得|不应|禁止|不", re.IGNORECASE)
_CJK = re.compile(r"[\u4e00-\u9fff]")
# A unit followed by another unit or by a second quantity ("0 - 20 cm H2O bpm", "(bpm) 60 cmH2O"): the alignment
# carried a value with its unit into a place whose own unit stayed, and the sentence no longer says one thing.
_UNIT = (r"(?:cm ?H2O|mmHg|bpm|breaths per minute|mL|ml|L/min|lpm|Hz|kHz|MHz|ms|µs|V|mV|A|mA|W|kW|°C|℃|kPa|Pa|"
         r"mm|cm|km|km/h|m/s|dBA|dBa|dB|rpm|%)")
_UNIT_WORD = re.compile(rf"(?<![\w/]){_UNIT}(?![\w/])")
_UNIT_CLASH = re.compile(rf"{_UNIT_WORD.pattern}\s+(?:\({_UNIT}\)\s+)?(?:-?\d+(?:[.,]\d+)?\s*)?{_UNIT}(?![\w/])")


@dataclass(frozen=True, slots=True)
class Analogue:
    """A derived statement in the house style: which sibling and child it follows, and what it carried over."""

    statement: str
    title: str
    kind: str
    sibling: str
    child: str
    carried: tuple[tuple[str, str], ...]  # (the sibling's phrase in the child, the item's phrase put there)


def _words(text: str) -> list[str]:
    if _CJK.search(text):
        return re.findall(r"[\u4e00-\u9fff]|[A-Za-z0-9.%]+|[^\s\w]", text)
    return _WORD.findall(text)


def _join(words: list[str], cjk: bool) -> str:
    if cjk:
        return "".join(words)
    out = ""
    for w in words:
        if out and not re.fullmatch(r"[.,;:)!?]", w) and not out.endswith("("):
            out += " "
        out += w
    return out


def _content(words: list[str]) -> bool:
    return any(len(w) >= 4 or _CJK.match(w) or _NUMBER.fullmatch(w) or _ACRONYM.fullmatch(w) for w in words)


def _units(text: str) -> set[str]:
    return {u.replace(" ", "") for u in _UNIT_WORD.findall(text)}


def _names_any(child: list[str], old: list[str]) -> bool:
    """Whether ``child`` holds a name of ``old``: an acronym ("RR") or a word of five letters or more that
    the sibling has where the item has something else."""
    names = {w.lower() for w in old if (w.isupper() and len(w) >= 2 and w.isalpha()) or (len(w) >= 5 and w.isalpha())}
    return any(w.lower() in names for w in child)


def _find(seq: list[str], part: list[str]) -> int:
    low = [w.lower() for w in seq]
    want = [w.lower() for w in part]
    for i in range(len(low) - len(want) + 1):
        if low[i:i + len(want)] == want:
            return i
    return -1


def _carry(child: list[str], old: list[str], new: list[str]) -> tuple[list[str], str] | None:
    """``child`` with the longest beginning of ``old`` it contains (with a content word) replaced by ``new``:
    a phrase is carried from its first word on, so that "the current version of X" never becomes "the
    current a short help text"."""
    for size in range(len(old), 0, -1):
        part = old[:size]
        if not _content(part):
            continue
        at = _find(child, part)
        if at >= 0:
            return child[:at] + new + child[at + size:], " ".join(part)
    return None


def keeps_limits(item: str, text: str, negation: bool = True) -> bool:
    """Every number of the item (a limit, a count, a version) is in ``text``, and, with ``negation``, its
    negation too (a pattern that states what happens on a violation reads the negation as the violation)."""
    if any(n not in text for n in _NUMBER.findall(item)):
        return False
    return not (negation and _NEGATION.search(item) and not _NEGATION.search(text))


def transfer(sibling: str, child: str, item: str) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """The child of ``sibling`` rewritten for ``item``; None when the analogy does not carry (or a text is
    longer than a requirement statement is: the word alignment is quadratic)."""
    if max(len(sibling), len(child), len(item)) > MAX_CHARS:
        return None
    cjk = bool(_CJK.search(item))
    s, i, c = _words(sibling), _words(item), _words(child)
    matcher = SequenceMatcher(None, [w.lower() for w in s], [w.lower() for w in i], autojunk=False)
    if matcher.ratio() < MIN_SIMILARITY:
        return None
    out, carried = c, []
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag != "replace" or not _content(i[b1:b2]):
            continue
        done = _carry(out, s[a1:a2], i[b1:b2])
        if done is None and _names_any(out, s[a1:a2]):
            return None  # the child still names what the item replaced ("RR" kept beside PEEP's range)
        if done is None or (" " not in done[1] and is_verb(done[1])):
            continue  # a verb alone ("support" → "configure") is no subject matter to carry
        out, old = done
        carried.append((old, _join(i[b1:b2], cjk)))
    if not carried:
        return None
    text = _join(out, cjk)
    if _UNIT_CLASH.search(text) and not _UNIT_CLASH.search(child):
        return None
    if _units(text) & _units(sibling) - _units(item):
        return None  # a unit of the sibling's quantity stayed ("increments of 1 cm H2O" for a rate in bpm)
    return (text, tuple(carried)) if keeps_limits(item, text) and text != child else None


def analogues(ctx: ItemContext, items: tuple[ItemSummary, ...], limit: int = 2) -> list[Analogue]:
    """Up to ``limit`` analogues of the siblings' children for the item, closest sibling first."""
    parents = {p.id for p in ctx.parents}
    if not parents:
        return []
    children: dict[str, list[ItemSummary]] = {}
    for it in items:
        for p in it.parents:
            children.setdefault(p, []).append(it)
    siblings = [it for it in items if it.id != ctx.id and parents & set(it.parents) and children.get(it.id)]

    def closeness(sib: ItemSummary) -> float:
        return SequenceMatcher(None, _words(sib.statement.lower()), _words(ctx.statement.lower()), autojunk=False).ratio()

    existing = {it.statement.strip().lower() for it in items}
    out: list[Analogue] = []
    for sib in sorted(siblings, key=closeness, reverse=True):
        for kid in children[sib.id]:
            done = transfer(sib.statement, kid.statement, ctx.statement)
            if done is None or done[0].strip().lower() in existing:
                continue
            title = transfer(sib.title, kid.title, ctx.title) if kid.title else None
            out.append(Analogue(done[0], title[0] if title else ctx.title, kind_prefix(kid.id),
                                sib.id, kid.id, done[1]))
            if len(out) >= limit:
                return out
    return out


def house_kind(view: WorkspaceView) -> str:
    """The kind the item's children get: the one its siblings' children have most, else the one the children of
    items of its kind have most anywhere in the workspace (a SYS item whose siblings have no children yet still
    gets the HW or FW kind the team derives SYS items into), else the usual child kind (SG → FSR, FSR → TSR,
    rules/patterns/requirements.yaml) or, for a kind those rules do not know, the item's own kind; never the
    kind of the item's parents or grandparents (a DEV item of a workspace whose links sometimes point upwards
    still gets DEV children, not PRD ones)."""
    ctx = view.item
    assert ctx is not None
    own = kind_prefix(ctx.id)
    by_id = {it.id: it for it in view.items}
    above = {kind_prefix(p.id) for p in ctx.parents}
    above |= {kind_prefix(g) for p in ctx.parents for g in (by_id[p.id].parents if p.id in by_id else ())}
    parents = {p.id for p in ctx.parents}
    siblings = {it.id for it in view.items if set(it.parents) & parents and it.id != ctx.id}
    same_kind = {it.id for it in view.items if kind_prefix(it.id) == own and it.id != ctx.id}
    for models in (siblings, same_kind):
        kinds = [kind_prefix(k.id) for k in view.items if set(k.parents) & models]
        kinds = [k for k in kinds if k == own or k not in above]  # never a kind the item derives from
        if kinds:
            return max(sorted(set(kinds)), key=kinds.count)
    return child_kind(own) if derives_kind(own) else own  # SR → SR-n in a team's SR scheme, not a generic REQ-n


def house_examples(view: WorkspaceView, siblings: int = 3, children: int = 2) -> list[dict[str, object]]:
    """The item's siblings that have children, with those children, closest sibling first: the examples a
    model is shown so that what it writes reads like the team's own children."""
    ctx = view.item
    assert ctx is not None
    parents = {p.id for p in ctx.parents}
    kids: dict[str, list[ItemSummary]] = {}
    for it in view.items:
        for p in it.parents:
            kids.setdefault(p, []).append(it)
    sibs = [it for it in view.items if it.id != ctx.id and parents & set(it.parents) and kids.get(it.id)]
    sibs.sort(key=lambda s: SequenceMatcher(None, _words(s.statement.lower()), _words(ctx.statement.lower()),
                                            autojunk=False).ratio(), reverse=True)
    return [{"sibling": {"id": s.id, "statement": s.statement},
             "its_children": [{"id": k.id, "title": k.title, "statement": k.statement} for k in kids[s.id][:children]]}
            for s in sibs[:siblings]]
