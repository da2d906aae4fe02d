"""``safereq diff`` output: plain text for the terminal, JSON for tools, Markdown for a pull request."""

from __future__ import annotations

import json
from typing import Any

from ..model.printable import printable
from .diff import ItemChange, WorkspaceDiff
from .snapshot import field_label

WIDTH = 80


def _cut(value: str | None, width: int = WIDTH) -> str:
    if value is None:
        return "(none)"
    return value if len(value) <= width else value[: width - 1] + "…"


def to_json(d: WorkspaceDiff, old_rev: str, new_rev: str) -> dict[str, Any]:
    def item(c: ItemChange) -> dict[str, Any]:
        out: dict[str, Any] = {"id": c.id, "path": c.path}
        if c.renamed_from:
            out["renamed_from"] = c.renamed_from
        if c.fields:
            out["changes"] = [{"field": k, "old": o, "new": n} for k, o, n in c.fields]
        if c.old is not None and c.new is not None:
            out["relevant"] = c.relevant
        return out

    return {
        "from": old_rev, "to": new_rev,
        "added": [item(c) for c in d.added],
        "removed": [item(c) for c in d.removed],
        "changed": [item(c) for c in d.changed],
        "renamed": [item(c) for c in d.renamed],
        "asil_changes": [{"id": i, "old": o, "new": n} for i, o, n in d.asil_changes],
        "links_added": [{"from": l.holder, "key": l.key, "to": l.target, "path": l.path} for l in d.links_added],
        "links_removed": [{"from": l.holder, "key": l.key, "to": l.target, "path": l.path} for l in d.links_removed],
        "impact": [{"id": i.item.id, "path": i.item.path, "line": i.item.line + 1, "source": i.source,
                    "via": list(i.via), "reviewed": i.reviewed} for i in d.impact],
    }


def render_json(d: WorkspaceDiff, old_rev: str, new_rev: str) -> str:
    return json.dumps(to_json(d, old_rev, new_rev), indent=2, ensure_ascii=False) + "\n"


def _summary(d: WorkspaceDiff) -> str:
    pending = sum(1 for i in d.impact if not i.reviewed)
    parts = [f"{len(d.added)} added", f"{len(d.removed)} removed", f"{len(d.changed)} changed",
             f"{len(d.renamed)} renamed", f"{len(d.links_added)} links added", f"{len(d.links_removed)} removed",
             f"{pending} downstream item{'s' if pending != 1 else ''} to review"]
    return ", ".join(parts)


def render_text(d: WorkspaceDiff, old_rev: str, new_rev: str) -> str:
    if d.empty:
        return f"no requirement changes between {old_rev} and {new_rev}\n"
    out = [f"{old_rev} → {new_rev}: {_summary(d)}"]
    for c in d.added:
        out.append(f"  + {c.id}  {c.path}  {_cut(c.new.title.strip(), 60)}")  # type: ignore[union-attr]
    for c in d.removed:
        out.append(f"  - {c.id}  {c.path}  {_cut(c.old.title.strip(), 60)}")  # type: ignore[union-attr]
    for c in d.renamed:
        out.append(f"  R {c.renamed_from} → {c.id}  {c.path}")
        out += [f"      {field_label(k)}: {_cut(o)} → {_cut(n)}" for k, o, n in c.fields]
    for c in d.changed:
        out.append(f"  ~ {c.id}  {c.path}" + ("" if c.relevant else "  (no downstream impact)"))
        out += [f"      {field_label(k)}: {_cut(o)} → {_cut(n)}" for k, o, n in c.fields]
    for l in d.links_added:
        out.append(f"  + link {l.holder} {field_label(l.key)} {l.target}")
    for l in d.links_removed:
        out.append(f"  - link {l.holder} {field_label(l.key)} {l.target}")
    if d.impact:
        out.append("impact (downstream of a change):")
        for i in d.impact:
            state = "reviewed" if i.reviewed else "needs review"
            out.append(f"  {i.item.id}  {i.item.path}:{i.item.line + 1}  via {' → '.join(i.via)}  [{state}]")
    return printable("\n".join(out) + "\n")  # titles and values are the documents' own text


def _md(text: str) -> str:
    """A table cell: pipes and line ends escaped, so model or user text cannot break the table."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("`", "'")


def render_markdown(d: WorkspaceDiff, old_rev: str, new_rev: str) -> str:
    out = [f"### Requirement changes `{_md(old_rev)}` → `{_md(new_rev)}`", "", _summary(d) + ".", ""]
    if d.empty:
        return "\n".join(out[:2] + ["No requirement changes.", ""])
    rows = ([("added", c.id, c.path, _cut(c.new.title.strip(), 60)) for c in d.added]  # type: ignore[union-attr]
            + [("removed", c.id, c.path, _cut(c.old.title.strip(), 60)) for c in d.removed]  # type: ignore[union-attr]
            + [("renamed", f"{c.renamed_from} → {c.id}", c.path, "; ".join(
                f"{field_label(k)}: {_cut(o, 40)} → {_cut(n, 40)}" for k, o, n in c.fields) or "ID only")
               for c in d.renamed]
            + [("changed", c.id, c.path, "; ".join(f"{field_label(k)}: {_cut(o, 40)} → {_cut(n, 40)}"
                                                  for k, o, n in c.fields)) for c in d.changed])
    if rows:
        out += ["| change | item | document | what |", "|---|---|---|---|"]
        out += [f"| {a} | {_md(b)} | {_md(p)} | {_md(w)} |" for a, b, p, w in rows]
        out.append("")
    if d.asil_changes:
        out += ["**ASIL changes:** " + ", ".join(f"{_md(i)} {_md(o or '(none)')} → {_md(n or '(none)')}"
                                                 for i, o, n in d.asil_changes), ""]
    links = [("+", l) for l in d.links_added] + [("−", l) for l in d.links_removed]
    if links:
        out += ["**Links:** " + ", ".join(f"{s} {_md(l.holder)} {field_label(l.key)} {_md(l.target)}" for s, l in links), ""]
    if d.impact:
        out += ["#### Impact", "", "| item | document | via | review |", "|---|---|---|---|"]
        out += [f"| {_md(i.item.id)} | {_md(i.item.path)}:{i.item.line + 1} | {_md(' → '.join(i.via))} | "
                f"{'reviewed' if i.reviewed else '**needs review**'} |" for i in d.impact]
        out.append("")
    return "\n".join(out)
