"""A text edit: replace what a span of a document holds.

It belongs to the model, below everything that makes edits: the checks' fixes, the workspace's ID renames
and the agent's insertions all build them, and the CLI and the language server apply or send them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ranges import Span


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text at ``span`` of ``path`` by ``new_text``."""

    path: str
    span: Span
    new_text: str
