"""Parse one section of a Markdown requirement document, and build items from parsed sections.

Each section (see :mod:`.sections`) is parsed on its own into a :class:`SectionResult`, so that an edit
re-parses only the sections it touched; :mod:`.incremental` assembles sections into a :class:`Document`
and decides what to re-parse. An item is built from several sections, because its body runs until the next
item heading or the next heading of the same or a higher level.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

from .blocks import is_plain, markdown_it_blocks, split_tables
from .clauses import ClauseRef, find_clause_refs
from .document import Attribute, Cell, HaraRow, Item, Link, Problem, Segment, Text
from .ids import ATX_HEADING_RE, ID_HEADING_START_RE, ITEM_HEADING_START_RE, ITEM_ID_RE, heading_title, kind_prefix
from .ranges import Anchor, Span, new_tuple
from .vocabulary import Vocabulary

_OTHER_SEPARATORS = frozenset("，、;；\t")
_LINK_SPLIT_RE = re.compile(r"[^,，、;；\s]+(?:[ \t]+[^,，、;；\s]+)*")
_LATIN_WORD_RE = re.compile(r"[A-Za-z]{3,}")
_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HEADING_CLOSE_RE = re.compile(r"[ \t]+#+[ \t]*$")
_LOOKS_LIKE_ITEM_RE = re.compile(r"^ {0,3}#{1,6}[ \t]+(?P<id>[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*)[ \t]*[:：]")
_is_item_id = ITEM_ID_RE.fullmatch  # ids.is_item_id without the Python call: it runs on every link
_NO_CODE: frozenset[int] = frozenset()

HARA_COLUMNS: dict[str, str] = {
    "id": "id", "hazardous event id": "id", "he id": "id", "hazard id": "id", "event id": "id",
    "s": "severity", "severity": "severity",
    "e": "exposure", "exposure": "exposure",
    "c": "controllability", "controllability": "controllability",
    "asil": "asil",
    "safety goal": "safety-goal", "sg": "safety-goal", "safety goals": "safety-goal",
    "hazardous event": "title", "hazard": "title", "description": "title", "situation": "situation",
}


class Heading(NamedTuple):
    """A section's heading line; ``item_id`` and the ID and title spans are set for item headings."""

    level: int
    item_id: str | None
    title: str
    id_span: Span | None
    title_span: Span | None
    span: Span


@dataclass(slots=True)
class SectionResult:
    """What one section contributes, with positions as parsed (``parsed_start`` is the heading's line then).

    Everything in it shares the section's ``anchor``: moving the section (:meth:`move`) moves all of it
    at once. ``heading`` and ``statement`` hold lines as parsed; the other parts report positions now.

    Tuples rather than lists: most sections have no HARA rows, clause references or problems, and the
    empty tuple is shared.
    """

    parsed_start: int
    parsed_end: int
    heading: Heading | None
    anchor: Anchor
    statement: tuple[Segment, ...] = ()
    attributes: tuple[Attribute, ...] = ()
    hara_rows: tuple[HaraRow, ...] = ()
    clause_refs: tuple[ClauseRef, ...] = ()
    problems: tuple[Problem, ...] = ()

    @property
    def start(self) -> int:
        """The section's first line now."""
        return self.parsed_start + self.anchor.shift

    @property
    def end(self) -> int:
        """The line after the section's last, now."""
        return self.parsed_end + self.anchor.shift

    def move(self, lines: int) -> None:
        """Move the section, and everything parsed from it, down by ``lines`` lines (up when negative)."""
        self.anchor.shift += lines


def _parse_heading(line: str, line_no: int, problems: list[Problem], anchor: Anchor) -> Heading:
    """The heading on ``line``; a heading that looks like an item heading but is not one adds a problem."""
    span = new_tuple(Span, (line_no, 0, line_no, len(line.rstrip())))
    m = ITEM_HEADING_START_RE.match(line)
    if m is not None:
        title_start = m.end()
        title = heading_title(line[title_start:])
        return new_tuple(Heading, (
            len(m.group(1)), m.group(2), title, new_tuple(Span, (line_no, m.start(2), line_no, m.end(2))),
            new_tuple(Span, (line_no, title_start, line_no, title_start + len(title))), span,
        ))
    hashes = ATX_HEADING_RE.match(line)
    level = len(hashes.group(1)) if hashes else 1
    near = _LOOKS_LIKE_ITEM_RE.match(line)
    if near and not ID_HEADING_START_RE.match(line) and any(c.isdigit() for c in near.group("id")):
        problems.append(Problem(
            "format/malformed-id",
            f"'{near.group('id')}' looks like an item ID but IDs are upper-case letters and digits "
            f"(e.g. '{near.group('id').upper()}'); this heading is not read as an item",
            Span.on_line(line_no, near.start("id"), near.end("id")), anchor,
        ))
    title = _HEADING_CLOSE_RE.sub("", line[hashes.end():] if hashes else line).strip()
    return Heading(level, None, title, None, None, span)


# A link as (target, start column, end column, valid), columns relative to the text it was read from.
_LinkPart = tuple[str, int, int, bool]
# A line read as an attribute, columns relative to the line's content: canonical key, raw key, value,
# key column, value start and end columns, links (None unless the key takes links). False: not an attribute.
_Template = tuple[str, str, str, int, int, int, tuple[_LinkPart, ...] | None]
# How the fast path reads a line that is not blank: whether it is a bullet (which starts a paragraph), the
# column and text of its content, and the attribute it states (False: none).
_Line = tuple[bool, int, str, _Template | bool]
_MEMO_SIZE = 4096  # lines remembered per vocabulary (the memo starts over when full)


def _link_parts(value: str, offset: int) -> tuple[_LinkPart, ...]:
    """The links in ``value``, which starts at column ``offset`` of the text it was read from."""
    parts = []
    if _OTHER_SEPARATORS.isdisjoint(value):
        # The common case, IDs separated by commas: plain splitting is several times faster than the regex.
        pos = offset
        for part in value.split(","):
            token = part.strip()
            if token:
                target = token.strip("`*_")
                start = pos + part.find(target)
                parts.append((target, start, start + len(target), _is_item_id(target) is not None))
            pos += len(part) + 1
        return tuple(parts)
    for m in _LINK_SPLIT_RE.finditer(value):
        target = m.group(0).strip("`*_")
        start = offset + m.start() + m.group(0).find(target)
        parts.append((target, start, start + len(target), _is_item_id(target) is not None))
    return tuple(parts)


def _links(parts: tuple[_LinkPart, ...], line: int, col: int, anchor: Anchor) -> tuple[Link, ...]:
    return tuple([
        new_tuple(Link, (target, new_tuple(Span, (line, col + start, line, col + end)), valid, anchor))
        for target, start, end, valid in parts
    ])


def _template(text: str, colon: int, vocab: Vocabulary) -> _Template | bool:
    """Read ``Key: value`` (key optionally bold: ``**ASIL:** D``, ``**ASIL**: D``) when Key is a known key;
    ``colon`` is the first colon of ``text``. Plain string operations rather than a regular expression."""
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
        return False
    vstart = colon + 1
    if text.startswith(("**", "__"), vstart):
        vstart += 2
    value = text[vstart:].lstrip(" \t")
    vstart = len(text) - len(value)
    if value.endswith(("**", "__")) and not value.startswith(("**", "__")):
        value = value[:-2].rstrip()
    links = _link_parts(value, vstart) if spec.type == "links" else None
    return spec.key, key, value, key_start, vstart, vstart + len(value), links


def _read_attribute(text: str, vocab: Vocabulary) -> _Template | bool:
    """The template of the attribute that ``text`` states, or False. Runs on every prose line, so a line
    without a colon in its first 48 characters is dismissed at once."""
    colon = text.find(":", 0, 48)
    wide = text.find("：", 0, 48 if colon < 0 else colon)  # whichever colon comes first
    if wide >= 0:
        colon = wide
    return _template(text, colon, vocab) if colon > 0 else False


def _attribute(template: _Template, line: int, col: int, length: int, anchor: Anchor) -> Attribute:
    """The attribute of ``template`` read from ``length`` characters at column ``col`` of document line ``line``."""
    key, raw_key, value, key_col, value_col, value_end_col, links = template
    return new_tuple(Attribute, (
        key, raw_key, value, line, col, line, col + length, col + key_col, col + value_col, col + value_end_col,
        _links(links, line, col, anchor) if links else (), anchor,
    ))


def _extend(attr: Attribute, line: int, col: int, text: str) -> Attribute:
    """A continuation line of a multi-line attribute value (e.g. a long Rationale)."""
    end = col + len(text)
    links = attr.links
    if links:
        links += _links(_link_parts(text, 0), line, col, attr.anchor)
    return new_tuple(Attribute, (
        attr.key, attr.raw_key, f"{attr.value} {text}", attr.parsed_line, attr.start_col, line, end,
        attr.key_col, attr.value_col, end, links, attr.anchor,
    ))


def _read_line(line: str, vocab: Vocabulary) -> _Line:
    """How the fast path reads a line that is not blank: see ``_Line``."""
    if line[0] in "-*+" and (len(line) == 1 or line[1] in " \t"):
        content = line[1:].lstrip(" \t")
        col = len(line) - len(content)
        content = content.rstrip()
        return True, col, content, _read_attribute(content, vocab)
    content = line.rstrip()
    return False, 0, content, _read_attribute(content, vocab)


def _read_plain(
    lines: list[str], first: int, vocab: Vocabulary, anchor: Anchor
) -> tuple[list[Segment], list[Attribute]]:
    """Statement segments and attributes of a plain body (see :func:`.blocks.is_plain`), ``lines[0]`` being
    document line ``first``: a blank line ends a paragraph, a bullet starts one, and a line that is not an
    attribute continues the attribute before it in the same paragraph.

    Documents repeat attribute lines (``- ASIL: B``, ``- Status: draft``), so how a line reads is remembered
    by its text (in ``Vocabulary.line_memo``: the reading depends on the attribute keys); rebuilding an
    attribute from a remembered template costs a fraction of reading the line. Prose lines, mostly unique,
    are not remembered.
    """
    statement: list[Segment] = []
    attributes: list[Attribute] = []
    current: Attribute | None = None
    memo = vocab.line_memo
    line_no = first - 1
    for line in lines:
        line_no += 1
        if not line or line.isspace():
            if current is not None:
                attributes.append(current)
                current = None
            continue
        read = memo.get(line)
        if read is None:
            read = _read_line(line, vocab)
            if read[3] is not False:
                if len(memo) >= _MEMO_SIZE:
                    memo.clear()
                memo[line] = read
        bullet, col, content, template = read
        if bullet and current is not None:
            attributes.append(current)
            current = None
        if template is not False:
            if current is not None:
                attributes.append(current)
            current = _attribute(template, line_no, col, len(content), anchor)
        elif current is not None:
            current = _extend(current, line_no, col, content)
        else:
            statement.append(new_tuple(Segment, (line_no, col, content)))
    if current is not None:
        attributes.append(current)
    return statement, attributes


def _read_paragraphs(
    paragraphs: list[list[tuple[int, int, str]]], vocab: Vocabulary, anchor: Anchor
) -> tuple[list[Segment], list[Attribute]]:
    """Statement segments and attributes of paragraphs read by markdown-it; the same rules as ``_read_plain``.

    The steps per line repeat those of ``_read_plain`` on purpose: that loop runs for every line of a
    workspace and keeps them inline (a shared function would cost a call per line, ~2 % of a cold parse);
    tests/model/test_blocks.py checks that both paths read the same sections alike.
    """
    statement: list[Segment] = []
    attributes: list[Attribute] = []
    for para in paragraphs:
        current: Attribute | None = None
        for line_no, col, content in para:
            template = _read_attribute(content, vocab)
            if template is not False:
                if current is not None:
                    attributes.append(current)
                current = _attribute(template, line_no, col, len(content), anchor)
            elif current is not None:
                current = _extend(current, line_no, col, content)
            else:
                statement.append(new_tuple(Segment, (line_no, col, content)))
        if current is not None:
            attributes.append(current)
    return statement, attributes


def _cells(line: str, line_no: int, anchor: Anchor) -> list[Cell]:
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
        cells.append(Cell(text.replace("\\|", "|"), Span.on_line(line_no, start, start + len(text)), anchor))
    return cells


def _hara_rows(lines: list[str], first: int, table: tuple[int, int], anchor: Anchor) -> list[HaraRow]:
    start, end = table
    header = [c.text for c in _cells(lines[start - first], start, anchor)]
    columns = [HARA_COLUMNS.get(h.strip("*_ ").casefold()) for h in header]
    needed = {"id", "severity", "exposure", "controllability", "asil"}
    if not needed.issubset(set(columns)):
        return []
    rows = []
    for k in range(start + 2, end):
        cells = _cells(lines[k - first], k, anchor)
        mapped = {col: cell for col, cell in zip(columns, cells) if col}
        if "id" in mapped and mapped["id"].text:
            line_len = len(lines[k - first].rstrip())
            rows.append(HaraRow(mapped, Span.on_line(k, 0, line_len), tuple(header), anchor))
    return rows


def parse_section(text: str, start: int, vocab: Vocabulary) -> SectionResult:
    """Parse the section ``text`` that starts at document line ``start``."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    problems: list[Problem] = []
    anchor = Anchor()
    heading = None
    body = 0  # the body's first line, in ``lines``
    if lines[0].startswith(("#", " ")) and ATX_HEADING_RE.match(lines[0]):
        heading = _parse_heading(lines[0], start, problems, anchor)
        body = 1
    hara_rows: list[HaraRow] = []
    code_lines: set[int] | frozenset[int] = _NO_CODE
    if is_plain(text, len(lines[0]) + 1 if body else 0):
        statement, attributes = _read_plain(lines[body:], start + body, vocab, anchor)
    elif (tables := split_tables(lines[body:])) is not None:
        prose, ranges = tables
        statement, attributes = _read_plain(prose, start + body, vocab, anchor)
        for a, b in ranges:
            hara_rows.extend(_hara_rows(lines, start, (start + body + a, start + body + b), anchor))
    else:
        blocks = markdown_it_blocks(lines[body:], start + body)
        statement, attributes = _read_paragraphs(blocks.paragraphs, vocab, anchor)
        for table in blocks.tables:
            hara_rows.extend(_hara_rows(lines, start, table, anchor))
        code_lines = blocks.code_lines
    clause_refs: list[ClauseRef] = []
    if "ISO" in text or "UN" in text or "IEC" in text or "SAE" in text or "MIL" in text:
        for k, line in enumerate(lines, start=start):
            if k not in code_lines:
                clause_refs.extend(find_clause_refs(line, k, anchor))
    return SectionResult(
        start, start + len(lines), heading, anchor, tuple(statement), tuple(attributes), tuple(hara_rows),
        tuple(clause_refs), tuple(problems),
    )


# PyYAML's time grows with the square of the nesting of flow collections (``[[[...]]]``: 2,000 levels took 15 s)
# and it recurses per level; front matter nested deeper than this is refused before it is read.
MAX_FLOW_DEPTH = 64
_FLOW_RE = re.compile(r"[\[\]{}]")


def _flow_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text`` (quotes are not skipped: an over-estimate)."""
    depth = deepest = 0
    for m in _FLOW_RE.finditer(text):
        depth = depth + 1 if m.group(0) in "[{" else max(0, depth - 1)
        deepest = max(deepest, depth)
    return deepest


def parse_front_matter(lines: list[str], problems: list[Problem]) -> dict[str, Any]:
    """Read front matter; ``lines`` runs from the opening ``---`` to the closing one."""
    import yaml

    text = "\n".join(lines[1:-1])
    try:
        if _flow_depth(text) > MAX_FLOW_DEPTH:
            raise RecursionError
        data = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = 1 + (mark.line if mark else 0)
        problems.append(Problem("format/front-matter", f"front matter is not valid YAML: {getattr(exc, 'problem', exc)}",
                                Span.on_line(line, 0, len(lines[line]) if line < len(lines) else 0)))
        return {}
    except RecursionError:  # PyYAML reads nested blocks recursively
        problems.append(Problem("format/front-matter", "front matter is not valid YAML: nested too deeply",
                                Span.on_line(0, 0, 3)))
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
    if text.isascii():  # no Chinese, known without a regex pass
        return "en" if _LATIN_WORD_RE.search(text) else default
    cjk = len(_CJK_RE.findall(text))
    if cjk == 0:
        return "en" if _LATIN_WORD_RE.search(text) else default
    return "zh" if cjk * 4 >= len(text.replace(" ", "")) else default


def build_item(
    path: str, results: list[SectionResult], vocab: Vocabulary, front: dict[str, Any], default_language: str
) -> Item:
    """One item from its heading section and the sub-sections that belong to its body.

    The item's own positions (heading, statement, end) are kept relative to its heading section's anchor.
    Its sections move together from now on (an edit inside any of them rebuilds the item), but they may
    have been parsed at different times, so a sub-section's statement lines are first brought into the
    heading section's frame.
    """
    first = results[0]
    h = first.heading
    assert h is not None and h.item_id is not None and h.id_span and h.title_span
    prefix = kind_prefix(h.item_id)
    kind = prefix if vocab.kind_of(prefix) else str(front.get("kind", prefix))
    anchor = first.anchor
    if len(results) == 1:  # the common case: an item without sub-sections
        segments, attributes, clause_refs = first.statement, list(first.attributes), list(first.clause_refs)
        end = first.parsed_end
    else:
        base = anchor.shift
        moved: list[Segment] = []
        for res in results:
            d = res.anchor.shift - base
            moved.extend([new_tuple(Segment, (line + d, col, text)) for line, col, text in res.statement]
                         if d else res.statement)
        segments = tuple(moved)
        attributes = [a for res in results for a in res.attributes]
        clause_refs = [c for res in results for c in res.clause_refs]
        end = results[-1].end - base
    statement = Text(segments, anchor)
    return Item(
        h.item_id, h.title, h.level, kind, path, h.id_span, h.title_span, h.span, end - 1, statement,
        attributes, clause_refs, _language(statement.text or h.title, default_language), anchor,
    )
