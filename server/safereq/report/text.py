"""Compiler-style text: ``path:line:col: severity [rule] message``, one finding a line.

Editors and CI log parsers already understand this shape (it is what gcc and most linters print), so a
quickfix list or a problem matcher needs no safereq-specific pattern. Related places follow as ``note``
lines, the way compilers explain an error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..checks.findings import Finding, Severity
from ..model.printable import printable
from . import one_based


def render(findings: Iterable[Finding]) -> str:
    lines = []
    for f in findings:
        line, col, _, _ = one_based(f.span)
        lines.append(printable(f"{f.path}:{line}:{col}: {f.severity.label} [{f.rule}] {_one_line(f.message)}"))
        for rel in f.related:
            rline, rcol, _, _ = one_based(rel.span)
            lines.append(printable(f"{rel.path}:{rline}:{rcol}: note: {_one_line(rel.message)}"))
    return "".join(line + "\n" for line in lines)


def _one_line(text: str) -> str:
    """Messages never span lines in this format, so a line-based parser sees one record per finding."""
    return " ".join(text.split())


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else ('es' if word.endswith('x') else 's')}"


def summary(findings: Sequence[Finding], files: int, *, fixed: int | None = None, fixable: int = 0,
            accepted: int = 0, baselined: int = 0) -> str:
    """``N errors, M warnings in K files`` (notes counted when present), plus what --fix did or could do, and
    how many findings were left out as accepted deviations or as known in the baseline."""
    by = {s: sum(1 for f in findings if f.severity == s) for s in Severity}
    parts = [_count(by[Severity.ERROR], "error"), _count(by[Severity.WARNING], "warning")]
    notes = by[Severity.INFO] + by[Severity.HINT]
    if notes:
        parts.append(_count(notes, "note"))
    text = f"{', '.join(parts)} in {_count(files, 'file')}"
    if fixed is not None:
        text += f"; {_count(fixed, 'fix')} applied"
    if fixable:
        text += f" ({fixable} fixable with --fix)" if fixed is None else f"; {fixable} fixable left"
    if accepted:
        text += f"; {accepted} accepted as deviations"
    if baselined:
        text += f"; {baselined} in the baseline"
    return text
