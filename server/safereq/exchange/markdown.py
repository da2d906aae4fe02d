"""Write records as safereq Markdown (the conventions of docs/format.md), for ``safereq import``.

Each document: a level-1 title, chapter headings, then each item as a heading ``ID: title`` one level
below its chapter, its statement, its attributes as ``- Label: value`` lines and its links as ``- Derived
from: A, B``. HARA rows (records whose source is ``hara``) become one HARA table at the top. Attributes
without a safereq key go into a two-column table under the item (tables are not read as statement text,
so they do not change what the checks see) and are reported by the importer.

Imported text is data: every title, statement, value and cell is escaped so that Markdown reads it as the
same words and never as structure (a heading, a list, a code fence, an HTML block or comment, a table, an
attribute line such as ``ASIL: QM``, an item heading made of a chapter title). The escapes are CommonMark
backslash escapes, which the exchange records resolve again (:func:`.records.unescape`), so an export of
an imported document gives back the imported words.
"""

from __future__ import annotations

import re

from ..model.ids import ID_PATTERN
from ..model.vocabulary import Vocabulary, load_vocabulary
from .records import LINK_KEYS, DocumentRecord, Record, attribute_labels

_HARA_COLUMNS = (("id", "ID"), ("title", "Hazardous event"), ("situation", "Situation"), ("severity", "S"),
                 ("exposure", "E"), ("controllability", "C"), ("asil", "ASIL"), ("safety-goal", "Safety goal"))
_ITEM_KEY_ORDER = ("asil", "derived-from", "verified-by", "hazard")


# Inline: a backslash before punctuation (it would escape), "<" (HTML, comments), "|" (tables), "&" of an
# entity, and the backtick (code spans swallow escapes).
_INLINE_RE = re.compile(r"\\(?=[!-/:-@\[-`{-~])|[<|`]|&(?=#?\w+;)")
# At a line start: what opens a block (heading, quote, list, fence, setext line, thematic break, link
# definition, table) or an ordered-list number.
_LINE_START_RE = re.compile(r"[#>\-+*=_~\[]|\d{1,9}(?=[.)])")
_ID_HEADING_RE = re.compile(ID_PATTERN + r"[ \t]*(?=[:：])")


def _inline(text: str) -> str:
    """``text`` with every character escaped that Markdown would read as markup inside a line."""
    return _INLINE_RE.sub(lambda m: "\\" + m.group(0), text)


def _line(text: str, vocabulary: Vocabulary) -> str:
    """One line of imported text as Markdown that reads as the same words: inline markup escaped, a block
    opener at its start escaped, and a leading ``Key:`` that safereq would read as an attribute escaped."""
    text = _inline(text.strip())
    m = _LINE_START_RE.match(text)
    if m:
        text = (text[:m.end()] + "\\" + text[m.end():]) if m.group(0)[0].isdigit() else "\\" + text
    colon = min((i for i in (text.find(":", 0, 48), text.find("：", 0, 48)) if i > 0), default=-1)
    if colon > 0 and vocabulary.attribute_key(text[:colon].strip(" \t*_")) is not None:
        text = text[:colon] + "\\" + text[colon:]
    return text


def _cell(text: str) -> str:
    return _inline(" ".join(text.split()))


def _one_line(text: str) -> str:
    """Imported text for a heading or a value: one line, inline markup escaped; a title that ends in ``#``
    gets a closing sequence (`` #``), so its own hashes are not taken for one."""
    text = _inline(" ".join(text.split()))
    return text + " #" if text.endswith("#") else text


def _chapter(text: str) -> str:
    """A chapter title: one line, and never the shape of an item heading (``FSR-3: ...``)."""
    text = _one_line(text)
    m = _ID_HEADING_RE.match(text)
    return text[:m.end()] + "\\" + text[m.end():] if m else text


def _statement(text: str, vocabulary: Vocabulary) -> list[str]:
    """The statement's lines as Markdown that reads as the same words (see :func:`_line`)."""
    return [_line(line, vocabulary) if line.strip() else "" for line in text.split("\n")]


def _hara_table(rows: list[Record]) -> list[str]:
    columns = [(key, label) for key, label in _HARA_COLUMNS
               if key in ("id", "title", "severity", "exposure", "controllability", "asil")
               or any((r.attributes.get(key) or r.links.get(key)) for r in rows)]
    out = ["| " + " | ".join(label for _key, label in columns) + " |",
           "|" + "|".join("---" for _ in columns) + "|"]
    for row in rows:
        cells = []
        for key, _label in columns:
            if key == "id":
                cells.append(_cell(row.id))
            elif key == "title":
                cells.append(_cell(row.title))
            elif key == "safety-goal":
                cells.append(", ".join(row.links.get(key, ())))
            else:
                cells.append(_cell(row.attributes.get(key, "")))
        out.append("| " + " | ".join(cells) + " |")
    return out


def render_document(doc: DocumentRecord) -> str:
    """The Markdown text of one document."""
    labels = attribute_labels()
    vocabulary = load_vocabulary()
    lines = [f"# {_one_line(doc.title)}", ""]
    rows = [r for r in doc.records if r.source == "hara"]
    if rows:
        lines += _hara_table(rows) + [""]
    current: tuple[str, ...] = ()
    for record in doc.records:
        if record.source == "hara":
            continue
        chapters = record.chapters
        common = 0
        while common < min(len(current), len(chapters)) and current[common] == chapters[common]:
            common += 1
        for depth in range(common, len(chapters)):
            lines += [f"{'#' * min(depth + 2, 6)} {_chapter(chapters[depth])}", ""]
        current = chapters
        level = min(len(chapters) + 2, 6)
        lines.append(f"{'#' * level} {record.id}: {_one_line(record.title) or record.id}")
        if record.text.strip():
            lines += _statement(record.text.strip("\n"), vocabulary)
        attribute_lines = []
        keys = [k for k in _ITEM_KEY_ORDER if k in record.attributes or record.links.get(k)]
        keys += [k for k in record.attributes if k not in keys]
        keys += [k for k in LINK_KEYS if record.links.get(k) and k not in keys]
        for key in keys:
            if key == "safety-goal":
                continue  # only a HARA row links to a goal by that key
            if key in LINK_KEYS:
                attribute_lines.append(f"- {labels.get(key, key)}: {', '.join(record.links[key])}")
                continue
            # An attribute written on several lines of the source (two "Cites:" lines) is several lines again.
            for value in record.attributes[key].split("\n"):
                attribute_lines.append(f"- {labels.get(key, key)}: {_one_line(value)}")
        if attribute_lines:
            lines += [""] + attribute_lines
        if record.extra:
            lines += ["", "| Attribute (from the imported file) | Value |", "|---|---|"]
            lines += [f"| {_cell(name)} | {_cell(value)} |" for name, value in record.extra.items()]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def file_name(path: str) -> str:
    """The file name an imported document is written to: the document's own name, made safe."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    name = re.sub(r"[^\w.-]+", "-", name, flags=re.UNICODE).strip("-.") or "requirements"
    return name if name.lower().endswith((".md", ".markdown")) else name + ".md"
