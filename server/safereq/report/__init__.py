"""Output formats: findings as compiler-style text, a JSON array and SARIF 2.1.0, one module each; the
traceability report (``html``, ``coverage``).

Every format reports positions 1-based, with columns counted in Unicode code points (a tab, an emoji and a
Chinese character are each one column), and end positions exclusive: ``end_column`` is the column just
after the last character. SARIF alone converts columns to UTF-16 code units, as GitHub reads them.
"""

from __future__ import annotations

import json as _json  # as _json: the package has a submodule named json
from typing import Any

from ..model.ranges import Span

FORMATS = ("text", "json", "sarif")
# Up to this many findings the JSON and SARIF reports are indented for reading. Above, they are written
# compactly: Python's indenting encoder is pure Python, about five times slower than the compact one, and
# made writing a report of tens of thousands of findings cost as much as the check (benchmarks/external_ids.py).
INDENTED_UP_TO = 2000


def dumps(data: Any, findings: int) -> str:
    """``data`` as JSON text, indented unless the report holds more than ``INDENTED_UP_TO`` findings."""
    return _json.dumps(data, indent=2 if findings <= INDENTED_UP_TO else None, ensure_ascii=False) + "\n"


def one_based(span: Span) -> tuple[int, int, int, int]:
    """(line, column, end_line, end_column), 1-based, end exclusive."""
    return span.start_line + 1, span.start_col + 1, span.end_line + 1, span.end_col + 1
