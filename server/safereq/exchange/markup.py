"""Plain text of the XHTML and HTML that requirement tools hold statements in: a paragraph per block
element, a line break per ``<br/>``, markup dropped. XHTML is read as XML (prefixes dropped: tools bind the
namespace to ``xhtml:``, ``reqif-xhtml:``, ``html:``); HTML that is not well-formed XML (``<br>``, unclosed
``<p>``) by the standard library's HTML parser, to the same shape.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from typing import Any

_BLOCK = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol", "blockquote",
           "dd", "dt"}
# A string value that is HTML markup rather than text: it starts with a tag of HTML's and closes one.
_HTML_START_RE = re.compile(r"\s*<(?:[A-Za-z][\w.-]*:)?(?:" + "|".join(sorted(
    _BLOCK | {"span", "b", "i", "em", "strong", "br", "a", "u", "sup", "sub", "code"})) + r")\b[^>]*>", re.IGNORECASE)


def looks_like_html(value: str) -> bool:
    """Whether a *string* value is HTML markup rather than text (StrictDoc's HTML markup, some exporters):
    it starts with an HTML tag and closes one (or breaks a line)."""
    return bool(_HTML_START_RE.match(value)) and re.search(r"</[^>]+>|<br\s*/?>", value, re.IGNORECASE) is not None


def xhtml_text(markup: str) -> str:
    """Plain text of an XHTML value: a paragraph per block element, a line break per ``<br/>``."""
    # Tools bind the XHTML namespace to different prefixes (xhtml:, reqif-xhtml:, html:) or declare it on
    # the root element only, so prefixes are dropped before parsing the fragment on its own.
    plain = re.sub(r"<(/?)[A-Za-z_][\w.-]*:", r"<\1", markup)
    plain = re.sub(r"\s+xmlns(?::[\w.-]+)?=\"[^\"]*\"", "", plain)
    try:
        root = ET.fromstring(f"<wrap>{plain}</wrap>")
    except ET.ParseError:
        return html_text(plain)
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


class _HTMLText(HTMLParser):
    """Plain text of HTML that is not well-formed XML (``<br>``, unclosed ``<p>``), read the way
    :func:`xhtml_text` reads XHTML: a paragraph per block element, a line break per ``<br>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self.current: list[str] = []

    def flush(self) -> None:
        text = "".join(self.current).strip()
        if text:
            self.paragraphs.append("\n".join(line.strip() for line in text.split("\n")))
        self.current.clear()

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        tag = tag.rsplit(":", 1)[-1]
        if tag == "br":
            self.current.append("\n")
        elif tag in _BLOCK:
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if tag.rsplit(":", 1)[-1] in _BLOCK:
            self.flush()

    def handle_data(self, data: str) -> None:
        self.current.append(re.sub(r"\s+", " ", data))


def html_text(markup: str) -> str:
    """Plain text of HTML markup (see :class:`_HTMLText`)."""
    reader = _HTMLText()
    reader.feed(markup)
    reader.close()
    reader.flush()
    return "\n\n".join(p.replace(" \n", "\n").replace("\n ", "\n") for p in reader.paragraphs)
