"""Format rules: problems met while reading a document (front matter, malformed item IDs)."""

from __future__ import annotations

import weakref
from collections.abc import Iterator

from ..model.document import Document, Problem
from ..workspace import Workspace
from .engine import CheckContext
from .findings import Edit, Finding, Fix
from .registry import document_check


@document_check("format/front-matter")
def front_matter(ctx: CheckContext, doc: Document) -> Iterator[Finding]:
    for p in doc.problems:
        if p.code == "format/front-matter":
            yield ctx.finding(p.code, doc.path, p.span, p.message)


# The written ID of each malformed-ID problem, by workspace and path. Reading it needs the document's lines,
# and splitting a large document costs more than the rest of the rule on every edit; the parser reuses a
# problem (the same object) while its section is unchanged and in place, so the text is kept per problem.
_WRITTEN: weakref.WeakKeyDictionary[Workspace, dict[str, dict[int, tuple[Problem, str]]]] = weakref.WeakKeyDictionary()


@document_check("format/malformed-id")
def malformed_id(ctx: CheckContext, doc: Document) -> list[Finding]:
    by_path = _WRITTEN.setdefault(ctx.workspace, {})
    known = by_path.get(doc.path, {})
    current: dict[int, tuple[Problem, str]] = {}
    out = []
    for p in doc.problems:
        if p.code != "format/malformed-id":
            continue
        hit = known.get(id(p))
        if hit is not None and hit[0] is p:
            bad = hit[1]
        else:
            bad = doc.line(p.span.start_line)[p.span.start_col:p.span.end_col]
        current[id(p)] = (p, bad)
        fix = Fix(f"Write the ID as {bad.upper()}", (Edit(doc.path, p.span, bad.upper()),))
        out.append(ctx.finding(p.code, doc.path, p.span, p.message, fixes=[fix]))
    by_path[doc.path] = current
    return out
