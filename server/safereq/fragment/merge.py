"""The merge step: the fragments' documents as one workspace, their local findings taken as they are, and
the rules that need every repository run once over all of them.

The local findings (item and document rules) of a document depend on that document alone, so the merge
adopts them (``Checker.adopt_local``) instead of checking every item again; the workspace rules (dangling
and duplicate IDs, cycles, ASIL inheritance, coverage) are what changes when repositories meet, and they
run here. The documents are re-read from the fragments' texts, so the result is the result of one run over
all repositories, positions included (tests/fragment checks it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..checks.engine import Checker
from ..checks.findings import Finding
from ..workspace import Workspace
from .format import Fragment, FragmentError


@dataclass
class Merged:
    workspace: Workspace
    checker: Checker
    findings: list[Finding]
    documents: int


def merge(fragments: Sequence[Fragment], checker: Checker, workspace: Workspace) -> Merged:
    """Check the fragments as one workspace; two fragments with a document of the same shown path are refused."""
    owner: dict[str, str] = {}
    for frag in fragments:
        for doc in frag.documents:
            if doc.path in owner:
                raise FragmentError(f"{doc.path} is in two fragments ({owner[doc.path]} and {frag.source}): give "
                                    "each repository its own --fragment-name")
            owner[doc.path] = frag.source
    local: dict[str, list[Finding]] = {}
    for frag in fragments:
        for f in frag.local:
            local.setdefault(f.path, []).append(f)
    workspace.update_many((d.path, d.text) for frag in fragments for d in frag.documents)
    for path, doc in workspace.documents.items():
        checker.adopt_local(doc, local.get(path, []))
    return Merged(workspace, checker, checker.check(workspace), len(owner))
