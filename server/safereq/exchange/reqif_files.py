"""Read the bytes of a ReqIF file into the ``reqif`` library's bundles, tolerating what real tools write.

A root with a namespace prefix is given the ReqIF namespace as its default (the library reads only that
form); what early ProR files leave out although ReqIF requires it is put in and reported; and a file the
library still cannot read is refused with the ReqIF schema's first complaint, its line and element, instead
of the library's internals. All XML is parsed without entities, DTDs or network access.
"""

from __future__ import annotations

import itertools
import re
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

from ..workspace.unpack import MAX_UNPACKED_BYTES, TooLargeUnpacked, check_zip
from .errors import ImportProblem, InputError
from .reqif_io import NS

_PREFIXED_ROOT_RE = re.compile(rb"<([A-Za-z_][\w.-]*):REQ-IF[\s>]")


def _default_namespace(data: bytes) -> bytes:
    """``data`` with the ReqIF namespace as the default one when its root is prefixed (``<reqif:REQ-IF
    xmlns:reqif=...>``, valid ReqIF that Eclipse RMF writes): the ``reqif`` library reads only unprefixed
    roots. Other files are returned as they are."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf")
    m = _PREFIXED_ROOT_RE.search(head)
    if m is None:
        return data
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return data  # the library reports what is wrong
    if etree.QName(root).namespace != NS or None in root.nsmap:
        return data
    nsmap = {None: NS, **{k: v for k, v in root.nsmap.items() if k is not None and v != NS}}
    new_root = etree.Element(root.tag, attrib=dict(root.attrib), nsmap=nsmap)
    new_root.text = root.text
    for child in list(root):
        new_root.append(child)
    return etree.tostring(new_root, xml_declaration=True, encoding="UTF-8")


_MAX_SCHEMA_ERRORS = 100


@cache
def _schema() -> Any:
    import reqif
    import xmlschema

    return xmlschema.XMLSchema(str(Path(reqif.__file__).parent / "reqif_schema" / "reqif.xsd"))


def _schema_problem(data: bytes) -> str | None:
    """What the ReqIF schema finds wrong first, with its line and element, or None."""
    try:
        from lxml import etree

        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
        root = etree.fromstring(_default_namespace(data), parser)  # lxml keeps line numbers for the message
        errors = list(itertools.islice(_schema().iter_errors(root), _MAX_SCHEMA_ERRORS))
    except Exception:  # the schema check is a diagnosis of a file already refused; never a second error
        return None
    if not errors:
        return None
    error = errors[0]
    where = f"line {error.sourceline}" if getattr(error, "sourceline", None) else ""
    path = getattr(error, "path", None)
    reason = " ".join(str(getattr(error, "reason", None) or error.message).split())
    more = len(errors) - 1
    count = f" ({more}{'+' if len(errors) == _MAX_SCHEMA_ERRORS else ''} more schema errors)" if more else ""
    return ", ".join(filter(None, [where, f"at {path}" if path else ""])) + f": {reason[:240]}{count}"


def _repaired(data: bytes) -> tuple[bytes, list[str]]:
    """``data`` with what early ProR files leave out although ReqIF requires it, and without which the
    reqif library cannot read them, put in: a ``LAST-CHANGE`` on identified elements, a ``KEY`` (the
    value's position) and ``OTHER-CONTENT`` on enumeration values. Returns the bytes and what was added."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return data, []
    stamps = keys = 0
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if "IDENTIFIER" in element.attrib and "LAST-CHANGE" not in element.attrib:
            element.set("LAST-CHANGE", "1970-01-01T00:00:00Z")
            stamps += 1
        if etree.QName(element).localname == "EMBEDDED-VALUE" and (
                "KEY" not in element.attrib or "OTHER-CONTENT" not in element.attrib):
            value = element.getparent().getparent() if element.getparent() is not None else None
            siblings = list(value.getparent()) if value is not None and value.getparent() is not None else []
            element.set("KEY", element.get("KEY") or str(siblings.index(value) if value in siblings else 0))
            element.set("OTHER-CONTENT", element.get("OTHER-CONTENT") or "")
            keys += 1
    added = ([f"{stamps} elements have no LAST-CHANGE"] if stamps else []) + \
        ([f"{keys} enumeration values have no KEY or OTHER-CONTENT"] if keys else [])
    return (etree.tostring(root, xml_declaration=True, encoding="UTF-8"), added) if added else (data, [])


def _parse_one(data: bytes, source: str, problems: list[ImportProblem]) -> Any:
    """The library's bundle of one ReqIF document; InputError naming what is wrong and where otherwise."""
    from reqif.models.error_handling import ReqIFXMLParsingError
    from reqif.parser import ReqIFParser

    try:
        text = _default_namespace(data).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{source}: not UTF-8 text; ReqIF files are UTF-8 XML") from None
    try:
        return ReqIFParser.parse_from_string(text)
    except ReqIFXMLParsingError as exc:
        raise InputError(f"{source}: not a readable ReqIF file: {short(exc)}") from None
    except Exception as exc:  # the library raises assorted errors for XML that is not valid ReqIF
        first = exc
    repaired, added = _repaired(_default_namespace(data))
    if added:
        try:
            bundle = ReqIFParser.parse_from_string(repaired.decode("utf-8"))
        except Exception:
            pass
        else:
            problems.append(ImportProblem(source, "; ".join(added) + ", which ReqIF requires; read anyway"))
            return bundle
    problem = _schema_problem(data)
    detail = f"not valid ReqIF: {problem}" if problem else \
        f"ReqIF the reqif library cannot read ({type(first).__name__}: {short(first)})"
    raise InputError(f"{source}: {detail}") from None


def read_bundles(path: Path, archive: bool | None, problems: list[ImportProblem]) -> list[Any]:
    """The bundles of a ``.reqif`` file, or of each ReqIF file in a ``.reqifz`` archive (``archive``;
    default: by the suffix); attachments are reported. InputError for a file that is not readable ReqIF."""
    source = str(path)
    zipped_input = archive if archive is not None else path.suffix.lower() == ".reqifz"
    try:
        if not zipped_input and path.stat().st_size > MAX_UNPACKED_BYTES:
            raise InputError(f"{source}: larger than {MAX_UNPACKED_BYTES // 2**20} MB (the limit for ReqIF "
                             "input); not read")
        data = b"" if zipped_input else path.read_bytes()
    except OSError as exc:
        raise InputError(f"{source}: cannot read: {exc.strerror or exc}") from None
    bundles = []
    if zipped_input:
        if not zipfile.is_zipfile(path):
            raise InputError(f"{source}: not a ReqIFz archive (a .reqifz file is a zip)")
        try:
            check_zip(path, what=source)  # bounded by what it unpacks to, not by its size (issue 25, item 7)
            with zipfile.ZipFile(path) as zipped:
                for name in zipped.namelist():
                    if name.lower().endswith((".reqif", ".xml")):
                        bundles.append(_parse_one(zipped.read(name), f"{source}!{name}", problems))
                    elif not name.endswith("/"):
                        problems.append(ImportProblem(name, "attachment not imported (safereq documents are text)"))
        except TooLargeUnpacked as exc:
            raise InputError(str(exc)) from None
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as exc:
            raise InputError(f"{source}: a damaged ReqIFz archive: {short(exc)}") from None
        if not bundles:
            raise InputError(f"{source}: the archive holds no .reqif file")
    else:
        bundles.append(_parse_one(data, source, problems))
    return bundles


def schema_problem_of(path: Path) -> str | None:
    """The schema's first complaint about the file at ``path`` (for content the mapper cannot take)."""
    try:
        return _schema_problem(path.read_bytes())
    except OSError:
        return None


def short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] or type(exc).__name__
