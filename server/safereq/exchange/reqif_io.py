"""ReqIF 1.2 (``.reqif``) and ReqIFz (a zip holding it): export with the standard library, import with the
``reqif`` library (StrictDoc's parser, which copes with what DOORS, Polarion and others write).

Export follows the prostep ReqIF implementation guide's attribute names: ``ReqIF.ForeignID`` (the safereq
ID), ``ReqIF.Name`` (title), ``ReqIF.Text`` (the statement as XHTML, one ``<p>`` per paragraph, ``<br/>``
per line break), ``ReqIF.ChapterName`` (a chapter heading, as a spec object of its own whose hierarchy
children are the items under it). Each safereq attribute is a string attribute named by its label (``ASIL``,
``Safe state``), ``safereq.Kind`` and ``safereq.Source`` say what the item is. One specification per
document (``DESC`` holds its path); one spec relation per trace link, typed by the link key (``Derived
from``: source is the item holding the link, target the linked item). Links to IDs that nothing defines
cannot be relations; they go into ``safereq.UnresolvedLinks``. Identifiers are stable: ``safereq.<ID>`` for
items, a hash of document and heading path for chapters, so a re-export diffs cleanly.

Import reads every specification as one document: spec objects with a chapter name become headings, the
others items. Where a file has no usable ``ReqIF.ForeignID`` the identifier is used, rewritten into an ID
shape; anything else without a safereq meaning is kept in a table under the item and reported.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
import xml.etree.ElementTree as ET
from dataclasses import replace
from datetime import datetime, timezone

from .. import __version__
from .records import LINK_KEYS, DocumentRecord, Record, all_records, attribute_labels

NS = "http://www.omg.org/spec/ReqIF/20110401/reqif.xsd"
XHTML = "http://www.w3.org/1999/xhtml"
FOREIGN_ID, NAME, TEXT, CHAPTER = "ReqIF.ForeignID", "ReqIF.Name", "ReqIF.Text", "ReqIF.ChapterName"
KIND, SOURCE, UNRESOLVED = "safereq.Kind", "safereq.Source", "safereq.UnresolvedLinks"
DOC_PREFIX = "safereq document: "
ITEM_TYPE, CHAPTER_TYPE = "safereq.type.item", "safereq.type.chapter"


def _q(tag: str) -> str:
    return f"{{{NS}}}{tag}"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, _q(tag), {k.replace("_", "-").upper(): v for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element


def _ref(parent: ET.Element, wrapper: str, tag: str, target: str) -> None:
    _sub(_sub(parent, wrapper), tag, target)


def _xhtml(parent: ET.Element, text: str) -> None:
    """The statement as XHTML: a ``<p>`` per paragraph, ``<br/>`` per line break. The line after a break
    starts with a newline, so a tool that flattens XHTML to text (StrictDoc) still sees two words."""
    div = ET.SubElement(parent, f"{{{XHTML}}}div")
    for paragraph in re.split(r"\n\s*\n", text) if text else []:
        p = ET.SubElement(div, f"{{{XHTML}}}p")
        lines = paragraph.split("\n")
        p.text = lines[0]
        for line in lines[1:]:
            br = ET.SubElement(p, f"{{{XHTML}}}br")
            br.tail = "\n" + line


def _safe_id(text: str) -> str:
    """An xsd:ID (NCName) made from ``text``, readable when ``text`` already is one."""
    cleaned = re.sub(r"[^A-Za-z0-9_.-]", "_", text)
    return cleaned if re.match(r"[A-Za-z_]", cleaned) else f"_{cleaned}"


def _chapter_id(path: str, chain: tuple[str, ...]) -> str:
    digest = hashlib.sha1("\x1f".join((path, *chain)).encode("utf-8")).hexdigest()[:16]
    return f"safereq.chapter.{digest}"


class _Writer:
    """Builds the ReqIF tree. Items and chapters are objects of two types (``safereq item``, ``safereq
    chapter``): StrictDoc makes one field set per type and refuses a type whose ``ReqIF.Name`` and
    ``ReqIF.ChapterName`` would both be its title. A second definition of a duplicated ID is an object of its
    own (``safereq.dup<n>.<ID>``, the same ``ReqIF.ForeignID``), so nothing of the workspace is left out."""

    def __init__(self, documents: list[DocumentRecord], title: str) -> None:
        self.documents = documents
        self.now = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
        self.labels = attribute_labels()
        self.title = title
        self.object_ids: dict[str, str] = {}  # ID → identifier of its first definition, the link target
        self.record_ids: dict[int, str] = {}  # id(record) → identifier of that definition
        seen: dict[str, int] = {}
        for record in all_records(documents):
            count = seen[record.id] = seen.get(record.id, 0) + 1
            identifier = _safe_id(f"safereq.{record.id}" if count == 1 else f"safereq.dup{count}.{record.id}")
            self.object_ids.setdefault(record.id, identifier)
            self.record_ids[id(record)] = identifier

    def build(self) -> ET.Element:
        ET.register_namespace("", NS)
        ET.register_namespace("xhtml", XHTML)
        root = ET.Element(_q("REQ-IF"))
        header = _sub(_sub(root, "THE-HEADER"), "REQ-IF-HEADER", identifier="safereq.header")
        _sub(header, "COMMENT", "Exported by safereq from Markdown requirement documents")
        _sub(header, "CREATION-TIME", self.now)
        _sub(header, "REQ-IF-TOOL-ID", "safereq")
        _sub(header, "REQ-IF-VERSION", "1.0")
        _sub(header, "SOURCE-TOOL-ID", f"safereq {__version__}")
        _sub(header, "TITLE", self.title)
        content = _sub(_sub(root, "CORE-CONTENT"), "REQ-IF-CONTENT")
        self._datatypes(_sub(content, "DATATYPES"))
        self._types(_sub(content, "SPEC-TYPES"))
        objects = _sub(content, "SPEC-OBJECTS")
        relations = _sub(content, "SPEC-RELATIONS")
        specifications = _sub(content, "SPECIFICATIONS")
        for doc in self.documents:
            self._specification(doc, specifications, objects)
        for record in all_records(self.documents):
            self._relations(record, relations)
        return root

    def _stamp(self, **attrs: str) -> dict[str, str]:
        return {"last_change": self.now, **attrs}

    def _datatypes(self, parent: ET.Element) -> None:
        _sub(parent, "DATATYPE-DEFINITION-STRING", **self._stamp(identifier="safereq.type.string",
                                                                   long_name="String", max_length="1000000"))
        _sub(parent, "DATATYPE-DEFINITION-XHTML", **self._stamp(identifier="safereq.type.xhtml", long_name="XHTML"))

    def _attribute_names(self) -> list[tuple[str, str, str]]:
        """(identifier, long name, datatype) of every attribute definition of the item type, fixed ones first."""
        keys = sorted({key for r in all_records(self.documents) for key in r.attributes})
        out = [("safereq.attr.foreign-id", FOREIGN_ID, "STRING"), ("safereq.attr.name", NAME, "STRING"),
               ("safereq.attr.text", TEXT, "XHTML"), ("safereq.attr.kind", KIND, "STRING"),
               ("safereq.attr.source", SOURCE, "STRING"), ("safereq.attr.unresolved", UNRESOLVED, "STRING")]
        out += [(f"safereq.attr.{_safe_id(key)}", self.labels.get(key, key), "STRING") for key in keys]
        return out

    def _object_type(self, parent: ET.Element, identifier: str, long_name: str,
                     attributes: list[tuple[str, str, str]]) -> dict[str, tuple[str, str]]:
        object_type = _sub(parent, "SPEC-OBJECT-TYPE", **self._stamp(identifier=identifier, long_name=long_name))
        attrs = _sub(object_type, "SPEC-ATTRIBUTES")
        definitions: dict[str, tuple[str, str]] = {}
        for attr_id, attr_name, datatype in attributes:
            definition = _sub(attrs, f"ATTRIBUTE-DEFINITION-{datatype}",
                              **self._stamp(identifier=attr_id, long_name=attr_name))
            _ref(definition, "TYPE", f"DATATYPE-DEFINITION-{datatype}-REF", f"safereq.type.{datatype.lower()}")
            definitions[attr_name] = (attr_id, datatype)
        return definitions

    def _types(self, parent: ET.Element) -> None:
        self.definitions = {
            ITEM_TYPE: self._object_type(parent, ITEM_TYPE, "safereq item", self._attribute_names()),
            CHAPTER_TYPE: self._object_type(parent, CHAPTER_TYPE, "safereq chapter",
                                            [("safereq.attr.chapter", CHAPTER, "STRING")]),
        }
        for key in LINK_KEYS:
            _sub(parent, "SPEC-RELATION-TYPE", **self._stamp(identifier=f"safereq.link.{key}",
                                                               long_name=self.labels.get(key, key)))
        _sub(parent, "SPECIFICATION-TYPE", **self._stamp(identifier="safereq.type.document",
                                                           long_name="safereq document"))

    def _value(self, values: ET.Element, type_id: str, long_name: str, value: str) -> None:
        identifier, datatype = self.definitions[type_id][long_name]
        if datatype == "XHTML":
            element = _sub(values, "ATTRIBUTE-VALUE-XHTML")
            _ref(element, "DEFINITION", "ATTRIBUTE-DEFINITION-XHTML-REF", identifier)
            _xhtml(_sub(element, "THE-VALUE"), value)
        else:
            element = _sub(values, "ATTRIBUTE-VALUE-STRING", the_value=value)
            _ref(element, "DEFINITION", "ATTRIBUTE-DEFINITION-STRING-REF", identifier)

    def _object(self, parent: ET.Element, identifier: str, long_name: str, type_id: str,
                values: list[tuple[str, str]]) -> None:
        """A spec object; an empty value is left out (an empty ``ReqIF.Text`` is an empty statement block
        that StrictDoc cannot read back), the ID never is."""
        spec_object = _sub(parent, "SPEC-OBJECT", **self._stamp(identifier=identifier, long_name=long_name))
        element = _sub(spec_object, "VALUES")
        for name, value in values:
            if value or name == FOREIGN_ID:
                self._value(element, type_id, name, value)
        _ref(spec_object, "TYPE", "SPEC-OBJECT-TYPE-REF", type_id)

    def _record_values(self, record: Record) -> list[tuple[str, str]]:
        values = [(FOREIGN_ID, record.id), (NAME, record.title), (TEXT, record.text), (KIND, record.kind),
                  (SOURCE, record.source)]
        values += [(self.labels.get(k, k), v) for k, v in sorted(record.attributes.items())]
        unresolved = [f"{key}: {target}" for key, target in record.link_targets() if target not in self.object_ids]
        if unresolved:
            values.append((UNRESOLVED, "; ".join(unresolved)))
        return values

    def _hierarchy(self, parent: ET.Element, object_id: str, key: str) -> ET.Element:
        node = _sub(parent, "SPEC-HIERARCHY", **self._stamp(identifier=f"safereq.node.{key}"))
        _ref(node, "OBJECT", "SPEC-OBJECT-REF", object_id)
        return node

    def _specification(self, doc: DocumentRecord, parent: ET.Element, objects: ET.Element) -> None:
        digest = hashlib.sha1(doc.path.encode("utf-8")).hexdigest()[:16]
        spec = _sub(parent, "SPECIFICATION", **self._stamp(identifier=f"safereq.doc.{digest}", long_name=doc.title,
                                                            desc=DOC_PREFIX + doc.path))
        _ref(spec, "TYPE", "SPECIFICATION-TYPE-REF", "safereq.type.document")
        children = _sub(spec, "CHILDREN")
        chapters: dict[tuple[str, ...], ET.Element] = {(): children}
        for record in doc.records:
            container = children
            for depth in range(1, len(record.chapters) + 1):
                chain = record.chapters[:depth]
                if chain not in chapters:
                    chapter_id = _chapter_id(doc.path, chain)
                    self._object(objects, chapter_id, chain[-1], CHAPTER_TYPE, [(CHAPTER, chain[-1])])
                    node = self._hierarchy(container, chapter_id, chapter_id.rsplit(".", 1)[1])
                    chapters[chain] = _sub(node, "CHILDREN")
                container = chapters[chain]
            object_id = self.record_ids[id(record)]
            self._object(objects, object_id, record.title, ITEM_TYPE, self._record_values(record))
            self._hierarchy(container, object_id, object_id.removeprefix("safereq."))

    def _relations(self, record: Record, parent: ET.Element) -> None:
        source = self.record_ids[id(record)]
        for key, target in record.link_targets():
            target_id = self.object_ids.get(target)
            if target_id is None:
                continue
            basis = record.id if source == self.object_ids[record.id] else source
            digest = hashlib.sha1(f"{basis}\x1f{key}\x1f{target}".encode("utf-8")).hexdigest()[:16]
            relation = _sub(parent, "SPEC-RELATION", **self._stamp(identifier=f"safereq.rel.{digest}"))
            _ref(relation, "SOURCE", "SPEC-OBJECT-REF", source)
            _ref(relation, "TARGET", "SPEC-OBJECT-REF", target_id)
            _ref(relation, "TYPE", "SPEC-RELATION-TYPE-REF", f"safereq.link.{key}")


# Characters XML 1.0 cannot hold at all (C0 controls but tab, line feed and carriage return; lone
# surrogates; U+FFFE, U+FFFF): written as a visible stand-in, so the file stays readable XML.
_NOT_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return chr(0x2400 + code) if code < 0x20 else "\ufffd"  # U+2401 "␁" for U+0001, ...


def representable(documents: list[DocumentRecord], notes: list[str]) -> list[DocumentRecord]:
    """The documents with every character XML cannot hold replaced by a visible stand-in (a control
    character by its Control Pictures sign, ``␁``; anything else by U+FFFD); each item changed is noted."""
    def clean(text: str) -> str:
        return _NOT_XML_RE.sub(_stand_in, text)

    out: list[DocumentRecord] = []
    for doc in documents:
        records = []
        for r in doc.records:
            texts = [r.title, r.text, *r.chapters, *r.attributes.values(), *r.extra.values()]
            if any(_NOT_XML_RE.search(t) for t in texts):
                notes.append(f"{r.document}:{r.line}: {r.id} holds characters XML cannot represent (control "
                             "characters); written as visible stand-ins (U+0001 as \u2401)")
                r = replace(r, title=clean(r.title), text=clean(r.text), chapters=tuple(map(clean, r.chapters)),
                            attributes={k: clean(v) for k, v in r.attributes.items()},
                            extra={k: clean(v) for k, v in r.extra.items()})
            records.append(r)
        out.append(DocumentRecord(clean(doc.path), clean(doc.title), records))
    return out


def render(documents: list[DocumentRecord], title: str = "safereq requirements",
           notes: list[str] | None = None) -> bytes:
    """The ReqIF XML of the documents, UTF-8 with an XML declaration; what had to be changed to be XML is
    added to ``notes``."""
    root = _Writer(representable(documents, notes if notes is not None else []),
                   _NOT_XML_RE.sub(_stand_in, title)).build()
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def render_z(documents: list[DocumentRecord], title: str = "safereq requirements", name: str = "requirements.reqif",
             notes: list[str] | None = None) -> bytes:
    """A ReqIFz archive: a zip holding the one ``.reqif`` file."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, render(documents, title, notes))
    return out.getvalue()
