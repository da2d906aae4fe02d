"""Every result is bounded: lists come in pages (``offset``, ``limit``, ``next_offset``), texts are cut.

The limits keep one answer small enough for a model's context whatever the workspace holds (20,000 items,
a 10 MB document, a corpus passage of any length).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .errors import Refused

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_TEXT = 2000  # a statement, a quoted passage
MAX_SHORT = 300  # a title, an attribute value, a message
MAX_LIST = 50  # IDs in one field (a coverage row's holes, a link list)
MAX_QUERY = 500

T = TypeVar("T")


def page(items: Sequence[T], offset: int, limit: int) -> tuple[list[T], int | None]:
    """The page of ``items`` from ``offset`` and the offset of the next page (None after the last)."""
    if offset < 0:
        raise Refused("offset must be 0 or more")
    if not 1 <= limit <= MAX_LIMIT:
        raise Refused(f"limit must be between 1 and {MAX_LIMIT}")
    chunk = list(items[offset:offset + limit])
    nxt = offset + limit
    return chunk, nxt if nxt < len(items) else None


def cut(text: str | None, width: int = MAX_TEXT) -> str:
    """``text`` cut to ``width`` characters, saying how much was left out."""
    if not text:
        return ""
    if len(text) <= width:
        return text
    return f"{text[:width]} […{len(text) - width} more characters cut]"


def head(values: Sequence[str], width: int = MAX_LIST) -> list[str]:
    """At most ``width`` of ``values``; a count of the rest as the last entry when there are more."""
    values = list(values)
    if len(values) <= width:
        return values
    return values[:width] + [f"… and {len(values) - width} more"]


def bounded_query(text: str, what: str = "query") -> str:
    """A search text, stripped and bounded."""
    text = (text or "").strip()
    if not text:
        raise Refused(f"give a {what}")
    if len(text) > MAX_QUERY:
        raise Refused(f"the {what} is longer than {MAX_QUERY} characters")
    return text
