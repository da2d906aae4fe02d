"""Text analysis the rules share: which statements are checked and where their sentences and words are
(statements), their modal verbs (modal_verbs), word-list entries (word_lists), numbers without a unit
(units), and the one record per statement that the item rules read (shared)."""

from __future__ import annotations

from .shared import Statement, analysed

__all__ = ["Statement", "analysed"]
