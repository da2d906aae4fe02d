"""Making a fragment from one ``safereq check`` run, and reusing one whose inputs did not change."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..checks.findings import Finding
from .format import Document, Fragment, FragmentError, item_records, read


def root_of(paths: Sequence[str]) -> Path:
    """The folder a fragment's paths are relative to: the folder checked (or the common folder of the
    paths), so that a repository's fragment names its files as the repository does."""
    common = Path(os.path.commonpath([os.path.abspath(p) for p in paths]))
    return common if common.is_dir() else common.parent


def prefix_of(root: Path, cwd: Path) -> str:
    """How paths under ``root`` are shown from ``cwd`` (the CLI's display paths), as a prefix."""
    rel = os.path.relpath(root, cwd)
    return "" if rel == "." else rel.replace(os.sep, "/") + "/"


def config_key(config: Any) -> dict[str, Any]:
    """What of the configuration decides findings (rules, kinds, words, excludes, external IDs)."""
    keys = ("rules", "kinds", "words", "exclude", "external_ids")
    return {k: getattr(config, k) for k in keys if hasattr(config, k)}


def relative(display: str, prefix: str) -> str:
    if prefix and not display.startswith(prefix):
        raise FragmentError(f"{display} is not under the fragment's folder {prefix}")
    return display[len(prefix):]


def reusable(path: Path, inputs: str, prefix: str) -> Fragment | None:
    """The fragment at ``path`` if it was written for exactly these inputs (then nothing needs checking); a
    fragment whose seal, paths or digests do not hold is never reused (``read`` refuses it)."""
    if not path.is_file():
        return None
    try:
        fragment = read(path, prefix=prefix)
    except FragmentError:
        return None
    return fragment if fragment.inputs == inputs else None


def build(source: str, inputs: str, sources: Sequence[Any], ws: Any, checker: Any, findings: list[Finding],
          prefix: str, config: dict[str, Any]) -> Fragment:
    """The fragment of a finished check: documents, items, and its findings split into local and workspace."""
    local_by_path = checker.local_findings(ws, [s.path for s in sources if s.path in ws.documents])
    local = [f for fs in local_by_path.values() for f in fs]
    pending = Counter(local)
    workspace = []
    for f in findings:  # the findings that are not local ones are the workspace rules'
        if pending[f]:
            pending[f] -= 1
        else:
            workspace.append(f)

    def strip(f: Finding) -> Finding:
        from dataclasses import replace

        from ..checks.findings import Edit, Fix, Related

        return replace(
            f, path=relative(f.path, prefix),
            fixes=tuple(Fix(x.title, tuple(Edit(relative(e.path, prefix), e.span, e.new_text) for e in x.edits), x.safe)
                        for x in f.fixes),
            related=tuple(Related(relative(r.path, prefix), r.span, r.message) for r in f.related))

    documents = [Document(relative(s.path, prefix), s.digest, s.text) for s in sources]
    items = [it for s in sources if s.path in ws.documents for it in ws.documents[s.path].items]
    records = item_records(items)
    for r in records:
        r["path"] = relative(r["path"], prefix)
    return Fragment(source, inputs, documents, [strip(f) for f in local], [strip(f) for f in workspace], records,
                    config=config)
