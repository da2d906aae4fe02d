"""LOBSTER's ``lobster-req-trace`` (version 4): the requirements of a workspace for ``lobster-report``.

Each item and HARA row is one requirement whose tag is ``req <ID>`` (the tag a ``lobster-trace: <ID>``
comment in code or tests produces, so their traces resolve to our items), with its file location, kind,
text (the statement; ASIL appended as ``ASIL: D``) and status. ``refs`` point up the trace, as LOBSTER
reads them: an item's "Derived from" parents and "Hazard" events; a goal a HARA row names refers to that
row; a verification item refers to the requirements that name it under "Verified by".
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from .. import __version__
from .records import DocumentRecord, all_records

SCHEMA, VERSION = "lobster-req-trace", 4


def _tag(item_id: str) -> str:
    return f"req {item_id}"


def render(documents: list[DocumentRecord], kinds: set[str] | None = None) -> str:
    """The trace file of the workspace, or of the items of ``kinds`` only (one file per LOBSTER level); the
    up references are found in the whole workspace either way, so a test case selected alone still refers
    to the requirements that name it under "Verified by"."""
    records = all_records(documents)
    up: dict[str, list[str]] = defaultdict(list)
    for r in records:
        for key, target in r.link_targets():
            if key in ("derived-from", "hazard"):
                up[r.id].append(target)
            elif key == "safety-goal":  # HARA row → goal: the goal traces up to the event
                up[target].append(r.id)
            elif key == "verified-by":  # requirement → test: the test traces up to the requirement
                up[target].append(r.id)
    data: list[dict[str, Any]] = []
    seen: set[str] = set()
    for r in records:
        if r.id in seen or (kinds is not None and r.kind.upper() not in kinds):
            continue
        seen.add(r.id)
        text = r.text or r.title
        if r.attributes.get("asil"):
            text = f"{text}\nASIL: {r.attributes['asil']}"
        refs = list(dict.fromkeys(t for t in up.get(r.id, ()) if t != r.id))
        data.append({
            "tag": _tag(r.id),
            "location": {"kind": "file", "file": r.document, "line": r.line, "column": None},
            "name": r.id,
            "messages": [],
            "just_up": [], "just_down": [], "just_global": [],
            "refs": [_tag(t) for t in refs],
            "framework": "safereq",
            "kind": r.kind,
            "text": text,
            "status": r.attributes.get("status"),
        })
    body = {"data": data, "generator": f"safereq {__version__}", "schema": SCHEMA, "version": VERSION}
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"
