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

from ..checks.config import Config
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
        local.update(derive_local(frag))
    workspace.update_many((d.path, d.text) for frag in fragments for d in frag.documents)
    for path, doc in workspace.documents.items():
        checker.adopt_local(doc, local.get(path, []))
    return Merged(workspace, checker, checker.check(workspace), len(owner))


def _config(frag: Fragment) -> Config:
    raw = frag.config
    try:
        return Config(rules={str(k): str(v) for k, v in dict(raw.get("rules") or {}).items()},
                      kinds=dict(raw.get("kinds") or {}), words=dict(raw.get("words") or {}),
                      exclude=tuple(raw.get("exclude") or ()), external_ids=tuple(raw.get("external_ids") or ()))
    except (TypeError, ValueError) as exc:
        raise FragmentError(f"{frag.source}: its configuration is malformed ({exc})") from None


def _key(f: Finding) -> tuple:
    return (f.path, f.span, f.rule, f.severity, f.message)


def derive_local(frag: Fragment) -> dict[str, list[Finding]]:
    """The local findings of the fragment's documents derived again from their texts, with the repository's
    configuration the fragment carries; FragmentError when they are not the findings the fragment claims
    (a finding removed, added or changed): its findings are never taken on trust."""
    from ..model.vocabulary import load_vocabulary

    config = _config(frag)
    ws = Workspace(load_vocabulary(config.kinds) if config.kinds else None)
    ws.update_many((d.path, d.text) for d in frag.documents)
    derived = Checker(config).local_findings(ws, [d.path for d in frag.documents])
    got = sorted(_key(f) for fs in derived.values() for f in fs)
    claimed = sorted(_key(f) for f in frag.local)
    if got != claimed:
        missing = [k for k in got if k not in claimed]
        extra = [k for k in claimed if k not in got]
        example = (missing or extra)[0]
        raise FragmentError(
            f"{frag.source}: its findings are not those of its documents ({len(missing)} missing, {len(extra)} not "
            f"found again; e.g. {example[2]} at {example[0]}:{example[1].start_line + 1}); it was changed after "
            "it was written, or by another safereq version: write it again with `safereq check --fragment`")
    return derived
