"""The fragment file: stable JSON that a merge step reads back exactly.

What it holds, and why each part:

- ``source``: the name the repository's paths are shown under after a merge (``brake-ecu/docs/fsr.md``);
- ``inputs``: SHA-256 over safereq's version, the configuration and every document's path and digest: the
  fragment's content address. ``safereq check --fragment OUT`` reuses OUT when it names the same inputs;
- ``documents``: each document's path (relative to the checked folder), digest and **text**. The merge
  re-reads the documents rather than a summary of them, so that the rules that need every repository see
  exactly what a single run over all of them sees (checking the union in one run and merging the
  fragments of its parts give the same findings, which the tests check); the text is the repository's own
  Markdown, typically a few hundred kilobytes, and compresses well (``OUT.gz`` is written gzipped);
- ``items``: each item's ID, kind, path, line, ASIL and links, for tools that read fragments without
  safereq (a dashboard, a traceability matrix of the programme);
- ``findings``: this repository's findings, each marked ``local`` (item and document rules, which the merge
  takes as they are) or ``workspace`` (the rules that need the whole workspace, which the merge runs again).

Every list is sorted and every object's keys are sorted, so that the same inputs give the same bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..checks.findings import Edit, Finding, Fix, Related, Severity
from ..model.ranges import Span
from ..workspace.loader import write_atomically

FORMAT = "safereq-fragment"
VERSION = 1
MAX_BYTES = 512 * 1024 * 1024


class FragmentError(Exception):
    """A fragment cannot be read or written: one line that says which and why."""


@dataclass(frozen=True)
class Document:
    path: str
    digest: str
    text: str


@dataclass
class Fragment:
    source: str
    inputs: str
    documents: list[Document]
    local: list[Finding] = field(default_factory=list)
    workspace: list[Finding] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)
    version: str = __version__


def inputs_digest(documents: Iterable[tuple[str, str]], config: Mapping[str, Any]) -> str:
    """The content address of a check: safereq's version, the configuration, each (path, digest)."""
    h = hashlib.sha256()
    h.update(json.dumps({"safereq": __version__, "config": config}, sort_keys=True, default=str).encode())
    for path, digest in sorted(documents):
        h.update(b"\0" + path.encode("utf-8", "surrogatepass") + b"\0" + digest.encode())
    return h.hexdigest()


# -- findings -------------------------------------------------------------------------------------------------
def _span(s: Span) -> list[int]:
    return [s.start_line, s.start_col, s.end_line, s.end_col]


def _finding(f: Finding) -> dict[str, Any]:
    out: dict[str, Any] = {"rule": f.rule, "severity": f.severity.label, "message": f.message, "path": f.path,
                           "span": _span(f.span)}
    if f.fixes:
        out["fixes"] = [{"title": x.title, "safe": x.safe,
                         "edits": [{"path": e.path, "span": _span(e.span), "text": e.new_text} for e in x.edits]}
                        for x in f.fixes]
    if f.related:
        out["related"] = [{"path": r.path, "span": _span(r.span), "message": r.message} for r in f.related]
    if f.tags:
        out["tags"] = sorted(f.tags)
    return out


def _read_span(raw: Any) -> Span:
    if not (isinstance(raw, list) and len(raw) == 4 and all(isinstance(v, int) and v >= 0 for v in raw)):
        raise FragmentError(f"a span must be four non-negative integers, not {raw!r}")
    return Span(*raw)


def _read_finding(raw: Any, prefix: str) -> Finding:
    if not isinstance(raw, dict):
        raise FragmentError("a finding must be an object")
    try:
        return Finding(
            str(raw["rule"]), Severity.parse(str(raw["severity"])), str(raw["message"]), prefix + str(raw["path"]),
            _read_span(raw["span"]),
            tuple(Fix(str(x["title"]), tuple(Edit(prefix + str(e["path"]), _read_span(e["span"]), str(e["text"]))
                                              for e in x["edits"]), bool(x.get("safe", False)))
                  for x in raw.get("fixes", ())),
            tuple(Related(prefix + str(r["path"]), _read_span(r["span"]), str(r["message"]))
                  for r in raw.get("related", ())),
            frozenset(str(t) for t in raw.get("tags", ())),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise FragmentError(f"a finding is malformed ({type(exc).__name__}: {exc})") from None


# -- file -----------------------------------------------------------------------------------------------------
def to_json(fragment: Fragment) -> dict[str, Any]:
    return {
        "format": FORMAT, "version": VERSION, "safereq": fragment.version, "source": fragment.source,
        "inputs": fragment.inputs,
        "documents": [{"path": d.path, "digest": d.digest, "text": d.text}
                      for d in sorted(fragment.documents, key=lambda d: d.path)],
        "items": sorted(fragment.items, key=lambda i: (i["path"], i["line"], i["id"])),
        "findings": sorted([{"scope": "local", **_finding(f)} for f in fragment.local]
                           + [{"scope": "workspace", **_finding(f)} for f in fragment.workspace],
                           key=lambda f: (f["path"], f["span"], f["rule"], f["message"])),
    }


def dumps(fragment: Fragment) -> str:
    return json.dumps(to_json(fragment), sort_keys=True, ensure_ascii=False, separators=(",", ":"), indent=None) + "\n"


def write(fragment: Fragment, path: Path) -> None:
    """Write atomically (a temporary file beside it, then a rename); ``*.gz`` is gzipped (deterministically)."""
    data = dumps(fragment).encode("utf-8", "surrogatepass")
    if path.suffix == ".gz":
        data = gzip.compress(data, mtime=0)
    write_atomically(path, data)


def read(path: Path, *, prefix: str | None = None) -> Fragment:
    """Read a fragment; its paths get ``prefix`` (default: ``<source>/``). Anything else: FragmentError."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise FragmentError(f"{path}: larger than {MAX_BYTES // 2**20} MB; not read")
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        raw = json.loads(data.decode("utf-8", "surrogatepass"))
    except FileNotFoundError:
        raise FragmentError(f"{path}: no such fragment") from None
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise FragmentError(f"{path}: cannot be read ({exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise FragmentError(f"{path}: not a fragment (not JSON); write one with `safereq check --fragment`") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise FragmentError(f"{path}: not a safereq fragment (no \"format\": \"{FORMAT}\")")
    if raw.get("version") != VERSION:
        raise FragmentError(f"{path}: fragment version {raw.get('version')!r} is not supported (this safereq "
                            f"reads version {VERSION}); write it again with this safereq")
    try:
        source = str(raw["source"])
        pre = f"{source}/" if prefix is None else prefix
        documents = [Document(pre + str(d["path"]), str(d["digest"]), str(d["text"])) for d in raw["documents"]]
        findings = raw.get("findings", [])
        local = [_read_finding(f, pre) for f in findings if isinstance(f, dict) and f.get("scope") == "local"]
        workspace = [_read_finding(f, pre) for f in findings if isinstance(f, dict) and f.get("scope") == "workspace"]
        items = [i for i in raw.get("items", []) if isinstance(i, dict)]
        return Fragment(source, str(raw["inputs"]), documents, local, workspace, items, str(raw.get("safereq", "")))
    except (KeyError, TypeError) as exc:
        raise FragmentError(f"{path}: malformed fragment ({type(exc).__name__}: {exc})") from None


def item_records(items: Sequence[Any]) -> list[dict[str, Any]]:
    """The ``items`` summary: ID, kind, path, 1-based line, stated ASIL and links by key."""
    from ..workspace.facts import stated_asil
    from ..workspace.workspace import LINK_KEYS

    out = []
    for item in items:
        links = {k: [l.target for l in item.links(k) if l.valid] for k in LINK_KEYS}
        out.append({"id": item.id, "kind": item.kind, "path": item.path, "line": item.line + 1,
                    "asil": str(asil) if (asil := stated_asil(item)) else None, "links": {k: v for k, v in links.items() if v}})
    return out

