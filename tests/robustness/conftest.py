"""The robustness suite runs a short form by default (seconds); ``SAFEREQ_FUZZ_LONG=1`` runs the long form.

``scale`` gives the number of seeds (or the nesting depth) for the form being run.
"""

from __future__ import annotations

import os

LONG = os.environ.get("SAFEREQ_FUZZ_LONG", "") not in ("", "0")


def scale(short: int, long: int) -> int:
    return long if LONG else short
