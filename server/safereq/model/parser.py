"""Parse one section of a Markdown requirement document, and build items from parsed sections.

Each section (see :mod:`.sections`) is parsed on its own into a :class:`SectionResult`, so that an edit
re-parses only the sections it touched; :mod:`.incremental` assembles sections into a :class:`Document`
and decides what to re-parse. An item is built from several sections, because its body runs until the next
item heading or the next heading of the same or a higher level.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .blocks import section_blocks
from .clauses import ClauseRef, find_clause_refs
from .document import Attribute, Cell, HaraRow, Item, Link, Problem, Segment, Text
from .ids import ATX_HEADING_RE, ITEM_HEADING_RE, is_item_id, kind_prefix
from .ranges import Span
from .vocabulary import Vocabulary

_OTHER_SEPARATORS = frozenset("，、;；\t")
_LINK_SPLIT_RE = re.compile(r"[^,，、;；\s]+(?:[ \t]+[^,，、;；\s]+)*")
_LATIN_WORD_RE = re.compile(r"[A-Za-z]{3,}")
_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HEADING_CLOSE_RE = re.compile(r"[ \t]+#+[ \t]*$")
_LOOKS_LIKE_ITEM_RE = re.compile(r"^ {0,3}#{1,6}[ \t]+(?P<id>[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+)[ \t]*[:：]")

HARA_COLUMNS: dict[str, str] = {
    "id": "id", "hazardous event id": "id", "he id": "id", "hazard id": "id", "event id": "id",
    "s": "severity", "severity": "severity",
    "e": "exposure", "exposure": "exposure",
    "c": "controllability", "controllability": "controllability",
    "asil": "asil",
    "safety goal": "safety-goal", "sg": "safety-goal", "safety goals": "safety-goal",
    "hazardous event": "title", "hazard": "title", "description": "title", "situation": "situation",
}


@dataclass(slots=True)
class Heading:
    level: int
    item_id: str | None
    title: str
    id_span: Span | None
    title_span: Span | None
    span: Span


@dataclass(slots=True)
class SectionResult:
    """What one section contributes; spans are absolute for ``start``."""

    start: int
    end: int
    heading: Heading | None
    statement: list[Segment] = field(default_factory=list)
    attributes: list[Attribute] = field(default_factory=list)
    hara_rows: list[HaraRow] = field(default_factory=list)
    clause_refs: list[ClauseRef] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def shifted(self, start: int) -> SectionResult:
        d = start - self.start
        h = self.heading
        heading = None
        if h is not None:
            heading = Heading(
                h.level, h.item_id, h.title, h.id_span.shifted(d) if h.id_span else None,
                h.title_span.shifted(d) if h.title_span else None, h.span.shifted(d),
            )
        return SectionResult(
            start, self.end + d, heading,
            [s.shifted(d) for s in self.statement],
            [a.shifted(d) for a in self.attributes],
            [r.shifted(d) for r in self.hara_rows],
            [ClauseRef(c.document, c.year, c.clause, c.raw, c.span.shifted(d) if c.span else None) for c in self.clause_refs],
            [Problem(p.code, p.message, p.span.shifted(d)) for p in self.problems],
        )


def _parse_heading(line: str, line_no: int, problems: list[Problem]) -> Heading:
    m = ITEM_HEADING_RE.match(line)
    hashes = ATX_HEADING_RE.match(line)
    level = len(hashes.group(1)) if hashes else 1
    span = Span.on_line(line_no, 0, len(line.rstrip()))
    if m and is_item_id(m.group("id")):
        return Heading(
            level, m.group("id"), m.group("title"),
            Span.on_line(line_no, m.start("id"), m.end("id")),
            Span.on_line(line_no, m.start("title"), m.end("title")), span,
        )
    near = _LOOKS_LIKE_ITEM_RE.match(line)
    if near and not m and any(c.isdigit() for c in near.group("id")):
        problems.append(Problem(
            "format/malformed-id",
            f"'{near.group('id')}' looks like an item ID but IDs are upper-case letters and digits "
            f"(e.g. '{near.group('id').upper()}'); this heading is not read as an item",
            Span.on_line(line_no, near.start("id"), near.end("id")),
        ))
    title = _HEADING_CLOSE_RE.sub("", line[hashes.end():] if hashes else line).strip()
    return Heading(level, None, title, None, None, span)


def _line_span(line: int, start: int, end: int) -> Span:
    return Span(line, start, line, end)


def _links(value: str, line: int, col: int) -> tuple[Link, ...]:
    links = []
    if _OTHER_SEPARATORS.isdisjoint(value):
        # The common case, IDs separated by commas: plain splitting is several times faster than the regex.
        pos = 0
        for part in value.split(","):
            token = part.strip()
            if token:
                target = token.strip("`*_")
                start = col + pos + part.find(target)
                links.append(Link(target, Span(line, start, line, start + len(target)), is_item_id(target)))
            pos += len(part) + 1
        return tuple(links)
    for m in _LINK_SPLIT_RE.finditer(value):
        target = m.group(0).strip("`*_")
        offset = m.group(0).find(target)
        start = col + m.start() + offset
        links.append(Link(target, Span(line, start, line, start + len(target)), is_item_id(target)))
    return tuple(links)


def _attribute(seg_line: int, col: int, text: str, vocab: Vocabulary) -> Attribute | None:
    """Read ``Key: value`` (key optionally bold: ``**ASIL:** D``, ``**ASIL**: D``) when Key is a known key.

    Plain string operations rather than a regular expression: this runs on every prose line with a colon.
    """
    colon = text.find(":", 0, 48)
    if colon < 0 or "：" in text[:colon]:
        colon = text.find("：", 0, 48)
    if colon <= 0:
        return None
    key = text[:colon]
    key_start = 0
    if key[0] in "*_" or key[-1] in " \t*_":
        stripped = key.rstrip()
        if stripped.startswith(("**", "__")):
            stripped, key_start = stripped[2:], 2
        if stripped.endswith(("**", "__")):
            stripped = stripped[:-2].rstrip()
        key = stripped
    spec = vocab.attribute_key(key)
    if spec is None:
        return None
    rest = text[colon + 1:]
    if rest.startswith(("**", "__")):
        rest = rest[2:]
    value = rest.lstrip(" \t")
    vstart = len(text) - len(value)
    if value.endswith(("**", "__")) and not value.startswith(("**", "__")):
        value = value[:-2].rstrip()
    vcol = col + vstart
    kcol = col + key_start
    return Attribute(
        spec.key, key, value, Span(seg_line, col, seg_line, col + len(text)),
        Span(seg_line, kcol, seg_line, kcol + len(key)), Span(seg_line, vcol, seg_line, vcol + len(value)),
        _links(value, seg_line, vcol) if spec.type == "links" else (),
    )


def _extend(attr: Attribute, line: int, col: int, text: str) -> Attribute:
    """A continuation line of a multi-line attribute value (e.g. a long Rationale)."""
    return Attribute(
        attr.key, attr.raw_key, f"{attr.value} {text}",
        Span(attr.span.start_line, attr.span.start_col, line, col + len(text)), attr.key_span,
        Span(attr.value_span.start_line, attr.value_span.start_col, line, col + len(text)),
        attr.links + (_links(text, line, col) if attr.links else ()),
    )


def _cells(line: str, line_no: int) -> list[Cell]:
    """Split a table row at unescaped pipes, keeping each cell's span."""
    cells: list[Cell] = []
    start = 0
    stripped = line.rstrip()
    bounds = [i for i, ch in enumerate(stripped) if ch == "|" and (i == 0 or stripped[i - 1] != "\\")]
    edges = [-1] + bounds + [len(stripped)]
    for a, b in zip(edges, edges[1:]):
        raw = stripped[a + 1:b]
        if a == -1 and not raw.strip() and bounds and bounds[0] == 0:
            continue
        if b == len(stripped) and not raw.strip() and bounds and bounds[-1] == len(stripped) - 1:
            continue
        lead = len(raw) - len(raw.lstrip())
        text = raw.strip()
        start = a + 1 + lead
        cells.append(Cell(text.replace("\\|", "|"), Span.on_line(line_no, start, start + len(text))))
    return cells


def _hara_rows(lines: list[str], first: int, table: tuple[int, int]) -> list[HaraRow]:
    start, end = table
    header = [c.text for c in _cells(lines[start - first], start)]
    columns = [HARA_COLUMNS.get(h.strip("*_ ").casefold()) for h in header]
    needed = {"id", "severity", "exposure", "controllability", "asil"}
    if not needed.issubset(set(columns)):
        return []
    rows = []
    for k in range(start + 2, end):
        cells = _cells(lines[k - first], k)
        mapped = {col: cell for col, cell in zip(columns, cells) if col}
        if "id" in mapped and mapped["id"].text:
            line_len = len(lines[k - first].rstrip())
            rows.append(HaraRow(mapped, Span.on_line(k, 0, line_len), tuple(header)))
    return rows


def parse_section(text: str, start: int, vocab: Vocabulary) -> SectionResult:
    """Parse the section ``text`` that starts at document line ``start``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    problems: list[Problem] = []
    heading = None
    body_first = start
    if lines[0].startswith(("#", " ")) and ATX_HEADING_RE.match(lines[0]):
        heading = _parse_heading(lines[0], start, problems)
        body_first = start + 1
    body = lines[body_first - start:]
    blocks = section_blocks(body, body_first)
    result = SectionResult(start, start + len(lines), heading, problems=problems)
    attributes = result.attributes
    statement = result.statement
    for para in blocks.paragraphs:
        current: Attribute | None = None
        for line_no, col, content in para:
            head = content[:48]
            attr = _attribute(line_no, col, content, vocab) if ":" in head or "：" in head else None
            if attr is not None:
                if current is not None:
                    attributes.append(current)
                current = attr
            elif current is not None:
                current = _extend(current, line_no, col, content)
            else:
                statement.append(Segment(line_no, col, content))
        if current is not None:
            attributes.append(current)
    for table in blocks.tables:
        result.hara_rows.extend(_hara_rows(lines, start, table))
    if "ISO" in text or "UN" in text or "IEC" in text or "SAE" in text or "MIL" in text:
        for k, line in enumerate(lines, start=start):
            if k not in blocks.code_lines:
                result.clause_refs.extend(find_clause_refs(line, k))
    return result


def parse_front_matter(lines: list[str], problems: list[Problem]) -> dict[str, Any]:
    """Read front matter; ``lines`` runs from the opening ``---`` to the closing one."""
    import yaml

    text = "\n".join(lines[1:-1])
    try:
        data = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = 1 + (mark.line if mark else 0)
        problems.append(Problem("format/front-matter", f"front matter is not valid YAML: {getattr(exc, 'problem', exc)}",
                                _line_span(line, 0, len(lines[line]) if line < len(lines) else 0)))
        return {}
    if not isinstance(data, dict):
        problems.append(Problem("format/front-matter", "front matter must be a mapping of keys to values",
                                Span.on_line(0, 0, 3)))
        return {}
    return data


def _language(text: str, default: str) -> str:
    """``zh`` when at least a quarter of the statement's characters are Chinese; ``en`` when it has none but
    has Latin words (an English sentence in a Chinese document); else the document's default."""
    if not text:
        return default
    cjk = len(_CJK_RE.findall(text))
    if cjk == 0:
        return "en" if _LATIN_WORD_RE.search(text) else default
    return "zh" if cjk * 4 >= len(text.replace(" ", "")) else default


def build_item(
    path: str, results: list[SectionResult], vocab: Vocabulary, front: dict[str, Any], default_language: str
) -> Item:
    """One item from its heading section and the sub-sections that belong to its body."""
    h = results[0].heading
    assert h is not None and h.item_id is not None and h.id_span and h.title_span
    prefix = kind_prefix(h.item_id)
    kind = prefix if vocab.kind_of(prefix) else str(front.get("kind", prefix))
    statement = Text(tuple(seg for res in results for seg in res.statement))
    return Item(
        id=h.item_id, title=h.title, level=h.level, kind=kind, path=path, id_span=h.id_span,
        title_span=h.title_span, heading_span=h.span, end_line=results[-1].end - 1, statement=statement,
        attributes=[a for res in results for a in res.attributes],
        clause_refs=[c for res in results for c in res.clause_refs],
        language=_language(statement.text or h.title, default_language),
    )
