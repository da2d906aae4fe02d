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

import html
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any

from ..model.ids import is_item_id, kind_prefix
from ..model.vocabulary import load_vocabulary
from .errors import ImportProblem, InputError
from .records import LINK_KEYS, DocumentRecord, Record, attribute_labels
from ..workspace.unpack import TooLargeUnpacked, check_zip
from .reqif_io import CHAPTER, DOC_PREFIX, FOREIGN_ID, KIND, NAME, SOURCE, TEXT, UNRESOLVED

_HEADING_TYPES = frozenset({"heading", "chapter", "section", "headline", "title"})
_BLOCK = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}


def xhtml_text(markup: str) -> str:
    """Plain text of an XHTML value: a paragraph per block element, a line break per ``<br/>``."""
    # Tools bind the XHTML namespace to different prefixes (xhtml:, reqif-xhtml:, html:) or declare it on
    # the root element only, so prefixes are dropped before parsing the fragment on its own.
    plain = re.sub(r"<(/?)[A-Za-z_][\w.-]*:", r"<\1", markup)
    plain = re.sub(r"\s+xmlns(?::[\w.-]+)?=\"[^\"]*\"", "", plain)
    try:
        root = ET.fromstring(f"<wrap>{plain}</wrap>")
    except ET.ParseError:
        return html.unescape(re.sub(r"<[^>]+>", "", plain)).strip()
    paragraphs: list[str] = []
    current: list[str] = []

    def flush() -> None:
        text = "".join(current).strip()
        if text:
            paragraphs.append("\n".join(line.strip() for line in text.split("\n")))
        current.clear()

    def walk(element: ET.Element) -> None:
        tag = element.tag.rsplit("}", 1)[-1].lower()
        if tag in _BLOCK:
            flush()
        if tag == "br":
            current.append("\n")
        if element.text:
            current.append(re.sub(r"\s+", " ", element.text))
        for child in element:
            walk(child)
            if child.tail:
                current.append(re.sub(r"\s+", " ", child.tail))
        if tag in _BLOCK:
            flush()

    walk(root)
    flush()
    return "\n\n".join(p.replace(" \n", "\n").replace("\n ", "\n") for p in paragraphs)


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

    def _value(self, attribute: Any) -> str:
        definition = self.definitions.get(attribute.definition_ref)
        kind = attribute.attribute_type.name
        if kind == "XHTML":
            return xhtml_text(attribute.value if isinstance(attribute.value, str) else "")
        if kind == "ENUMERATION":
            names = self.enums.get(getattr(definition, "datatype_definition", ""), {})
            refs = attribute.value if isinstance(attribute.value, list) else [attribute.value]
            return ", ".join(names.get(ref, ref) for ref in refs)
        return "" if attribute.value is None else str(attribute.value)

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
        return out

    def _id(self, spec_object: Any, values: dict[str, str], number: int) -> str:
        foreign = values.get(FOREIGN_ID, "").strip()
        candidates = [foreign, spec_object.identifier, spec_object.long_name or ""]
        for candidate in candidates:
            if candidate and is_item_id(candidate) and candidate not in self.used:
                return candidate
        digits = re.sub(r"\D", "", foreign) or str(number)
        made = f"REQ-{digits}"
        while made in self.used:
            made += "-1"
        original = foreign or spec_object.identifier
        self.problems.append(ImportProblem(made, f"{original!r} is not an ID safereq reads; written as {made} "
                                                 "(the original is kept as 'ReqIF identifier')"))
        return made

    def assign_ids(self) -> None:
        for number, spec_object in enumerate(self.content.spec_objects or [], start=1):
            values = self.values(spec_object)
            if self._is_chapter(spec_object, values):
                continue
            item_id = self._id(spec_object, values, number)
            self.used.add(item_id)
            self.ids[spec_object.identifier] = item_id

    def _is_chapter(self, spec_object: Any, values: dict[str, str]) -> bool:
        """A heading: an object of a heading type (Polarion, ReqIF Studio), or one with a chapter name and
        neither text nor foreign ID (DOORS, safereq)."""
        if self.type_names.get(spec_object.spec_object_type) in _HEADING_TYPES:
            return True
        return bool(values.get(CHAPTER, "").strip()) and not values.get(TEXT, "").strip() and FOREIGN_ID not in values

    def record(self, spec_object: Any, document: str, chapters: tuple[str, ...]) -> Record:
        values = self.values(spec_object)
        item_id = self.ids[spec_object.identifier]
        text = values.pop(TEXT, "") or self._text_stand_in(values)
        title = values.pop(NAME, "") or (spec_object.long_name or "")
        title = " ".join(title.split()) or _first_sentence(text)
        values.pop(FOREIGN_ID, None)
        values.pop(KIND, None)
        source = values.pop(SOURCE, "item") or "item"
        record = Record(item_id, kind_prefix(item_id), title, text.strip("\n"), document, 0, chapters,
                        source="hara" if source == "hara" else "item")
        if item_id != spec_object.identifier and not spec_object.identifier.startswith("safereq."):
            record.extra["ReqIF identifier"] = spec_object.identifier
        for link in (values.pop(UNRESOLVED, "") or "").split(";"):
            key, _, target = link.partition(":")
            if key.strip() in LINK_KEYS and target.strip():
                record.links.setdefault(key.strip(), []).append(target.strip())
        for name, value in values.items():
            if not value.strip():
                continue
            key = self._key(name)
            if key is not None and key not in LINK_KEYS:
                record.attributes[key] = value
            else:
                record.extra[name] = value
                self.problems.append(ImportProblem(item_id, f"attribute {name!r} has no safereq meaning; kept in "
                                                            "the item's table of foreign attributes"))
        return record

    @staticmethod
    def _text_stand_in(values: dict[str, str]) -> str:
        """Without ``ReqIF.Text``, the attribute that holds the text in other tools' files (DOORS' "Object
        Text", Enterprise Architect's "...-TXT", a "Description"), taken out of ``values``."""
        for name in list(values):
            folded = name.casefold().replace("_", " ").replace("-", " ")
            if folded.endswith((" text", " txt")) or folded in ("text", "description", "object text"):
                return values.pop(name)
        return ""

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
                    name = values.get(CHAPTER, "").strip() or values.get(NAME, "").strip() \
                        or values.get(TEXT, "").strip() or (spec_object.long_name or "").strip() or "Chapter"
                    stack.append((node.level, " ".join(name.split())))
                    continue
                if spec_object.identifier in records:
                    continue  # the same object shown twice in the hierarchy: written once
                record = self.record(spec_object, path, tuple(text for _level, text in stack))
                records[spec_object.identifier] = record
                doc_records.append(record)
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
        return out

    def _relations(self, records: dict[str, Record]) -> None:
        for relation in self.content.spec_relations or []:
            name = self.relation_types.get(relation.relation_type_ref, relation.relation_type_ref)
            source, target = records.get(relation.source), records.get(relation.target)
            if source is None or target is None:
                self.problems.append(ImportProblem(relation.identifier, f"relation {name!r} between objects that "
                                                                        "are not items; not mapped"))
                continue
            key = self._key(name)
            if key in LINK_KEYS:
                targets = source.links.setdefault(key, [])
                if target.id not in targets:
                    targets.append(target.id)
            else:
                label = f"Relation {name}"
                source.extra[label] = ", ".join(filter(None, [source.extra.get(label, ""), target.id]))
                self.problems.append(ImportProblem(source.id, f"relation type {name!r} has no safereq meaning; kept "
                                                              "in the item's table of foreign attributes"))


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
    from reqif.models.error_handling import ReqIFXMLParsingError, ReqIFZParsingError
    from reqif.parser import ReqIFParser, ReqIFZParser

    problems: list[ImportProblem] = []
    source = str(path)
    try:
        if archive if archive is not None else path.suffix.lower() == ".reqifz":
            if not zipfile.is_zipfile(path):
                raise InputError(f"{source}: not a ReqIFz archive (a .reqifz file is a zip)")
            check_zip(path, what=source)  # bounded by what it unpacks to, not its size (issue 25, item 7)
            bundle = ReqIFZParser.parse(source)
            bundles = list(bundle.reqif_bundles.values())
            if not bundles:
                raise InputError(f"{source}: the archive holds no .reqif file")
            for name in bundle.attachments:
                problems.append(ImportProblem(name, "attachment not imported (safereq documents are text)"))
        else:
            bundles = [ReqIFParser.parse(source)]
    except (ReqIFXMLParsingError, ReqIFZParsingError) as exc:
        raise InputError(f"{source}: not a readable ReqIF file: {_short(exc)}") from None
    except UnicodeDecodeError:
        raise InputError(f"{source}: not UTF-8 text; ReqIF files are UTF-8 XML") from None
    except TooLargeUnpacked as exc:
        raise InputError(str(exc)) from None
    except InputError:
        raise
    except Exception as exc:  # the library raises assorted errors for XML that is not ReqIF
        raise InputError(f"{source}: not a ReqIF file the reqif library can read: {_short(exc)}") from None
    documents: list[DocumentRecord] = []
    for bundle in bundles:
        for exc in getattr(bundle, "exceptions", None) or []:
            problems.append(ImportProblem(source, f"ReqIF schema: {_short(exc)}"))
        try:
            documents += _Mapper(bundle, source, problems).documents()
        except InputError:
            raise
        except (AttributeError, KeyError, TypeError, AssertionError) as exc:
            raise InputError(f"{source}: ReqIF content safereq cannot map: {type(exc).__name__}: {_short(exc)}") from None
    return documents, problems


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] or type(exc).__name__
