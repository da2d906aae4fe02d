"""The engine: runs the registered checks over a workspace (checker), calls only the item functions that can
report on an item (dispatch), checks a large workspace on several cores (parallel) and applies fixes (apply).

It reads the rule families only through the registry, never by name.
"""

from __future__ import annotations

from ..context import CheckContext
from .checker import Checker

__all__ = ["CheckContext", "Checker"]
