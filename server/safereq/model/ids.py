"""Item IDs and the headings that define items (see docs/format.md)."""

from __future__ import annotations

import re

# Segments of upper-case letters and digits joined by -, _ or ., starting with a letter.
ID_PATTERN = r"[A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)*"
ID_RE = re.compile(ID_PATTERN)
# The ID grammar with at least one digit somewhere in the ID.
_WITH_DIGIT = r"(?=[A-Z0-9_.-]*[0-9])" + ID_PATTERN
ITEM_ID_RE = re.compile(_WITH_DIGIT)
# The start of an item heading, up to its title: `## FSR-PER-012: ` (the colon may be full-width in Chinese
# documents). The ID ends where the run of ID characters ends, so the digit look-ahead sees exactly the ID.
# The title is the rest of the line without a closing sequence of hashes (see ``heading_title``); leaving it
# out of the regex makes the match several times faster than a lazy ``(?P<title>.*?)`` before ``$``.
ITEM_HEADING_START_RE = re.compile(r" {0,3}(#{1,6})[ \t]+(" + _WITH_DIGIT + r")[ \t]*[:：][ \t]*")
# The same for any ID shape, e.g. `SG-A`: a heading written as an item heading but whose ID has no digit.
ID_HEADING_START_RE = re.compile(r" {0,3}#{1,6}[ \t]+" + ID_PATTERN + r"[ \t]*[:：]")
ATX_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]|$)")
# The letters an ID starts with, which name its kind: the leading run of these (str.lstrip, not a regex).
_KIND_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def is_item_id(text: str) -> bool:
    """True for a well-formed item ID: the ID grammar and at least one digit."""
    return ITEM_ID_RE.fullmatch(text) is not None


def heading_title(rest: str) -> str:
    """The title in ``rest``, the end of a heading line: without trailing blanks and closing hashes."""
    return rest.rstrip(" \t").rstrip("#").rstrip(" \t")


def kind_prefix(item_id: str) -> str:
    """The letters an ID starts with (`FSR` for `FSR-PER-012`), which name its kind. Runs for every item
    parsed and every ID a dangling link is compared with: stripping the letters costs a third of a regex match."""
    return item_id[:len(item_id) - len(item_id.lstrip(_KIND_LETTERS))]
