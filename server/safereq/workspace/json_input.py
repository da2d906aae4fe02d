"""JSON from files safereq did not write itself (fragments, review files): numbers bounded as they are read.

Python refuses to turn an integer of more than 4,300 digits into a number, with a ``ValueError`` no caller
expected ("internal error", issue 25, item 11), and a shorter huge one is accepted and fails later, as an
index or a line number. No number safereq writes has more than a few digits, so one longer than
:data:`MAX_DIGITS` stops the parse with :class:`NumberTooLong`, which says what it found.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DIGITS = 18  # fits a 64-bit integer: every line, column, version and count safereq writes


class NumberTooLong(ValueError):
    """The JSON holds an integer longer than :data:`MAX_DIGITS`."""

    def __init__(self, digits: int) -> None:
        super().__init__(f"it holds an integer of {digits} digits (at most {MAX_DIGITS} are read)")


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise NumberTooLong(digits)
    return int(text)


def loads(text: str | bytes) -> Any:
    """``json.loads`` whose integers are at most :data:`MAX_DIGITS` long (NumberTooLong otherwise)."""
    return json.loads(text, parse_int=_integer)
