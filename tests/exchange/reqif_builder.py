"""Write small ReqIF files the way other tools do (DOORS headings with foreign IDs, CamelCase text
attributes, HTML held in strings, a prefixed root element), for the import tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

STAMP = 'LAST-CHANGE="2024-01-01T00:00:00Z"'


@dataclass
class Obj:
    """A spec object: identifier, type name, values by attribute long name (XHTML values are markup),
    and the objects below it in the hierarchy."""

    identifier: str
    values: dict[str, str]
    type_name: str = "Requirement"
    children: list["Obj"] = field(default_factory=list)


def _all(objects: list[Obj]) -> list[Obj]:
    out = []
    for o in objects:
        out.append(o)
        out += _all(o.children)
    return out


def build(tree: list[Obj], xhtml: frozenset[str] = frozenset({"ReqIF.Text"}), relations: tuple = (),
          tool: str = "t", prefix: str | None = None, name: str = "Spec") -> str:
    """The ReqIF text. ``xhtml``: attribute names of XHTML type (the rest are strings); ``relations``:
    (type name, source, target) triples; ``prefix``: write every ReqIF element with that namespace prefix."""
    objects = _all(tree)
    types: dict[str, list[str]] = {}
    for o in objects:
        names = types.setdefault(o.type_name, [])
        names += [n for n in o.values if n not in names]
    p = f"{prefix}:" if prefix else ""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<{p}REQ-IF xmlns{":" + prefix if prefix else ""}="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd" '
           'xmlns:xhtml="http://www.w3.org/1999/xhtml">',
           f'<{p}THE-HEADER><{p}REQ-IF-HEADER IDENTIFIER="h"><{p}CREATION-TIME>2024-01-01T00:00:00Z</{p}CREATION-TIME>'
           f'<{p}REQ-IF-TOOL-ID>{escape(tool)}</{p}REQ-IF-TOOL-ID><{p}REQ-IF-VERSION>1.0</{p}REQ-IF-VERSION>'
           f'<{p}SOURCE-TOOL-ID>{escape(tool)}</{p}SOURCE-TOOL-ID><{p}TITLE>t</{p}TITLE></{p}REQ-IF-HEADER></{p}THE-HEADER>',
           f'<{p}CORE-CONTENT><{p}REQ-IF-CONTENT><{p}DATATYPES>',
           f'<{p}DATATYPE-DEFINITION-STRING IDENTIFIER="dt-s" {STAMP} MAX-LENGTH="100000"/>',
           f'<{p}DATATYPE-DEFINITION-XHTML IDENTIFIER="dt-x" {STAMP}/>',
           f'</{p}DATATYPES><{p}SPEC-TYPES>']

    def attr_id(type_name: str, name: str) -> str:
        return f"ad-{abs(hash((type_name, name)))}"

    for type_name, names in types.items():
        out.append(f'<{p}SPEC-OBJECT-TYPE IDENTIFIER="ot-{abs(hash(type_name))}" {STAMP} LONG-NAME={quoteattr(type_name)}>'
                   f'<{p}SPEC-ATTRIBUTES>')
        for n in names:
            kind = "XHTML" if n in xhtml else "STRING"
            out.append(f'<{p}ATTRIBUTE-DEFINITION-{kind} IDENTIFIER="{attr_id(type_name, n)}" {STAMP} '
                       f'LONG-NAME={quoteattr(n)}><{p}TYPE><{p}DATATYPE-DEFINITION-{kind}-REF>dt-{kind[0].lower()}'
                       f'</{p}DATATYPE-DEFINITION-{kind}-REF></{p}TYPE></{p}ATTRIBUTE-DEFINITION-{kind}>')
        out.append(f'</{p}SPEC-ATTRIBUTES></{p}SPEC-OBJECT-TYPE>')
    for rel_type in dict.fromkeys(r[0] for r in relations):
        out.append(f'<{p}SPEC-RELATION-TYPE IDENTIFIER="rt-{abs(hash(rel_type))}" {STAMP} LONG-NAME={quoteattr(rel_type)}/>')
    out.append(f'<{p}SPECIFICATION-TYPE IDENTIFIER="st" {STAMP}/></{p}SPEC-TYPES><{p}SPEC-OBJECTS>')
    for o in objects:
        out.append(f'<{p}SPEC-OBJECT IDENTIFIER={quoteattr(o.identifier)} {STAMP}><{p}VALUES>')
        for n, v in o.values.items():
            ref = attr_id(o.type_name, n)
            if n in xhtml:
                out.append(f'<{p}ATTRIBUTE-VALUE-XHTML><{p}DEFINITION><{p}ATTRIBUTE-DEFINITION-XHTML-REF>{ref}'
                           f'</{p}ATTRIBUTE-DEFINITION-XHTML-REF></{p}DEFINITION><{p}THE-VALUE>{v}</{p}THE-VALUE>'
                           f'</{p}ATTRIBUTE-VALUE-XHTML>')
            else:
                out.append(f'<{p}ATTRIBUTE-VALUE-STRING THE-VALUE={quoteattr(v)}><{p}DEFINITION>'
                           f'<{p}ATTRIBUTE-DEFINITION-STRING-REF>{ref}</{p}ATTRIBUTE-DEFINITION-STRING-REF>'
                           f'</{p}DEFINITION></{p}ATTRIBUTE-VALUE-STRING>')
        out.append(f'</{p}VALUES><{p}TYPE><{p}SPEC-OBJECT-TYPE-REF>ot-{abs(hash(o.type_name))}'
                   f'</{p}SPEC-OBJECT-TYPE-REF></{p}TYPE></{p}SPEC-OBJECT>')
    out.append(f'</{p}SPEC-OBJECTS><{p}SPEC-RELATIONS>')
    for number, (rel_type, source, target) in enumerate(relations):
        out.append(f'<{p}SPEC-RELATION IDENTIFIER="r{number}" {STAMP}><{p}SOURCE><{p}SPEC-OBJECT-REF>{source}'
                   f'</{p}SPEC-OBJECT-REF></{p}SOURCE><{p}TARGET><{p}SPEC-OBJECT-REF>{target}</{p}SPEC-OBJECT-REF>'
                   f'</{p}TARGET><{p}TYPE><{p}SPEC-RELATION-TYPE-REF>rt-{abs(hash(rel_type))}'
                   f'</{p}SPEC-RELATION-TYPE-REF></{p}TYPE></{p}SPEC-RELATION>')
    out.append(f'</{p}SPEC-RELATIONS><{p}SPECIFICATIONS><{p}SPECIFICATION IDENTIFIER="sp" {STAMP} '
               f'LONG-NAME={quoteattr(name)}><{p}TYPE><{p}SPECIFICATION-TYPE-REF>st</{p}SPECIFICATION-TYPE-REF>'
               f'</{p}TYPE><{p}CHILDREN>')

    def hierarchy(nodes: list[Obj]) -> None:
        for o in nodes:
            out.append(f'<{p}SPEC-HIERARCHY IDENTIFIER="h-{o.identifier}" {STAMP}><{p}OBJECT><{p}SPEC-OBJECT-REF>'
                       f'{o.identifier}</{p}SPEC-OBJECT-REF></{p}OBJECT>')
            if o.children:
                out.append(f"<{p}CHILDREN>")
                hierarchy(o.children)
                out.append(f"</{p}CHILDREN>")
            out.append(f"</{p}SPEC-HIERARCHY>")

    hierarchy(tree)
    out.append(f'</{p}CHILDREN></{p}SPECIFICATION></{p}SPECIFICATIONS></{p}REQ-IF-CONTENT></{p}CORE-CONTENT>'
               f'</{p}REQ-IF>')
    return "\n".join(out) + "\n"
