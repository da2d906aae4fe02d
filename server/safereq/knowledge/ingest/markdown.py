"""Structure of a Markdown source: headings, paragraphs, fenced code and pipe tables (kept whole).

Line-based on purpose: it is fast, needs no parser import, and the only structure retrieval needs is
where sections start and where tables and code blocks begin and end. A heading that starts with a clause
number ("## 5.4.10 Title", "# Annex B Title") gives its section that clause id; other headings give
unnumbered sections that are known by their title path.
"""

from __future__ import annotations

import re

from ..clause_ids import normalise_clause
from .blocks import Block, Heading, Paragraph, Table

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TABLE_ROW = re.compile(r"^ {0,3}\|")
_NUMBERED_TITLE = re.compile(
    r"^(?P<num>(?:\d{1,3}|[A-H])(?:\.\d{1,3})+|\d{1,3}|(?:Annex|Appendix|ANNEX|APPENDIX)\s+[A-Z]|Task\s+\d{3})"
    r"\.?(?:\s*[—–:]\s*|\s+-\s+|\s+)(?P<title>\S.*)$")
_CAPTION = re.compile(r"^\**\s*(?:Table|TABLE)\s+(?P<num>\d{1,3}[a-z]?|[IVXLC]{1,6})\s*[.:—–-]+\s*(?P<rest>.*?)\**$")


def split_heading(text: str) -> tuple[str, str]:
    """"5.4.10 Title" → ("5.4.10", "Title"); "Overview" → ("", "Overview")."""
    text = text.strip().strip("*_").strip()
    m = _NUMBERED_TITLE.match(text)
    if m:
        return normalise_clause(m.group("num")), m.group("title").strip()
    return "", text


def parse_markdown(text: str) -> list[Block]:
    lines = text.split("\n")
    i = 0
    if lines and lines[0].strip() == "---":  # YAML front matter
        for j in range(1, min(len(lines), 200)):
            if lines[j].strip() in ("---", "..."):
                i = j + 1
                break
    blocks: list[Block] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            blocks.append(Paragraph("\n".join(para).strip()))
            para.clear()

    while i < len(lines):
        line = lines[i]
        m = _ATX.match(line)
        if m:
            flush()
            clause, title = split_heading(m.group(2))
            blocks.append(Heading(clause, title, len(m.group(1))))
            i += 1
            continue
        if para and len(para) == 1 and _SETEXT.match(line) and not _TABLE_ROW.match(para[0]):
            clause, title = split_heading(para[0])
            para.clear()
            blocks.append(Heading(clause, title, 1 if line.strip().startswith("=") else 2))
            i += 1
            continue
        f = _FENCE.match(line)
        if f:
            flush()
            fence = f.group(1)
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(fence):
                j += 1
            blocks.append(Paragraph("\n".join(lines[i:j + 1])))
            i = j + 1
            continue
        if _TABLE_ROW.match(line):
            caption_text = ""
            if para and _CAPTION.match(para[-1].strip()):
                caption_text = para.pop().strip()
            elif not para and blocks and isinstance(blocks[-1], Paragraph) and "\n" not in blocks[-1].text \
                    and _CAPTION.match(blocks[-1].text.strip()):
                caption_text = blocks.pop().text.strip()  # the caption was its own paragraph
            flush()
            j = i
            while j < len(lines) and _TABLE_ROW.match(lines[j]):
                j += 1
            rows = "\n".join(lines[i:j])
            label = caption = ""
            if not caption_text and j < len(lines) - 1 and not lines[j].strip() and _CAPTION.match(lines[j + 1].strip()):
                caption_text = lines[j + 1].strip()
                j += 2
            if caption_text:
                cm = _CAPTION.match(caption_text)
                assert cm is not None
                label, caption = f"Table {cm.group('num')}", cm.group("rest").strip()
            blocks.append(Table(f"{caption_text}\n{rows}" if caption_text else rows, label, caption))
            i = j
            continue
        if not line.strip():
            flush()
        else:
            para.append(line.rstrip())
        i += 1
    flush()
    return [b for b in blocks if not (isinstance(b, Paragraph) and not b.text)]
