"""Recover the structure of plain text and PDF text layers: clauses, paragraphs and tables.

Text extracted from a PDF has no markup, so structure is inferred from line shapes:

* running headers/footers (a line repeated on many pages) and bare page numbers are dropped, as are
  table-of-contents lines (dot leaders);
* a heading is a line that starts with a clause number ("5.4.10 Title", "4.3.1 Title. Body…", "7  SAFETY
  ANALYSIS", "B.2.1 …"), an annex/appendix head or a "TASK 101" head;
* a candidate is accepted only if its number plausibly follows the previous heading (next sibling, first
  child, or next clause of an ancestor). This one rule rejects most false positives: list items, table
  rows, numbers at the start of wrapped lines;
* a caption such as "Table 4 — Title" or "TABLE I. Severity categories" starts a table that runs until the
  next prose paragraph, heading or caption, and is kept whole.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from .blocks import Block, Heading, Paragraph, Table

_TOC = re.compile(r"(?:\.\s?){4,}\s*[0-9ivxlcIVXLC]+\s*$|…{2,}")
_PAGE_NO = re.compile(r"^\s*(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s+of\s+\d{1,4})?\s*$", re.IGNORECASE)
_NUMBERED = re.compile(r"^\s{0,40}(?P<num>(?:\d{1,3}|[A-H])(?:\.\d{1,3})*)(?P<dot>\.?)(?:[ \t]+(?P<rest>\S.*))?$")
_ANNEX = re.compile(r"^\s*(?P<word>APPENDIX|Appendix|ANNEX|Annex)\s+(?P<letter>[A-Z])\b\.?\s*(?P<rest>.*)$")
_TASK = re.compile(r"^\s*TASK\s+(?P<num>\d{3})\s*$")
_CAPTION = re.compile(
    r"^\s*(?P<word>Table|TABLE)\s+(?P<num>\d{1,3}[a-z]?|[IVXLC]{1,6})\s*(?:[.:—–-]+)\s*(?P<rest>\S.*)?$")
_ANNEX_KIND = re.compile(r"^\((?:informative|normative)\)\s*")
_SENTENCE_END = re.compile(r"[.:;?!”\"]$")

MAX_TITLE_WORDS = 14
MAX_TABLE_CHARS = 8000


def _norm(line: str) -> str:
    return " ".join(line.split())


def boilerplate_lines(pages: tuple[str, ...]) -> set[str]:
    """Lines (whitespace-normalised) that repeat on at least 40% of the pages: running headers and footers."""
    if len(pages) < 3:
        return set()
    counts: Counter[str] = Counter()
    for page in pages:
        counts.update({_norm(line) for line in page.splitlines() if line.strip()})
    threshold = max(3, int(0.4 * len(pages)))
    return {line for line, n in counts.items() if n >= threshold and len(line) < 200}


def _key(num: str) -> tuple:
    parts = num.split(".")
    head: object = parts[0] if parts[0].isalpha() else int(parts[0])
    return (head, *(int(p) for p in parts[1:]))


def _follows(prev: tuple | None, cand: tuple) -> bool:
    """Whether clause number ``cand`` can plausibly come right after ``prev`` in a document."""
    if prev is None:
        return all(isinstance(c, str) or c <= 3 for c in cand)
    if isinstance(cand[0], str) != isinstance(prev[0], str):
        return False
    if isinstance(cand[0], str) and cand[0] != prev[0]:
        return False
    # first child (allowing one missed sibling): prev + (1|2,) + (1,)*
    if len(cand) > len(prev) and cand[:len(prev)] == prev and cand[len(prev)] in (1, 2) \
            and all(c == 1 for c in cand[len(prev) + 1:]):
        return True
    # next sibling at some level k (allowing two missed), then optional first children
    for k in range(len(prev)):
        if isinstance(prev[k], str):
            continue
        if cand[:k] == prev[:k] and len(cand) > k and not isinstance(cand[k], str) \
                and prev[k] < cand[k] <= prev[k] + (6 if k == 0 else 3) and all(c == 1 for c in cand[k + 1:]):
            return True
    return False


def _is_restart(num: tuple, title: str) -> bool:
    return num == (1,) and bool(title) and (title.isupper() or title.lower() in {"scope", "introduction", "general"})


def _split_inline_title(rest: str, next_line: str = "") -> tuple[str, str] | None:
    """"Mishap. An event or…" → ("Mishap", "An event or…"); a short line → (line, ""); prose → None.

    A short line whose sentence runs on into the next line ("205.2.3 When software is developed under a
    separate / software development effort, …") is a numbered paragraph without a title: ("", line).
    """
    rest = rest.strip()
    if not rest or not (rest[0].isupper() or rest[0].isdigit()):
        return None
    if sum(ch.isalpha() for ch in rest[:40]) < 2:
        return None
    m = re.match(r"^(.{2,120}?[^\s.])\.(?:\s+(.*))?$", rest)
    if m and len(m.group(1).split()) <= MAX_TITLE_WORDS and not re.search(r"\b(?:e\.g|i\.e|etc)$", m.group(1)):
        return m.group(1).strip(), (m.group(2) or "").strip()
    if len(rest.split()) <= MAX_TITLE_WORDS and len(rest) <= 120 and not _SENTENCE_END.search(rest) \
            and not next_line.strip()[:1].islower() and not rest.endswith(","):
        return rest, ""
    return "", rest  # a numbered paragraph without a title


def _lines(pages: tuple[str, ...], has_pages: bool) -> Iterator[tuple[str, int | None]]:
    drop = boilerplate_lines(pages) if has_pages else set()
    for no, page in enumerate(pages, start=1):
        for raw in page.splitlines():
            line = raw.rstrip()
            norm = _norm(line)
            if norm in drop or (has_pages and _PAGE_NO.match(line)) or _TOC.search(line):
                continue
            yield line, (no if has_pages else None)
        yield "", (no if has_pages else None)


def _paragraphs(pages: tuple[str, ...], has_pages: bool) -> Iterator[tuple[list[str], int | None]]:
    """Blank-line-separated runs of lines, each with the page of its first line."""
    buf: list[str] = []
    page: int | None = None
    for line, p in _lines(pages, has_pages):
        if not line.strip():
            if buf:
                yield buf, page
                buf = []
            continue
        if not buf:
            page = p
        buf.append(line)
    if buf:
        yield buf, page


def _is_prose(lines: list[str]) -> bool:
    """A paragraph of running text (ends a table): long, single-spaced lines ending in a sentence."""
    stripped = [ln.strip() for ln in lines]
    if any(re.search(r"\S {3,}\S", s) for s in stripped):
        return False
    if len(stripped) == 1:
        return len(stripped[0]) >= 80 and bool(_SENTENCE_END.search(stripped[0]))
    body = stripped[:-1]
    return sum(len(s) for s in body) / len(body) >= 60 and bool(_SENTENCE_END.search(stripped[-1]))


class _Detector:
    """Keeps the heading sequence state while lines stream past."""

    def __init__(self) -> None:
        self.prev: tuple | None = None
        self.annex = ""
        self.annex_word = "Annex"
        self.task = 0

    def heading(self, line: str, following: list[str]) -> tuple[Heading, str, int] | None:
        """A heading for ``line``: (heading, body text after the title on that line, following lines used)."""
        m = _TASK.match(line)
        if m and int(m.group("num")) > self.task:
            self.task = int(m.group("num"))
            self.prev = (self.task,)
            caps = []
            for x in following[:2]:
                if not x.strip().isupper():
                    break
                caps.append(_norm(x))
            return Heading(f"Task {self.task:03d}", " ".join(caps), 1), "", len(caps)
        m = _ANNEX.match(line)
        if m and m.group("letter") != self.annex and not m.group("rest").startswith((",", ")")):
            rest = m.group("rest").strip()
            if rest and not (rest.startswith("(") or (rest[0].isupper() and len(rest.split()) <= MAX_TITLE_WORDS
                                                      and not _SENTENCE_END.search(rest))):
                return None  # "Appendix F. Below are two examples…" is a sentence that mentions an appendix
            self.annex = m.group("letter")
            self.annex_word = m.group("word").capitalize()
            self.prev = (self.annex,)
            title = _ANNEX_KIND.sub("", rest)
            used = 0
            if not title:
                for x in following[:2]:
                    used += 1
                    if not _ANNEX_KIND.fullmatch(x.strip()):
                        title = x.strip() if len(x.strip()) <= 120 else ""
                        used = used if title else used - 1
                        break
            return Heading(f"{self.annex_word} {self.annex}", title, 1), "", used
        m = _NUMBERED.match(line)
        if not m:
            return None
        num = m.group("num")
        if num.isalpha():
            return None
        cand = _key(num)
        if isinstance(cand[0], str) and cand[0] != self.annex:
            return None
        rest = m.group("rest")
        used = 0
        if rest is None:
            nxt = following[0].strip() if following else ""
            if not nxt or len(nxt) > 120 or len(nxt.split()) > 12 or _SENTENCE_END.search(nxt) \
                    or not nxt[0].isalpha():
                return None
            title, body, used = nxt, "", 1
        else:
            split = _split_inline_title(rest, following[0] if following else "")
            if split is None:
                return None
            title, body = split
            if len(cand) == 1 and not title.isupper() and (body or m.group("dot")):
                return None  # a top-level clause is a bare title ("1 Scope", "7  SAFETY ANALYSIS"), not "2. Do x"
        if not (_follows(self.prev, cand) or _is_restart(cand, title)):
            return None
        self.prev = cand
        return Heading(num, title.strip().rstrip("."), len(cand)), body, used


def parse_text(pages: tuple[str, ...], has_pages: bool) -> list[Block]:
    """Blocks of a plain-text/PDF source in document order (see the module docstring for the rules)."""
    paragraphs = list(_paragraphs(pages, has_pages))
    flat = [(pi, li) for pi, (lines, _p) in enumerate(paragraphs) for li in range(len(lines))]
    position = {key: n for n, key in enumerate(flat)}
    skip: set[tuple[int, int]] = set()
    blocks: list[Block] = []
    det = _Detector()
    table: list[str] | None = None
    table_meta: tuple[str, str, int | None] = ("", "", None)
    restart_at: int | None = None

    def close_table() -> None:
        nonlocal table
        if table is not None:
            label, caption, page = table_meta
            text = "\n".join(table).strip("\n")
            for piece in _split_long_table(text):
                blocks.append(Table(piece, label, caption, page))
            table = None

    for pi, (lines, page) in enumerate(paragraphs):
        if table is not None and _is_prose(lines) and not _CAPTION.match(lines[0]):
            close_table()
        buf: list[str] = []
        for li, line in enumerate(lines):
            if (pi, li) in skip:
                continue
            cap = _CAPTION.match(line)
            if cap and not cap.group("rest"):
                cap = None  # "…shown in\nTable 21." is a sentence, not a caption
            after = flat[position[(pi, li)] + 1:position[(pi, li)] + 3]
            found = None if cap else det.heading(line, [paragraphs[a][0][b] for a, b in after])
            if found or cap:
                if buf:
                    (table.extend(buf) if table is not None else blocks.append(Paragraph("\n".join(buf), page)))
                    buf = []
                close_table()
            if cap:
                table = [line.strip()]
                table_meta = (f"Table {cap.group('num')}", (cap.group("rest") or "").strip(), page)
                continue
            if found:
                heading, body, used = found
                skip.update(after[:used])
                if restart_at is None and heading.clause[0].isdigit() and _is_restart(_key(heading.clause),
                                                                                      heading.title):
                    restart_at = len(blocks)
                blocks.append(Heading(heading.clause, heading.title, heading.level, page))
                if body:
                    buf.append(body)
                continue
            buf.append(line.strip() if table is None else line)
        if buf:
            if table is not None:
                table.extend(buf)
                table.append("")
            else:
                blocks.append(Paragraph("\n".join(buf), page))
    close_table()
    if restart_at:
        # headings before the real "1 Scope" were front-matter lists that happened to look numbered
        blocks = [_demote(b) for b in blocks[:restart_at]] + blocks[restart_at:]
    return blocks


def _demote(block: Block) -> Block:
    """Front matter keeps its text but loses structure (lists of tables, change notices, numbered forewords)."""
    if isinstance(block, Heading):
        return Paragraph(f"{block.clause} {block.title}".strip(), block.page)
    if isinstance(block, Table):
        return Paragraph(block.text, block.page)
    return block


def _split_long_table(text: str) -> list[str]:
    """A table over ``MAX_TABLE_CHARS`` is cut at row (line) boundaries, each piece keeping the caption line."""
    if len(text) <= MAX_TABLE_CHARS:
        return [text]
    lines = text.split("\n")
    caption, rows = lines[0], lines[1:]
    pieces: list[str] = []
    cur: list[str] = []
    size = len(caption)
    for row in rows:
        if cur and size + len(row) + 1 > MAX_TABLE_CHARS:
            pieces.append("\n".join([caption, *cur]))
            cur, size = [], len(caption)
        cur.append(row)
        size += len(row) + 1
    if cur:
        pieces.append("\n".join([caption, *cur]))
    return pieces
