"""The context every check function reads: the workspace, the configuration and a way to build findings.

A leaf of the checks package: the rule families, the text analysis and the engine all import it, and it
imports none of them, so no family needs the engine to be importable (and the engine no family).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..model.ranges import Span
from ..workspace import Workspace
from .config import Config
from .findings import Finding, Fix, Related, Severity

if TYPE_CHECKING:
    from ..impact.review_state import ReviewState


# Shared by the findings without tags (nearly all): an empty frozenset is a new object each time, 200 bytes.
_NO_TAGS: frozenset[str] = frozenset()


@dataclass
class CheckContext:
    """What a check function may use: the workspace, the configuration and a way to build findings.

    ``memo`` is scratch space shared by the checks of one run, for analyses that several rules need
    (e.g. the modal-verb scan of a statement); keys should start with the family name. ``keep`` is the same
    kind of space kept by the checker across runs, for the caches of linked rules. ``review`` is the
    workspace's review state (``safereq-review.jsonl``), when the front end loaded one.
    """

    workspace: Workspace
    config: Config
    severities: dict[str, Severity]
    memo: dict[Any, Any] = field(default_factory=dict)
    keep: dict[Any, Any] = field(default_factory=dict)
    review: ReviewState | None = None

    def finding(
        self, rule: str, path: str, span: Span, message: str, *, fixes: Iterable[Fix] = (),
        related: Iterable[Related] = (), tags: Iterable[str] = (),
    ) -> Finding:
        return Finding(rule, self.severities[rule], message, path, span, tuple(fixes), tuple(related),
                       frozenset(tags) if tags else _NO_TAGS)

