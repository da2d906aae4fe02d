"""What a check reports: findings with exact spans, optional fixes and related places."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from ..model.edits import Edit
from ..model.ranges import Span

__all__ = ["Edit", "Finding", "Fix", "Related", "Severity"]


class Severity(IntEnum):
    """Ordered like LSP's DiagnosticSeverity so adapters can pass the number through."""

    ERROR = 1
    WARNING = 2
    INFO = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        """``error``/``warning``/``info``/``hint`` (``information`` accepted), case-insensitive."""
        key = text.strip().lower()
        if key == "information":
            key = "info"
        for member in cls:
            if member.label == key:
                return member
        raise ValueError(f"unknown severity {text!r} (use error, warning, info, hint or off)")


@dataclass(frozen=True, slots=True)
class Fix:
    """A named set of edits. ``safe`` fixes may be applied without review (``safereq check --fix``).

    A safe fix never changes an ASIL, a link, an ID, a decomposition or a number (a limit): those are
    engineering decisions, offered as quick fixes a person chooses. So ``safe`` must be said, never assumed.
    """

    title: str
    edits: tuple[Edit, ...]
    safe: bool = False


@dataclass(frozen=True, slots=True)
class Related:
    """Another place that explains a finding: the parent with the higher ASIL, the first definition of an ID."""

    path: str
    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str
    severity: Severity
    message: str
    path: str
    span: Span
    fixes: tuple[Fix, ...] = ()
    related: tuple[Related, ...] = ()
    tags: frozenset[str] = field(default_factory=frozenset)  # "unnecessary", "deprecated" (LSP tags)

    @property
    def fix(self) -> Fix | None:
        """The preferred fix: the first one."""
        return self.fixes[0] if self.fixes else None

    def sort_key(self) -> tuple:
        return (self.path, self.span.start_line, self.span.start_col, self.rule, self.message)
