"""Read ReqIF and ReqIFz files (from safereq, DOORS, Polarion, ReqIF Studio, Capella, ...) into records.

Parsing is the ``reqif`` library's (loaded lazily); this module maps its model to safereq's: see
docs/exchange.md for the table. The mapping is by attribute *long name*, as the prostep guide names them:
``ReqIF.ForeignID`` → ID, ``ReqIF.Name`` → title, ``ReqIF.Text`` → statement, ``ReqIF.ChapterName`` → a
chapter heading; a long name that is a safereq attribute key or alias (``ASIL``, ``Status``, ``Safe
state``, ...) → that attribute; spec relations typed ``Derived from``, ``Verified by``, ``Hazard``,
``Safety goal`` or an alias (``Satisfies``, ``Refines``, ``Parent``) → links. Everything else is kept in
the item's table of foreign attributes and reported.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

from ..data import load_rules_yaml
from ..model.ids import is_item_id, kind_prefix
from ..model.vocabulary import load_vocabulary
from .errors import ImportProblem, InputError
from .markup import looks_like_html, xhtml_text
from .records import LINK_KEYS, DocumentRecord, Record, attribute_labels
from .reqif_files import read_bundles, schema_problem_of, short
from .reqif_io import DOC_PREFIX, FOREIGN_ID, KIND, NAME, SOURCE, TEXT, UNRESOLVED

_WORD_SPLIT_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[\s_.\-]+")


@cache
def _rules() -> dict[str, Any]:
    return load_rules_yaml("exchange.yaml")["reqif"]


def _strictdoc_string(value: str) -> str:
    """A string value as StrictDoc writes it: Python's ``unicode_escape`` of the text (a line break is
    ``\\n``, ``§`` is ``\\xa7``). StrictDoc also reads string values with ``unicode_escape``, which turns
    the UTF-8 of a file it imported into Latin-1 look-alikes (``§`` into ``Â§``); text that is exactly
    that (Latin-1 characters whose bytes are valid UTF-8) is given back its own characters."""
    if "\\" in value:
        try:
            value = value.encode("ascii", "backslashreplace").decode("unicode_escape")
        except UnicodeDecodeError:
            return value
    if value.isascii():
        return value
    try:
        return value.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return value


def _words(name: str) -> list[str]:
    return [w.casefold() for w in _WORD_SPLIT_RE.split(name.strip()) if w]


class _Mapper:
    """One ReqIF bundle to documents of records."""

    def __init__(self, bundle: Any, source: str, problems: list[ImportProblem]) -> None:
        self.bundle = bundle
        self.source = source
        self.problems = problems
        self.vocabulary = load_vocabulary()
        self.labels = attribute_labels()
        self.by_label = {label.casefold(): key for key, label in self.labels.items()}
        content = bundle.core_content.req_if_content if bundle.core_content else None
        if content is None:
            raise InputError(f"{source}: a ReqIF file without CORE-CONTENT: nothing to import")
        self.content = content
        self.definitions: dict[str, Any] = {}
        self.relation_types: dict[str, str] = {}
        self.type_names: dict[str, str] = {}
        for spec_type in content.spec_types or []:
            self.type_names[spec_type.identifier] = (spec_type.long_name or "").strip().casefold()
            for definition in getattr(spec_type, "attribute_definitions", None) or []:
                self.definitions[definition.identifier] = definition
            if type(spec_type).__name__ == "ReqIFSpecRelationType":
                self.relation_types[spec_type.identifier] = spec_type.long_name or spec_type.identifier
        self.enums: dict[str, dict[str, str]] = {}
        for datatype in content.data_types or []:
            values = getattr(datatype, "values_map", None)
            if values:
                self.enums[datatype.identifier] = {
                    ref: (v.long_name or v.key or ref) for ref, v in values.items()}
        self.ids: dict[str, str] = {}  # spec object identifier → safereq ID
        self._values: dict[str, dict[str, str]] = {}
        self.used: set[str] = set()
        header = bundle.req_if_header
        tools = " ".join(filter(None, (getattr(header, "req_if_tool_id", None), getattr(header, "source_tool_id", None))))
        self.strictdoc = "strictdoc" in tools.casefold()
        rules = _rules()
        self.heading_types = frozenset(rules["heading_types"])
        self.heading_attributes = frozenset(rules["heading_attributes"])
        # Unmapped attributes and relation types, reported once per name with the items they occur on.
        self.unmapped: dict[str, list[str]] = defaultdict(list)
        self.xhtml_names: set[str] = set()  # long names of XHTML attributes: rich text, the statement's type

    def _value(self, attribute: Any) -> str:
        definition = self.definitions.get(attribute.definition_ref)
        kind = attribute.attribute_type.name
        if kind == "XHTML":
            return xhtml_text(attribute.value if isinstance(attribute.value, str) else "")
        if kind == "ENUMERATION":
            names = self.enums.get(getattr(definition, "datatype_definition", ""), {})
            refs = attribute.value if isinstance(attribute.value, list) else [attribute.value]
            return ", ".join(names.get(ref, ref) for ref in refs)
        value = "" if attribute.value is None else str(attribute.value)
        if kind == "STRING":
            if self.strictdoc:
                value = _strictdoc_string(value)
            if looks_like_html(value):
                return xhtml_text(value)  # HTML held in a string (StrictDoc's HTML markup, some exporters)
        return value

    def values(self, spec_object: Any) -> dict[str, str]:
        """The object's attribute values by definition long name (the identifier when it has none); a
        copy, read once per object (XHTML to text is the costly part)."""
        cached = self._values.get(spec_object.identifier)
        if cached is None:
            cached = self._values[spec_object.identifier] = self._read_values(spec_object)
        return dict(cached)

    def _read_values(self, spec_object: Any) -> dict[str, str]:
        out: dict[str, str] = {}
        for attribute in spec_object.attributes:
            definition = self.definitions.get(attribute.definition_ref)
            name = (getattr(definition, "long_name", None) or attribute.definition_ref).strip()
            out[name] = self._value(attribute)
            if attribute.attribute_type.name == "XHTML":
                self.xhtml_names.add(name)
        return out

    def _id(self, spec_object: Any, values: dict[str, str], number: int) -> str:
        foreign = values.get(FOREIGN_ID, "").strip()
        named = [v.strip() for k, v in values.items() if k.casefold() in _rules()["id_attributes"]]
        candidates = [foreign, *named, spec_object.identifier, spec_object.long_name or ""]
        for candidate in candidates:
            if candidate and is_item_id(candidate) and candidate not in self.used:
                return candidate
        digits = re.sub(r"\D", "", foreign) or str(number)
        made = f"REQ-{digits}"
        while made in self.used:
            made += "-1"
        original = foreign or spec_object.identifier
        self.renamed.append((original, made))
        return made

    def assign_ids(self) -> None:
        self.renamed: list[tuple[str, str]] = []
        for number, spec_object in enumerate(self.content.spec_objects or [], start=1):
            values = self.values(spec_object)
            if self._is_chapter(spec_object, values):
                continue
            item_id = self._id(spec_object, values, number)
            self.used.add(item_id)
            self.ids[spec_object.identifier] = item_id
        for original, made in self.renamed[:5]:
            self.problems.append(ImportProblem(made, f"{original!r} is not an ID safereq reads; written as {made} "
                                                     "(the original is kept as 'ReqIF identifier')"))
        if len(self.renamed) > 5:
            self.problems.append(ImportProblem(self.source, f"{len(self.renamed) - 5} more objects whose IDs safereq "
                                                            "cannot read were written as REQ-<n> in the same way"))

    def _heading(self, values: dict[str, str]) -> str:
        """The text of the object's heading attribute (``ReqIF.ChapterName``, DOORS' "Object Heading")."""
        for name, value in values.items():
            if name.casefold() in self.heading_attributes and value.strip():
                return value
        return ""

    def _is_chapter(self, spec_object: Any, values: dict[str, str]) -> bool:
        """A heading: an object of a heading type (Polarion, ReqIF Studio), or one with a heading text and
        no statement (DOORS, ProR, Capella, safereq), whether or not it has a foreign ID."""
        if self.type_names.get(spec_object.spec_object_type) in self.heading_types:
            return True
        return bool(self._heading(values).strip()) and not self._text(values, remove=False).strip()

    def record(self, spec_object: Any, document: str, chapters: tuple[str, ...]) -> Record:
        values = self.values(spec_object)
        item_id = self.ids[spec_object.identifier]
        text = self._text(values, remove=True)
        title = values.pop(NAME, "") or self._pop_heading(values) or (spec_object.long_name or "")
        title = " ".join(title.split()) or _first_sentence(text)
        values.pop(FOREIGN_ID, None)
        values.pop(KIND, None)
        for name in [k for k, v in values.items() if k.casefold() in _rules()["id_attributes"] and v.strip() == item_id]:
            del values[name]  # the ID attribute the item's ID was taken from
        source = values.pop(SOURCE, "item") or "item"
        record = Record(item_id, kind_prefix(item_id), title, text.strip("\n"), document, 0, chapters,
                        source="hara" if source == "hara" else "item")
        if item_id != spec_object.identifier and not spec_object.identifier.startswith("safereq."):
            record.extra["ReqIF identifier"] = spec_object.identifier
        unresolved = values.pop(UNRESOLVED, "") or ""
        for link in unresolved.split(";"):
            key, _, target = link.partition(":")
            if key.strip() in LINK_KEYS and is_item_id(target.strip()):
                record.links.setdefault(key.strip(), []).append(target.strip())
            elif link.strip():
                record.extra[UNRESOLVED] = unresolved
                self.unmapped[f"attribute {UNRESOLVED!r} (a value that is not 'key: ID')"].append(item_id)
        for name, value in values.items():
            if not value.strip():
                continue
            key = self._key(name)
            if key is not None and key not in LINK_KEYS:
                record.attributes[key] = value
            else:
                record.extra[name] = value
                self.unmapped[f"attribute {name!r}"].append(item_id)
        return record

    def _pop_heading(self, values: dict[str, str]) -> str:
        for name in list(values):
            if name.casefold() in self.heading_attributes and values[name].strip():
                return values.pop(name)
        return ""

    def _text(self, values: dict[str, str], remove: bool) -> str:
        """The statement: ``ReqIF.Text``, else the attribute that holds the text in other tools' files (DOORS'
        "Object Text", "RichText"/"PlainText", Enterprise Architect's "...-TXT", a "Description"): a name
        whose last word (split at CamelCase, '_', '-', '.', blanks) is "text" or "txt", or a name of
        rules/exchange.yaml. The most preferred non-empty one wins; without any, the object's one XHTML value
        if it has exactly one (rich text is what tools hold statements in). ``remove`` takes it out of
        ``values``."""
        rules = _rules()
        candidates = []
        for name, value in values.items():
            words = _words(name)
            if not words or not value.strip():
                continue
            if name == TEXT or words[-1] in rules["text_suffixes"] or " ".join(words) in rules["text_names"]:
                folded = name.casefold()
                rank = next((i for i, p in enumerate(rules["text_preference"]) if folded == p), len(rules["text_preference"]))
                candidates.append((rank, name))
        if not candidates:
            rich = [n for n, v in values.items() if n in self.xhtml_names and v.strip()
                    and n.casefold() not in self.heading_attributes]
            if len(rich) == 1:
                return values.pop(rich[0]) if remove else values[rich[0]]
            if remove:
                values.pop(TEXT, None)
            return ""
        name = min(candidates)[1]
        return values.pop(name) if remove else values[name]

    def _key(self, name: str) -> str | None:
        key = self.by_label.get(name.casefold())
        if key is None:
            spec = self.vocabulary.attribute_key(name)
            key = spec.key if spec else None
        return key

    def documents(self) -> list[DocumentRecord]:
        self.assign_ids()
        records: dict[str, Record] = {}
        out: list[DocumentRecord] = []
        for number, spec in enumerate(self.content.specifications or [], start=1):
            title = (spec.long_name or "").strip() or f"Specification {number}"
            desc = spec.description or ""
            path = desc[len(DOC_PREFIX):] if desc.startswith(DOC_PREFIX) else _slug(title) + ".md"
            doc_records: list[Record] = []
            stack: list[tuple[int, str]] = []
            headings = 0
            for node in self.bundle.iterate_specification_hierarchy(spec):
                try:
                    spec_object = self.bundle.get_spec_object_by_ref(node.spec_object)
                except KeyError:
                    spec_object = None
                if spec_object is None:
                    self.problems.append(ImportProblem(title, f"hierarchy names a missing spec object {node.spec_object!r}"))
                    continue
                while stack and stack[-1][0] >= node.level:
                    stack.pop()
                if spec_object.identifier not in self.ids:
                    values = self.values(spec_object)
                    name = self._heading(values).strip() or values.get(NAME, "").strip() \
                        or self._text(values, remove=False).strip() or (spec_object.long_name or "").strip() \
                        or "Chapter"
                    stack.append((node.level, " ".join(name.split())))
                    headings += 1
                    continue
                if spec_object.identifier in records:
                    continue  # the same object shown twice in the hierarchy: written once
                record = self.record(spec_object, path, tuple(text for _level, text in stack))
                records[spec_object.identifier] = record
                doc_records.append(record)
            if not doc_records:
                what = f"no items, only {headings} heading{'s' * (headings != 1)}" if headings else "empty"
                self.problems.append(ImportProblem(title, f"specification is {what}; no document written"))
            out.append(DocumentRecord(path, title, doc_records))
        loose = [o for o in self.content.spec_objects or [] if o.identifier in self.ids and o.identifier not in records]
        if loose:
            doc = DocumentRecord("unplaced.md", "Objects in no specification", [])
            for spec_object in loose:
                record = self.record(spec_object, doc.path, ())
                records[spec_object.identifier] = record
                doc.records.append(record)
            out.append(doc)
        self._relations(records)
        self._report_unmapped()
        return out

    def _report_unmapped(self) -> None:
        """One line per unmapped attribute or relation type, naming how many items hold it and the first few
        (a file of thousands of objects gives a readable list, not one line per value)."""
        for what, where in self.unmapped.items():
            unique = list(dict.fromkeys(where))
            shown = ", ".join(unique[:5]) + (f" and {len(unique) - 5} more" if len(unique) > 5 else "")
            self.problems.append(ImportProblem(shown, f"{what} has no safereq meaning; kept in the table of foreign "
                                                      f"attributes of {len(unique)} item{'s' * (len(unique) != 1)}"))

    def _relations(self, records: dict[str, Record]) -> None:
        self.not_between_items: dict[str, int] = defaultdict(int)
        for relation in self.content.spec_relations or []:
            name = self.relation_types.get(relation.relation_type_ref, relation.relation_type_ref)
            source, target = records.get(relation.source), records.get(relation.target)
            if source is None or target is None:
                self.not_between_items[name] += 1
                continue
            key = self._key(name)
            if key in LINK_KEYS:
                targets = source.links.setdefault(key, [])
                if target.id not in targets:
                    targets.append(target.id)
            else:
                label = f"Relation {name}"
                source.extra[label] = ", ".join(filter(None, [source.extra.get(label, ""), target.id]))
                self.unmapped[f"relation type {name!r}"].append(source.id)
        for name, count in self.not_between_items.items():
            self.problems.append(ImportProblem(self.source, f"{count} relation{'s' * (count != 1)} {name!r} between "
                                                            "objects that are not items (chapters, missing objects); "
                                                            "not mapped"))


def _first_sentence(text: str, limit: int = 80) -> str:
    """A title for an object that has none (DOORS objects often have text only): its first sentence."""
    flat = " ".join(text.split())
    m = re.match(r"(.+?[.!?。])(?:\s|$)", flat)
    sentence = m.group(1) if m else flat
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


def _slug(title: str) -> str:
    slug = re.sub(r"[^\w]+", "-", title.casefold(), flags=re.UNICODE).strip("-")
    return slug[:60] or "specification"


def parse_file(path: Path, archive: bool | None = None) -> tuple[list[DocumentRecord], list[ImportProblem]]:
    """Records of a ``.reqif`` file, or of a ``.reqifz`` archive (``archive``; default: by the suffix);
    InputError for a file that is not readable ReqIF."""
    problems: list[ImportProblem] = []
    source = str(path)
    documents: list[DocumentRecord] = []
    for bundle in read_bundles(path, archive, problems):
        for exc in getattr(bundle, "exceptions", None) or []:
            problems.append(ImportProblem(source, f"ReqIF schema: {short(exc)}"))
        try:
            documents += _Mapper(bundle, source, problems).documents()
        except InputError:
            raise
        except (AttributeError, KeyError, TypeError, AssertionError, ValueError, NotImplementedError) as exc:
            problem = schema_problem_of(path) if not archive and path.suffix.lower() != ".reqifz" else None
            detail = f"not valid ReqIF: {problem}" if problem else \
                f"ReqIF content safereq cannot map: {type(exc).__name__}: {short(exc)}"
            raise InputError(f"{source}: {detail}") from None
    return documents, problems
