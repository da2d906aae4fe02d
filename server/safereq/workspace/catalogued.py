"""What the checks may know of the clause catalogue: its documents, editions and clause numbers.

The checks sit above the workspace and do not import the knowledge layer; this is their one door to the
catalogue (a line scan of the shipped files, no YAML parse, no index), used by trace/unknown-clause.
"""

from __future__ import annotations

from ..knowledge.catalogue import ClauseNumbers, clause_numbers
from ..knowledge.clause_ids import normalise_clause, sort_key

__all__ = ["ClauseNumbers", "clause_numbers", "normalise_clause", "sort_key"]
