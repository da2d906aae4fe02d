"""sphinx-needs' ``needs.json``: export for ``needimport`` / ``needs_external_needs``, and import.

Export: one version (the package version of safereq is not the project's, so the version key is ``""``
unless given) whose ``needs`` map each ID to a need: ``type`` is the kind in lower case (``fsr``), ``title``,
``content`` (the statement, read by Sphinx as reStructuredText), ``status``; links as link options named
after the keys (``derived_from``, ``verified_by``, ``hazard``, ``safety_goal``); ASIL and every other
attribute as extra options (``asil``, ``safe_state``, ...); ``safereq_document``/``safereq_line`` say where
the item is written. docs/exchange.md shows the ``conf.py`` that declares those types and options.

Import: the records of the chosen version (``current_version`` by default). Fields that are neither a
safereq attribute nor a link nor sphinx-needs bookkeeping are reported, never dropped silently.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from .. import __version__
from ..model.ids import is_item_id, kind_prefix
from .errors import ImportProblem, InputError
from .records import LINK_KEYS, DocumentRecord, Record, all_records, attribute_labels, option_name

LINK_OPTIONS = {option_name(key): key for key in LINK_KEYS}
# Keys sphinx-needs writes about a need that carry no requirement content: ignored on import, silently.
_BOOKKEEPING = frozenset({
    "id", "type", "title", "content", "status", "links", "tags", "type_name", "type_prefix", "type_color",
    "type_style", "docname", "lineno", "lineno_content", "external_url", "external_css", "is_external",
    "is_import", "is_need", "is_part", "is_modified", "modifications", "section_name", "sections",
    "signature", "parent_need", "parent_needs", "parts", "doctype", "layout", "style", "template",
    "pre_template", "post_template", "collapse", "hide", "constraints", "constraints_passed",
    "constraints_results", "arch", "jinja_content", "has_dead_links", "has_forbidden_dead_links",
    "id_parent", "id_complete", "full_title", "max_amount", "max_content_lines", "url", "avatar",
    "safereq_document", "safereq_line", "safereq_source", "safereq_chapters", "content_id", "target_id",
    "prefix", "source_path", "section", "completion", "duration", "constraints_error", "pre_content",
    "post_content", "query", "has_forbidden_dead_links",
})


def need_dict(record: Record) -> dict[str, Any]:
    need: dict[str, Any] = {
        "id": record.id, "type": record.kind.lower(), "title": record.title or record.id,
        "content": record.text, "status": record.attributes.get("status"), "tags": [],
        "safereq_document": record.document, "safereq_line": str(record.line),
        "safereq_source": record.source, "safereq_chapters": " / ".join(record.chapters),
    }
    for key, value in record.attributes.items():
        if key != "status":
            need[option_name(key)] = value
    for option, key in LINK_OPTIONS.items():
        need[option] = list(record.links.get(key, ()))
    return need


def render(documents: list[DocumentRecord], project: str = "safereq", version: str = "") -> str:
    """The needs.json of the workspace; ``version`` keys the one version it holds."""
    now = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    needs: dict[str, Any] = {}
    for record in all_records(documents):
        needs.setdefault(record.id, need_dict(record))  # a duplicate ID: the first definition, as the checker
    body = {
        "created": now, "creator": {"name": "safereq", "program": "safereq", "version": __version__},
        "current_version": version, "project": project,
        "safereq_documents": {d.path: d.title for d in documents if d.records},
        "versions": {version: {"created": now, "needs": needs, "needs_amount": len(needs)}},
    }
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def extra_options() -> list[str]:
    """The extra options an exported file may carry, for a project's ``needs_extra_options``."""
    keys = [option_name(k) for k in attribute_labels() if k not in LINK_KEYS and k != "status"]
    return sorted({*keys, "safereq_document", "safereq_line", "safereq_source", "safereq_chapters"})


def parse(text: str, source: str, version: str | None = None) -> tuple[list[DocumentRecord], list[ImportProblem]]:
    """Records from a needs.json text, one document per need type; InputError when it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("versions"), dict) or not data["versions"]:
        raise InputError(f"{source}: not a sphinx-needs needs.json (no \"versions\" object)")
    versions = data["versions"]
    chosen = version if version is not None else data.get("current_version", "")
    if chosen not in versions:
        if version is not None:
            raise InputError(f"{source}: no version {version!r} (it has {', '.join(map(repr, versions))})")
        chosen = next(iter(versions))
    needs = versions[chosen].get("needs") if isinstance(versions[chosen], dict) else None
    if not isinstance(needs, dict):
        raise InputError(f"{source}: version {chosen!r} has no \"needs\" object")
    labels = attribute_labels()
    titles = data.get("safereq_documents") if isinstance(data.get("safereq_documents"), dict) else {}
    problems: list[ImportProblem] = []
    by_type: dict[str, list[Record]] = {}
    for key, need in needs.items():
        if not isinstance(need, dict):
            problems.append(ImportProblem(str(key), "not an object; skipped"))
            continue
        need_id = str(need.get("id") or key)
        record = Record(need_id, kind_prefix(need_id) or str(need.get("type", "")).upper(),
                        str(need.get("title") or ""), str(need.get("content") or "").strip("\n"),
                        str(need.get("safereq_document") or need.get("docname") or ""), 0,
                        tuple(c for c in str(need.get("safereq_chapters") or "").split(" / ") if c),
                        source=str(need.get("safereq_source") or "item"))
        if need.get("status"):
            record.attributes["status"] = str(need["status"])
        for field_name, value in need.items():
            if field_name in LINK_OPTIONS:
                targets = [str(t) for t in (value if isinstance(value, list) else [value]) if t]
                if targets:
                    record.links[LINK_OPTIONS[field_name]] = targets
            elif field_name.replace("_", "-") in labels and field_name.replace("_", "-") not in LINK_KEYS:
                if value not in (None, "", []):
                    record.attributes[field_name.replace("_", "-")] = str(value)
            elif field_name in _BOOKKEEPING or field_name.endswith("_back"):  # "_back": incoming links
                if field_name == "links" and value:
                    problems.append(ImportProblem(need_id, f"plain sphinx-needs links {value!r} have no safereq "
                                                           "meaning; kept as \"Derived from\""))
                    record.links.setdefault("derived-from", []).extend(str(v) for v in value)
                elif field_name == "tags" and value:
                    problems.append(ImportProblem(need_id, f"tags {value!r} not mapped (safereq has no tags)"))
            elif value not in (None, "", [], {}):
                record.extra[field_name] = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        group = record.document if need.get("safereq_document") else f"{need.get('type') or record.kind.lower()}.md"
        if not record.document:
            record.document = group
        by_type.setdefault(group, []).append(record)
    documents = [DocumentRecord(group, titles.get(group) or _title(group), records)
                 for group, records in by_type.items()]
    _rename_ids([r for d in documents for r in d.records], problems)
    return documents, problems


def _rename_ids(records: list[Record], problems: list[ImportProblem]) -> None:
    """Give needs whose IDs safereq cannot read as items (``req_12``, ``R 5``) IDs it can, links included:
    the upper-case form when that is one, else ``REQ-<n>``. Each renaming is reported."""
    taken = {r.id for r in records if is_item_id(r.id)}
    renamed: dict[str, str] = {}
    for number, record in enumerate(records, start=1):
        if is_item_id(record.id):
            continue
        upper = record.id.upper().replace(" ", "-")
        new = upper if is_item_id(upper) and upper not in taken else f"REQ-{number}"
        while new in taken:
            new += "-1"
        taken.add(new)
        renamed[record.id] = new
        problems.append(ImportProblem(new, f"need ID {record.id!r} is not an ID safereq reads; written as {new}"))
        record.extra.setdefault("sphinx-needs id", record.id)
        record.id, record.kind = new, kind_prefix(new)
    if renamed:
        for record in records:
            record.links = {key: [renamed.get(t, t) for t in targets] for key, targets in record.links.items()}


def _title(group: str) -> str:
    return group.rsplit("/", 1)[-1].removesuffix(".md").replace("-", " ").capitalize()
