"""What may be written at a place in a requirement document: IDs to link, attribute keys, ASIL values, S/E/C
classes and clause references. Completion in the language server presents these; the rules that decide them
(which IDs suit which link, which decomposed ASILs a parent allows) live here, protocol-free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..data import load_rules_yaml
from ..model.document import Item
from ..model.ids import is_item_id
from .asil import decomposition_clause, decomposition_schemes
from .facts import required_asil, sec_classes
from .workspace import Workspace

# Which kind categories each link key points at; None means any item.
_LINK_TARGETS: dict[str, tuple[str, ...] | None] = {
    "derived-from": ("hazard", "safety-goal", "safety-requirement", "requirement", "claim"),
    "verified-by": ("verification",),
    "hazard": ("hazard",),
    "safety-goal": ("safety-goal",),
}


@dataclass(frozen=True, slots=True)
class Candidate:
    """One thing that may be inserted. ``insert`` defaults to ``label``; ``preferred`` marks the best choice.

    Candidates come best first; ``rank`` groups them (lower first) for clients that sort on their own.
    """

    label: str
    kind: str
    detail: str = ""
    insert: str | None = None
    documentation: str = ""
    preferred: bool = False
    filter_text: str | None = None
    rank: int = 0

    @property
    def text(self) -> str:
        return self.label if self.insert is None else self.insert


def id_candidates(ws: Workspace, key: str, query: str, current: Item | None = None, limit: int = 100) -> list[Candidate]:
    """IDs that may follow ``key`` (a link attribute key or ``safety-goal``), best matches of ``query`` first.

    Matching is fuzzy over "ID title", with IDs that start with the query ranked first; the item being edited
    and IDs it already links under ``key`` are left out.
    """
    wanted = _LINK_TARGETS.get(key)
    taken = {link.target for link in current.links(key)} if current is not None else set()
    if current is not None:
        taken.add(current.id)
    choices: dict[str, str] = {}
    details: dict[str, str] = {}
    for item in ws.items():
        if item.id in taken or item.id in choices:
            continue
        if wanted is not None and ws.category(item) not in wanted:
            continue
        asil = item.attribute("asil")
        details[item.id] = item.title + (f" · ASIL {asil.value}" if asil else "")
        choices[item.id] = f"{item.id} {item.title}"
    if wanted is None or "hazard" in wanted:
        for doc in ws.documents.values():
            for row in doc.hara_rows:
                if row.id in taken or row.id in choices or not is_item_id(row.id):
                    continue
                title = row.cells["title"].text if "title" in row.cells else ""
                asil_cell = row.cells.get("asil")
                details[row.id] = ("hazardous event" + (f": {title}" if title else "")
                                   + (f" · ASIL {asil_cell.text}" if asil_cell else ""))
                choices[row.id] = f"{row.id} {title}"
    if query:
        from rapidfuzz import fuzz, process, utils

        hits = process.extract(query, choices, scorer=fuzz.WRatio, processor=utils.default_process,
                               limit=limit * 2, score_cutoff=30)
        upper = query.upper()
        ranked = sorted(hits, key=lambda h: (not h[2].startswith(upper), -h[1], h[2]))
        ordered = [h[2] for h in ranked]
    else:
        ordered = sorted(choices)
    return [Candidate(i, "id", details[i], filter_text=choices[i]) for i in ordered[:limit]]


def _labels() -> dict[str, str]:
    """Display label per canonical attribute key (``label`` in rules/attributes.yaml, else the first alias)."""
    out: dict[str, str] = {}
    for key, spec in load_rules_yaml("attributes.yaml")["attributes"].items():
        label = spec.get("label") or str(spec["aliases"][0]).capitalize()
        out[key] = label
    return out


def attribute_key_candidates(item: Item | None, language: str = "en") -> list[Candidate]:
    """Attribute keys, those the item does not have yet first; inserted as ``Key: ``."""
    data = load_rules_yaml("attributes.yaml")["attributes"]
    present = {a.key for a in item.attributes} if item is not None else set()
    out = []
    for key, label in _labels().items():
        if language == "zh":
            zh = [a for a in data[key]["aliases"] if re.search(r"[\u4e00-\u9fff]", str(a))]
            label = zh[0] if zh else label
        out.append(Candidate(label, "key", f"{data[key]['type']} attribute", insert=f"{label}: ",
                             rank=int(key in present)))
    out.sort(key=lambda c: c.rank)
    return out


def asil_candidates(ws: Workspace, item: Item | None) -> list[Candidate]:
    """ASIL values: the one S/E/C gives, the inherited one and its valid decompositions, then every level."""
    out: list[Candidate] = []
    if item is not None:
        sec = sec_classes(item)
        if sec is not None and sec.asil:
            out.append(Candidate(sec.asil, "asil", f"given by S/E/C {sec}", preferred=True))
        req = required_asil(ws, item)
        if req is not None:
            original = req.via.original or req.level
            inherited = f"{req.level}({req.via.original})" if req.via.decomposed else req.level
            out.append(Candidate(inherited, "asil", f"inherited from {req.parent_id}", preferred=not out))
            for pair in decomposition_schemes(req.level):
                parts = " + ".join(f"{lvl}({original})" for lvl in pair)
                for lvl in pair:
                    out.append(Candidate(f"{lvl}({original})", "asil",
                                         f"decomposition of ASIL {req.level}: {parts} ({decomposition_clause()})"))
    for level in load_rules_yaml("asil.yaml")["levels"]:
        out.append(Candidate(level, "asil", "no ASIL (quality management)" if level == "QM" else f"ASIL {level}"))
    seen: set[str] = set()
    unique = []
    for c in out:
        if c.label not in seen:
            seen.add(c.label)
            unique.append(c)
    return unique


def class_candidates(kind: str) -> list[Candidate]:
    """The classes of ``kind`` (severity, exposure, controllability): S0–S3, E0–E4, C0–C3."""
    return [Candidate(c, "class", f"{kind} class") for c in load_rules_yaml("asil.yaml")["classes"][kind]]


# A clause reference being typed at the end of a line: "ISO 26262-9:2018 §5.4", "ISO 2626", "ISO/PAS 8800 ".
_PARTIAL_REF_RE = re.compile(
    r"(?:(?<=[\s(\[])|^)(?P<ref>(?:(?:ISO|IEC|SAE)(?:/PAS|/TR|/TS|/SAE)?(?:\s\d{0,5}(?:-\d{0,2})?(?::\d{0,4})?"
    r"|\s?$)|UN(?:/?ECE)?(?:\s?R\s?\d{0,3})?)(?:(?:\s*,\s*|\s*§\s?|\s+clause\s+|\s+)[\dA-Z.]*)?)$"
)


def partial_clause_ref(before_cursor: str) -> tuple[int, str] | None:
    """(start column, text) of a clause reference being typed just before the cursor, or None."""
    m = _PARTIAL_REF_RE.search(before_cursor)
    return (m.start("ref"), m.group("ref")) if m else None


def _squash(text: str) -> str:
    return re.sub(r"[\s§,]|clause", "", text, flags=re.IGNORECASE).upper()


def clause_candidates(typed: str, limit: int = 200) -> tuple[list[Candidate], bool]:
    """Catalogued clauses whose citation starts like ``typed`` (spacing, ``§`` and ``clause`` ignored).

    Returns the candidates and whether the list was cut at ``limit``. Uses the shipped clause catalogue only.
    """
    from ..knowledge.catalogue import get_catalogue
    from ..knowledge.types import cite

    catalogue = get_catalogue()
    want = _squash(typed)
    out: list[Candidate] = []
    for entry in catalogue.entries():
        citation = cite(entry.document, entry.year, entry.clause)
        squashed = _squash(citation)
        if not (squashed.startswith(want) or _squash(f"{entry.document} {entry.clause}").startswith(want)):
            continue
        if len(out) >= limit:
            return out, True
        out.append(Candidate(citation, "clause", entry.title, documentation=entry.summary, filter_text=citation))
    return out, False
