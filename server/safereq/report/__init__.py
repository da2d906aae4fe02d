"""Output formats: findings as compiler-style text, a JSON array and SARIF 2.1.0, one module each; the
traceability report (``html``, ``coverage``).

Every format reports positions 1-based, with columns counted in Unicode code points (a tab, an emoji and a
Chinese character are each one column), and end positions exclusive: ``end_column`` is the column just
after the last character. SARIF alone converts columns to UTF-16 code units, as GitHub reads them.
"""

from __future__ import annotations

from ..model.ranges import Span

FORMATS = ("text", "json", "sarif")


def one_based(span: Span) -> tuple[int, int, int, int]:
    """(line, column, end_line, end_column), 1-based, end exclusive."""
    return span.start_line + 1, span.start_col + 1, span.end_line + 1, span.end_col + 1
