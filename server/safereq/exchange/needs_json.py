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
import re
from collections import defaultdict
from datetime import datetime, timezone
from typing import Any

from .. import __version__
from ..data import load_rules_yaml
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


def _docname(path: str) -> str:
    """The Sphinx document name of a safereq document (``docs/fsr.md`` → ``docs/fsr``): sphinx-needs makes an
    external need's link ``<base_url>/<docname>.html#<ID>`` from it (without one: ``__error__.html``)."""
    stem, dot, suffix = path.rpartition(".")
    return stem if dot and suffix.lower() in ("md", "markdown") else path


def need_dict(record: Record) -> dict[str, Any]:
    need: dict[str, Any] = {
        "id": record.id, "type": record.kind.lower(), "title": record.title or record.id,
        "content": record.text, "status": record.attributes.get("status"), "tags": [],
        "docname": _docname(record.document),
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


# Deeper than this, a needs.json is not one (sphinx-needs writes five levels); refused with a message
# rather than walked, so that no nesting can exhaust the stack.
_MAX_DEPTH = 64
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_CONDITION_RE = re.compile(r"([^\[\]]+)(\[.*\])")


def _load(text: str, source: str) -> Any:
    """The JSON value of ``text``; InputError saying what is wrong (syntax, nesting, a huge number)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise InputError(f"{source}: JSON nested too deeply to be a needs.json") from None
    except ValueError as exc:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise InputError(f"{source}: not a needs.json safereq reads: {' '.join(str(exc).split())[:160]}") from None


def _check_depth(value: Any, source: str) -> None:
    """InputError when ``value`` nests deeper than ``_MAX_DEPTH`` (walked without recursion)."""
    stack = [(value, 0)]
    while stack:
        current, depth = stack.pop()
        if depth > _MAX_DEPTH:
            raise InputError(f"{source}: JSON nested more than {_MAX_DEPTH} levels deep; not a needs.json")
        if isinstance(current, dict):
            stack.extend((v, depth + 1) for v in current.values())
        elif isinstance(current, list):
            stack.extend((v, depth + 1) for v in current)


class _Reader:
    """One need's fields as text, with what is not text, or not valid Unicode, reported."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        self.problems = problems

    def text(self, need_id: str, field_name: str, value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            out = "true" if value else "false"
        elif isinstance(value, (int, float)):
            out = str(value)
        elif isinstance(value, str):
            out = value
        else:
            out = json.dumps(value, ensure_ascii=False)
            self.problems.append(ImportProblem(need_id, f"field {field_name!r} is a JSON {type(value).__name__}, not "
                                                        "text; written as JSON"))
        if _SURROGATE_RE.search(out):
            self.problems.append(ImportProblem(need_id, f"field {field_name!r} holds characters that are not valid "
                                                        "Unicode (lone surrogates); written as U+FFFD"))
            out = _SURROGATE_RE.sub("\ufffd", out)
        return out

    def targets(self, need_id: str, field_name: str, value: Any) -> list[str]:
        """Link targets: a list of IDs (or one ID); anything else is reported and left out."""
        values = value if isinstance(value, list) else [value] if value not in (None, "") else []
        out = []
        for target in values:
            text = self.text(need_id, field_name, target).strip() if isinstance(target, (str, int)) else ""
            condition = _CONDITION_RE.fullmatch(text)
            if condition:  # sphinx-needs' link condition, 'REQ_1[status=="open"]': safereq links have none
                self.problems.append(ImportProblem(need_id, f"link {field_name!r} to {condition.group(1)} has a "
                                                            f"condition {condition.group(2)!r}; linked without it"))
                text = condition.group(1)
            if text:
                out.append(text)
            elif target not in (None, ""):
                self.problems.append(ImportProblem(need_id, f"link {field_name!r} holds a JSON "
                                                            f"{type(target).__name__}, not an ID; left out"))
        return out


def _text_of(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _content(read: _Reader, need_id: str, need: dict[str, Any]) -> str:
    """The statement: ``content``, else ``description`` (what sphinx-needs wrote before 1.0)."""
    content = read.text(need_id, "content", need.get("content")).strip("\n")
    if content.strip():
        return content
    return read.text(need_id, "description", need.get("description")).strip("\n")


def parse(text: str, source: str, version: str | None = None) -> tuple[list[DocumentRecord], list[ImportProblem]]:
    """Records from a needs.json text, one document per need type; InputError when it is not one."""
    data = _load(text, source)
    if not isinstance(data, dict) or not isinstance(data.get("versions"), dict) or not data["versions"]:
        raise InputError(f"{source}: not a sphinx-needs needs.json (no \"versions\" object)")
    _check_depth(data, source)
    versions = data["versions"]
    current = data.get("current_version", "")
    chosen = version if version is not None else current if isinstance(current, str) else ""
    if chosen not in versions:
        if version is not None:
            raise InputError(f"{source}: no version {version!r} (it has {', '.join(map(repr, versions))})")
        chosen = next(iter(versions))
    needs = versions[chosen].get("needs") if isinstance(versions[chosen], dict) else None
    if not isinstance(needs, dict):
        raise InputError(f"{source}: version {chosen!r} has no \"needs\" object")
    labels = attribute_labels()
    inverse = load_rules_yaml("exchange.yaml")["needs_json"]["inverse_links"]
    titles = data.get("safereq_documents") if isinstance(data.get("safereq_documents"), dict) else {}
    problems: list[ImportProblem] = []
    read = _Reader(problems)
    unmapped: dict[str, list[str]] = defaultdict(list)
    inverse_links: list[tuple[str, str, str]] = []  # (target, safereq key, source need)
    by_type: dict[str, list[Record]] = {}
    for key, need in needs.items():
        if not isinstance(need, dict):
            problems.append(ImportProblem(read.text(key, "id", key), "not an object; skipped"))
            continue
        need_id = read.text(key, "id", need.get("id") if isinstance(need.get("id"), (str, int)) else key).strip() \
            or read.text(key, "id", key)
        need_type = read.text(need_id, "type", need.get("type"))
        document = read.text(need_id, "safereq_document", need.get("safereq_document"))
        chapters = read.text(need_id, "safereq_chapters", need.get("safereq_chapters"))
        record = Record(need_id, kind_prefix(need_id) or need_type.upper(),
                        read.text(need_id, "title", need.get("title")), _content(read, need_id, need),
                        document or read.text(need_id, "docname", need.get("docname")), 0,
                        tuple(c for c in chapters.split(" / ") if c),
                        source="hara" if need.get("safereq_source") == "hara" else "item")
        status = read.text(need_id, "status", need.get("status"))
        if status:
            record.attributes["status"] = status
        for field_name, value in need.items():
            attribute = field_name.replace("_", "-")
            if field_name in LINK_OPTIONS:
                targets = read.targets(need_id, field_name, value)
                if targets:
                    record.links[LINK_OPTIONS[field_name]] = targets
            elif field_name in inverse:
                for target in read.targets(need_id, field_name, value):
                    inverse_links.append((target, inverse[field_name], need_id))
            elif attribute in labels and attribute not in LINK_KEYS:
                if value not in (None, "", []):
                    record.attributes[attribute] = read.text(need_id, field_name, value)
            elif field_name in _BOOKKEEPING or field_name.endswith("_back"):  # "_back": incoming links
                if field_name == "links" and value:
                    targets = read.targets(need_id, field_name, value)
                    problems.append(ImportProblem(need_id, f"plain sphinx-needs links {targets!r} have no safereq "
                                                           "meaning; kept as \"Derived from\""))
                    record.links.setdefault("derived-from", []).extend(targets)
                elif field_name == "tags" and value:
                    problems.append(ImportProblem(need_id, f"tags {value!r} not mapped "
                                                           "(safereq has no tags)"))
            elif field_name == "description" and not _text_of(need.get("content")):
                continue  # it is the statement (see _content)
            elif value not in (None, "", [], {}):
                record.extra[field_name] = read.text(need_id, field_name, value) if isinstance(value, str) \
                    else json.dumps(value, ensure_ascii=False)
                what = "link type" if f"{field_name}_back" in need else "field"
                unmapped[f"{what} {field_name!r}"].append(need_id)
        group = record.document if document else f"{need_type or record.kind.lower()}.md"
        if not record.document:
            record.document = group
        by_type.setdefault(group, []).append(record)
    records = {r.id: r for rs in by_type.values() for r in rs}
    for target, link_key, need_id in inverse_links:
        holder = records.get(target)
        if holder is None:
            problems.append(ImportProblem(need_id, f"links to {target!r}, which the file does not define; the "
                                                   f"inverse link ({link_key}) is left out"))
            continue
        targets = holder.links.setdefault(link_key, [])
        if need_id not in targets:
            targets.append(need_id)
    for what, where in unmapped.items():
        unique = list(dict.fromkeys(where))
        shown = ", ".join(unique[:5]) + (f" and {len(unique) - 5} more" if len(unique) > 5 else "")
        problems.append(ImportProblem(shown, f"{what} has no safereq meaning; kept in the table of foreign "
                                             f"attributes of {len(unique)} need{'s' * (len(unique) != 1)}"))
    documents = [DocumentRecord(group, read.text(group, "safereq_documents", titles.get(group)) or _title(group),
                                records) for group, records in by_type.items()]
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
    labels = attribute_labels()
    for record in records:
        links: dict[str, list[str]] = {}
        for key, targets in record.links.items():
            for target in (renamed.get(t, t) for t in targets):
                if is_item_id(target):
                    links.setdefault(key, []).append(target)
                else:  # not an ID: it cannot be a link; kept as text and named
                    label = f"{labels.get(key, key)} (not an ID)"
                    record.extra[label] = ", ".join(filter(None, [record.extra.get(label, ""), target]))
                    problems.append(ImportProblem(record.id, f"link target {target!r} is not an ID; kept in the "
                                                             "table of foreign attributes"))
        record.links = links


def _title(group: str) -> str:
    return group.rsplit("/", 1)[-1].removesuffix(".md").replace("-", " ").capitalize()
