"""SARIF 2.1.0 as GitHub code scanning takes it, and as other CI dashboards import it.

One run: the tool (with ``informationUri``) and every rule (summary, default level, documentation page as
help, ``helpUri``, and ``precision`` and ``problem.severity`` in its properties), and one result per
finding with its rule, level, message, location, related places and fixes. What GitHub reads is written
the way it reads it:

- ``partialFingerprints.primaryLocationLineHash`` on every result (:mod:`.line_hash`), so an alert keeps its
  identity when lines move;
- columns in UTF-16 code units (``columnKind: utf16CodeUnits``), converted from safereq's code points with
  the document's text;
- related places referenced from the message as ``[text](id)``, so the alert links to them;
- file URIs relative to ``%SRCROOT%`` (the folder ``safereq check`` ran in; ``../`` for files given
  relative to it), and ``originalUriBaseIds`` without the machine's absolute path;
- at most GitHub's number of results per run (errors first) and of related places per result; a run that
  would exceed them says so in a tool notification.

rules/sarif.yaml holds the URIs, precisions and limits. tests/cli/test_check_sarif.py validates the output
against the SARIF 2.1.0 schema and with ``sarif-multitool validate --rule-kind Gh`` (GitHub's ingestion
rules).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..checks.findings import Finding, Fix, Severity
from ..checks.registry import RuleInfo
from ..data import load_rules_yaml
from ..model.ranges import Span
from . import dumps, dumps_array
from .line_hash import line_hashes

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}
_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")
_PROBLEM_SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "recommendation",
                     Severity.HINT: "recommendation"}


@lru_cache(maxsize=1)
def settings() -> dict[str, Any]:
    return load_rules_yaml("sarif.yaml")


class _Texts:
    """Document texts by path, for line hashes and UTF-16 columns; a file not given is read from disk."""

    def __init__(self, texts: Mapping[str, str], cwd: Path) -> None:
        self.texts = dict(texts)
        self.cwd = cwd
        self._lines: dict[str, list[str]] = {}
        self._astral: dict[str, frozenset[int]] = {}
        self._hashes: dict[str, list[str]] = {}
        self._artifacts: dict[str, dict[str, str]] = {}

    def text(self, path: str) -> str:
        if path not in self.texts:
            try:
                self.texts[path] = (self.cwd / path).read_bytes().decode("utf-8", errors="replace")
            except OSError:
                self.texts[path] = ""
        return self.texts[path]

    def line(self, path: str, number: int) -> str:
        if path not in self._lines:
            self._lines[path] = self.text(path).removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
        lines = self._lines[path]
        return lines[number] if 0 <= number < len(lines) else ""

    def column(self, path: str, line: int, col: int) -> int:
        """A 0-based code-point column as a 0-based UTF-16 column; only lines with a character beyond the
        BMP (two UTF-16 units) differ, and those are found once per document."""
        if path not in self._astral:
            self.line(path, 0)
            self._astral[path] = frozenset(k for k, text in enumerate(self._lines[path])
                                           if not text.isascii() and _ASTRAL.search(text))
        if line not in self._astral[path]:
            return col
        return col + len(_ASTRAL.findall(self.line(path, line), 0, col))

    def artifact(self, path: str) -> dict[str, str]:
        """The path's artifact location, worked out once per path: a report names a document many times."""
        if path not in self._artifacts:
            self._artifacts[path] = _artifact(path, self.cwd)
        return self._artifacts[path]

    def hash(self, path: str, line: int) -> str:
        if path not in self._hashes:
            self._hashes[path] = line_hashes(self.text(path))
        hashes = self._hashes[path]
        return hashes[min(line, len(hashes) - 1)]


def _region(span: Span, path: str, texts: _Texts) -> dict[str, int]:
    return {
        "startLine": span.start_line + 1,
        "startColumn": texts.column(path, span.start_line, span.start_col) + 1,
        "endLine": span.end_line + 1,
        "endColumn": texts.column(path, span.end_line, span.end_col) + 1,
    }


def _artifact(path: str, cwd: Path) -> dict[str, str]:
    """A path relative to ``%SRCROOT%`` when it is inside the working directory or given relative to it
    (``../specs/a.md``), so no absolute path of this machine is written; an absolute path elsewhere stays
    a ``file:`` URI (GitHub ignores results outside the repository either way)."""
    pure = PurePosixPath(path.replace(os.sep, "/"))
    if not pure.is_absolute() and ".." not in pure.parts:
        return {"uri": quote(pure.as_posix()), "uriBaseId": SRCROOT}
    absolute = (cwd / path).resolve()
    try:
        relative = PurePosixPath(absolute.relative_to(cwd.resolve()).as_posix())
    except ValueError:
        if pure.is_absolute():
            return {"uri": absolute.as_uri()}
        relative = PurePosixPath(os.path.relpath(absolute, cwd.resolve()).replace(os.sep, "/"))
    return {"uri": quote(relative.as_posix()), "uriBaseId": SRCROOT}


def _location(path: str, span: Span, texts: _Texts) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": texts.artifact(path), "region": _region(span, path, texts)}}


def _fix(fix: Fix, texts: _Texts) -> dict[str, Any]:
    by_path: dict[str, list[dict[str, Any]]] = {}
    for e in fix.edits:
        by_path.setdefault(e.path, []).append({"deletedRegion": _region(e.span, e.path, texts),
                                               "insertedContent": {"text": e.new_text}})
    return {
        "description": {"text": fix.title},
        "artifactChanges": [{"artifactLocation": texts.artifact(p), "replacements": r} for p, r in by_path.items()],
    }


def _help(info: RuleInfo) -> tuple[str, str]:
    """(first paragraph of "What it does", whole page) from the rule's documentation, or the summary."""
    try:
        page = info.docs_text()
    except OSError:
        return info.summary, info.summary
    m = re.search(r"\*\*What it does\.\*\*\s*(.+?)(?:\n\s*\n|$)", page, re.DOTALL)
    full = " ".join(m.group(1).split()) if m else info.summary
    return full, page


def precision(rule_id: str) -> str:
    table = settings()["precision"]
    return table["rules"].get(rule_id) or table["families"].get(rule_id.split("/", 1)[0], "high")


def _rule(info: RuleInfo, severity: Severity | None) -> dict[str, Any]:
    full, page = _help(info)
    name = "".join(part.capitalize() for part in re.split(r"[-/]", info.id))
    effective = severity or info.severity
    return {
        "id": info.id,
        "name": name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": full},
        "help": {"text": page.replace("**", ""), "markdown": page},
        "helpUri": settings()["help-uri"].format(page=PurePosixPath(info.docs_path).stem),
        "defaultConfiguration": {"enabled": severity is not None, "level": _LEVELS[effective]},
        "properties": {
            "tags": ["safety-requirements", info.family][: settings()["limits"]["tags"]],
            "precision": precision(info.id),
            "problem.severity": _PROBLEM_SEVERITY[effective],
        },
    }


def _escape(text: str) -> str:
    """Message text with the brackets SARIF reads as link syntax escaped."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _message(finding: Finding, related: int) -> str:
    """The finding's message, with links to its first ``related`` related places: ``[text](id)``."""
    text = _escape(finding.message)
    if not related:
        return text
    links = ", ".join(f"[{_escape(r.message) or 'related'}]({k})" for k, r in enumerate(finding.related[:related]))
    return f"{text} (see {links})"


def _cap(findings: Sequence[Finding], limit: int, suppressed: int = 0) -> tuple[list[Finding], int]:
    """At most ``limit`` findings, the most severe first kept, in their order; and how many were left out.
    The last ``suppressed`` findings (accepted ones) are kept only after every other."""
    if len(findings) <= limit:
        return list(findings), 0
    # Severity is ordered like LSP's (ERROR is 1): sorting by it puts errors first.
    first = len(findings) - suppressed
    keep = set(sorted(range(len(findings)), key=lambda k: (k >= first, int(findings[k].severity), k))[:limit])
    return [f for k, f in enumerate(findings) if k in keep], len(findings) - limit


def render(
    findings: Sequence[Finding], rules: Mapping[str, RuleInfo], severities: Mapping[str, Severity | None],
    cwd: Path | None = None, texts: Mapping[str, str] | None = None, limit: int | None = None,
    accepted: Sequence[tuple[Finding, str, str]] = (),
) -> str:
    """The SARIF log; ``severities`` are the configured ones (None: the rule is off in this run), ``texts`` the
    documents' texts by path (read from disk when missing), ``limit`` the result cap (GitHub's by default).

    ``accepted``: findings an accepted deviation suppressed, with the reason and the item, written as results
    with an in-source ``suppressions`` entry (its ``justification`` the reason), as GitHub code scanning reads
    them: shown as dismissed, not as open alerts."""
    cwd = cwd or Path.cwd()
    limits = settings()["limits"]
    doc_texts = _Texts(texts or {}, cwd)
    index = {rid: k for k, rid in enumerate(rules)}
    why = {id(f): (reason, item) for f, reason, item in accepted}
    findings = [*findings, *(f for f, _reason, _item in accepted)]
    kept, left_out = _cap(findings, limit if limit is not None else limits["results"], len(accepted))
    max_related = limits["related-locations"]

    def result(f: Finding) -> dict[str, Any]:
        related = f.related[:max_related]
        out: dict[str, Any] = {
            "ruleId": f.rule,
            "level": _LEVELS[f.severity],
            "message": {"text": _message(f, len(related))},
            "locations": [_location(f.path, f.span, doc_texts)],
            "partialFingerprints": {"primaryLocationLineHash": doc_texts.hash(f.path, f.span.start_line)},
        }
        if f.rule in index:
            out["ruleIndex"] = index[f.rule]
        if related:
            out["relatedLocations"] = [
                {"id": k, **_location(r.path, r.span, doc_texts), "message": {"text": r.message or "related"}}
                for k, r in enumerate(related)
            ]
        if f.fixes:
            out["fixes"] = [_fix(fix, doc_texts) for fix in f.fixes]
        if id(f) in why:
            reason, item = why[id(f)]
            out["suppressions"] = [{"kind": "inSource", "status": "accepted", "justification": reason or "(none given)",
                                    "properties": {"item": item}}]
        return out

    invocation: dict[str, Any] = {"executionSuccessful": True}
    if left_out:
        invocation["toolExecutionNotifications"] = [{
            "level": "warning",
            "message": {"text": f"{left_out} of {len(findings)} results are left out: GitHub code scanning takes "
                                f"at most {len(kept)} results per run. Errors are kept first; run safereq check "
                                "locally for the full list."},
        }]
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "safereq",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": settings()["information-uri"],
                "rules": [_rule(info, severities.get(rid)) for rid, info in rules.items()],
            }},
            "originalUriBaseIds": {SRCROOT: {
                "description": {"text": "The folder safereq check ran in (run it from the repository root)."}}},
            "columnKind": "utf16CodeUnits",
            "invocations": [invocation],
            "results": [],
        }],
    }
    # The results, nearly all of a large log, are encoded one by one into the place of the empty list: the
    # last value of the log, so the last '"results": []' of its text (inside a string a quote is escaped).
    head, _, tail = dumps(log, len(findings)).rpartition('"results": []')
    return f'{head}"results": {dumps_array(map(result, kept), len(findings), level=3)}{tail}'
