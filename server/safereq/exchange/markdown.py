"""Write records as safereq Markdown (the conventions of docs/format.md), for ``safereq import``.

Each document: a level-1 title, chapter headings, then each item as a heading ``ID: title`` one level
below its chapter, its statement, its attributes as ``- Label: value`` lines and its links as ``- Derived
from: A, B``. HARA rows (records whose source is ``hara``) become one HARA table at the top. Attributes
without a safereq key go into a two-column table under the item (tables are not read as statement text,
so they do not change what the checks see) and are reported by the importer.
"""

from __future__ import annotations

import re

from ..model.ids import ATX_HEADING_RE
from .records import LINK_KEYS, DocumentRecord, Record, attribute_labels

_HARA_COLUMNS = (("id", "ID"), ("title", "Hazardous event"), ("situation", "Situation"), ("severity", "S"),
                 ("exposure", "E"), ("controllability", "C"), ("asil", "ASIL"), ("safety-goal", "Safety goal"))
_ITEM_KEY_ORDER = ("asil", "derived-from", "verified-by", "hazard")


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _statement(text: str) -> list[str]:
    """The statement's lines, with a line that Markdown would read as a heading escaped."""
    return [("\\" + line) if ATX_HEADING_RE.match(line) else line for line in text.split("\n")]


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
                cells.append(row.id)
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
            lines += [f"{'#' * min(depth + 2, 6)} {_one_line(chapters[depth])}", ""]
        current = chapters
        level = min(len(chapters) + 2, 6)
        lines.append(f"{'#' * level} {record.id}: {_one_line(record.title) or record.id}")
        if record.text.strip():
            lines += _statement(record.text.strip("\n"))
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
