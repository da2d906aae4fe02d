"""Output formats: findings as compiler-style text, a JSON array and SARIF 2.1.0, one module each; the
traceability report (``html``, ``coverage``).

Every format reports positions 1-based, with columns counted in Unicode code points (a tab, an emoji and a
Chinese character are each one column), and end positions exclusive: ``end_column`` is the column just
after the last character. SARIF alone converts columns to UTF-16 code units, as GitHub reads them.
"""

from __future__ import annotations

import json as _json  # as _json: the package has a submodule named json
from collections.abc import Iterable
from typing import Any

from ..model.ranges import Span

FORMATS = ("text", "json", "sarif")
# Up to this many findings the JSON and SARIF reports are indented for reading. Above, they are written
# compactly: Python's indenting encoder is pure Python, about five times slower than the compact one, and
# made writing a report of tens of thousands of findings cost as much as the check (benchmarks/external_ids.py).
INDENTED_UP_TO = 2000
_STEP = "  "


def _encoder(findings: int) -> _json.JSONEncoder:
    # Reports are trees of fresh dicts and lists: nothing can be circular, so the check is skipped.
    return _json.JSONEncoder(indent=len(_STEP) if findings <= INDENTED_UP_TO else None, ensure_ascii=False,
                             check_circular=False)


def dumps(data: Any, findings: int) -> str:
    """``data`` as JSON text, indented unless the report holds more than ``INDENTED_UP_TO`` findings."""
    return _encoder(findings).encode(data) + "\n"


def dumps_array(items: Iterable[Any], findings: int, level: int = 0) -> str:
    """The JSON array of ``items`` exactly as :func:`dumps` writes it as a value ``level`` containers deep,
    encoded one item at a time: a large report is never one tree of dicts in memory, nor one encoding of
    it (the C encoder collects a whole document's pieces before joining them)."""
    encoder = _encoder(findings)
    if encoder.indent is None:
        body = ", ".join(map(encoder.encode, items))
        return f"[{body}]"
    inner = "\n" + _STEP * (level + 1)
    # An item's own line breaks get its depth's indentation; JSON text has no line break inside a string.
    body = ("," + inner).join(encoder.encode(item).replace("\n", inner) for item in items)
    return f"[{inner}{body}\n{_STEP * level}]" if body else "[]"


def one_based(span: Span) -> tuple[int, int, int, int]:
    """(line, column, end_line, end_column), 1-based, end exclusive."""
    return span.start_line + 1, span.start_col + 1, span.end_line + 1, span.end_col + 1
