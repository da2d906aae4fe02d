"""Item IDs and the headings that define items (see docs/format.md)."""

from __future__ import annotations

import re

# Segments of upper-case letters and digits joined by -, _ or ., starting with a letter.
ID_PATTERN = r"[A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)*"
ID_RE = re.compile(ID_PATTERN)
_ID_WITH_DIGIT_RE = re.compile(r"(?=[A-Z0-9_.-]*[0-9])" + ID_PATTERN)
# `## FSR-PER-012: Title` — the colon may be full-width in Chinese documents.
ITEM_HEADING_RE = re.compile(
    r"^(?P<indent> {0,3})(?P<hashes>#{1,6})[ \t]+(?P<id>" + ID_PATTERN + r")[ \t]*[:：][ \t]*(?P<title>.*?)[ \t]*(?:#+[ \t]*)?$"
)
ATX_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]|$)")
# Something shaped like an ID that is not one, e.g. `sg-1` or `SG-A`; used to explain near misses.
_KIND_RE = re.compile(r"[A-Z]+")


def is_item_id(text: str) -> bool:
    """True for a well-formed item ID: the ID grammar and at least one digit."""
    return _ID_WITH_DIGIT_RE.fullmatch(text) is not None


def kind_prefix(item_id: str) -> str:
    """The letters an ID starts with (`FSR` for `FSR-PER-012`), which name its kind."""
    m = _KIND_RE.match(item_id)
    return m.group(0) if m else ""
