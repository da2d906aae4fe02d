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
- ``findings``: this repository's findings, each marked ``local`` (item and document rules) or ``workspace``
  (the rules that need the whole workspace, which the merge runs again);
- ``config``: what of the repository's configuration decides findings, so that the merge can derive the
  local findings again from the texts and refuse a fragment whose findings are not those of its documents;
- ``seal``: SHA-256 over everything else, so that a damaged or hand-edited fragment (a finding removed) is
  never reused by ``check --fragment``. It has no key: it catches damage and careless edits, not a forger;
  the merge's re-derivation is what a forged fragment cannot pass.

What a fragment says is not trusted: every path must be a plain relative path naming one of its documents
(a fix can never point outside the repository), and each document's ``text_digest`` must be that of its text.

Every list is sorted and every object's keys are sorted, so that the same inputs give the same bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..checks.findings import Edit, Finding, Fix, Related, Severity
from ..model.ranges import Span
from ..workspace.atomic import write_atomically
from ..workspace.json_input import NumberTooLong, loads
from ..workspace.unpack import TooLargeUnpacked, gunzip

FORMAT = "safereq-fragment"
VERSION = 2
MAX_BYTES = 512 * 1024 * 1024  # on the file, and on what a gzipped one unpacks to


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
    config: dict[str, Any] = field(default_factory=dict)


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
        raise FragmentError(f"a span must be four non-negative integers, not {str(raw)[:60]}")
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
def seal_of(raw: Mapping[str, Any]) -> str:
    """The seal of a fragment's JSON: SHA-256 of its canonical text without the seal itself."""
    body = {k: v for k, v in raw.items() if k != "seal"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=list)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def to_json(fragment: Fragment) -> dict[str, Any]:
    raw = _body(fragment)
    return {**raw, "seal": seal_of(raw)}


def _body(fragment: Fragment) -> dict[str, Any]:
    return {
        "format": FORMAT, "version": VERSION, "safereq": fragment.version, "source": fragment.source,
        "inputs": fragment.inputs, "config": json.loads(json.dumps(fragment.config, default=list)),
        "documents": [{"path": d.path, "digest": d.digest, "text": d.text, "text_digest": text_digest(d.text)}
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
            data = gunzip(data, MAX_BYTES, what=str(path))  # bounded by what it unpacks to (issue 25, item 7)
        raw = loads(data.decode("utf-8", "surrogatepass"))
    except FileNotFoundError:
        raise FragmentError(f"{path}: no such fragment") from None
    except TooLargeUnpacked as exc:
        raise FragmentError(str(exc)) from None
    except (EOFError, zlib.error) as exc:
        raise FragmentError(f"{path}: cannot be read (damaged gzip: {exc})") from None
    except OSError as exc:
        raise FragmentError(f"{path}: cannot be read ({exc})") from None
    except NumberTooLong as exc:
        raise FragmentError(f"{path}: not a fragment safereq wrote: {exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise FragmentError(f"{path}: not a fragment (not JSON); write one with `safereq check --fragment`") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise FragmentError(f"{path}: not a safereq fragment (no \"format\": \"{FORMAT}\")")
    if raw.get("version") != VERSION:
        raise FragmentError(f"{path}: fragment version {raw.get('version')!r} is not supported (this safereq "
                            f"reads version {VERSION}); write it again with this safereq")
    if raw.get("seal") != seal_of(raw):
        raise FragmentError(f"{path}: its seal does not match its content (damaged or edited by hand); write it "
                            "again with `safereq check --fragment`")
    try:
        source = str(raw["source"])
        _check_name(source, "fragment name")
        pre = f"{source}/" if prefix is None else prefix
        documents = []
        for d in raw["documents"]:
            rel, text = str(d["path"]), str(d["text"])
            _check_name(rel, "document path")
            if str(d.get("text_digest")) != text_digest(text):
                raise FragmentError(f"{path}: the text of {rel!r} does not have the digest it carries; write the "
                                    "fragment again with `safereq check --fragment`")
            documents.append(Document(pre + rel, str(d["digest"]), text))
        findings = raw.get("findings", [])
        local = [_read_finding(f, pre) for f in findings if isinstance(f, dict) and f.get("scope") == "local"]
        workspace = [_read_finding(f, pre) for f in findings if isinstance(f, dict) and f.get("scope") == "workspace"]
        items = [i for i in raw.get("items", []) if isinstance(i, dict)]
        config = raw.get("config", {})
        if not isinstance(config, dict):
            raise TypeError("config must be an object")
        fragment = Fragment(source, str(raw["inputs"]), documents, local, workspace, items,
                            str(raw.get("safereq", "")), config)
    except (KeyError, TypeError) as exc:
        raise FragmentError(f"{path}: malformed fragment ({type(exc).__name__}: {exc})") from None
    _confine(fragment, path)
    return fragment


def _check_name(name: str, what: str) -> None:
    """A plain relative POSIX path: no absolute path, no ``..``, no empty part, no control character."""
    parts = name.split("/")
    if (not name or name.startswith("/") or "\\" in name or any(p in ("", ".", "..") for p in parts)
            or any(ord(c) < 32 or ord(c) == 127 for c in name) or (len(name) > 1 and name[1] == ":")):
        raise FragmentError(f"the {what} {name!r} is not a plain relative path")


def _confine(fragment: Fragment, path: Path) -> None:
    """Every path a finding, a fix or a related place names is one of the fragment's documents."""
    known = {d.path for d in fragment.documents}
    for f in fragment.local + fragment.workspace:
        named = [f.path, *(e.path for x in f.fixes for e in x.edits), *(r.path for r in f.related)]
        for name in named:
            if name not in known:
                raise FragmentError(f"{path}: a finding names {name!r}, which is not one of the fragment's "
                                    "documents (a fix may only edit the repository's own files)")


def text_digest(text: str) -> str:
    """The digest of a document's text as carried (the file's own digest, of its bytes, cannot be recomputed
    from the decoded text when its line ends are mixed)."""
    from ..workspace.loader import digest_of

    return digest_of(text.encode("utf-8", "surrogatepass"))


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

