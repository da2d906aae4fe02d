"""Format rules: problems met while reading a document (front matter, malformed item IDs)."""

from __future__ import annotations

from collections.abc import Iterator

from ...model.document import Document
from ..context import CheckContext
from ..findings import Edit, Finding, Fix
from ..registry import document_check


@document_check("format/front-matter")
def front_matter(ctx: CheckContext, doc: Document) -> Iterator[Finding]:
    for p in doc.problems:
        if p.code == "format/front-matter":
            yield ctx.finding(p.code, doc.path, p.span, p.message)


@document_check("format/malformed-id")
def malformed_id(ctx: CheckContext, doc: Document) -> Iterator[Finding]:
    for p in doc.problems:
        if p.code == "format/malformed-id":
            bad = doc.line(p.span.start_line)[p.span.start_col:p.span.end_col]  # one section is split, not the text
            fix = Fix(f"Write the ID as {bad.upper()}", (Edit(doc.path, p.span, bad.upper()),))
            yield ctx.finding(p.code, doc.path, p.span, p.message, fixes=[fix])
