"""Work counted in Python function calls: deterministic, unlike time, so a test can assert that doubling the
input does not much more than double the work (issue 25, item 9) on a busy machine."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def calls_during(work: Callable[[], Any]) -> tuple[Any, int]:
    """(what ``work()`` returns, how many Python function calls it made)."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        count += event == "call"

    sys.setprofile(profile)
    try:
        result = work()
    finally:
        sys.setprofile(None)
    return result, count
