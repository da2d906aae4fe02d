"""SARIF 2.1.0, the format GitHub code scanning and other CI dashboards import.

One run: the tool with every rule (summary, default level and the rule's documentation page as help text),
and one result per finding with its rule, level, message, location, related places and fixes. File
locations are URIs relative to the working directory, given as the base ``%SRCROOT%``; a file outside it
gets an absolute ``file:`` URI. Regions are 1-based with code-point columns (``columnKind``), end exclusive.
tests/cli/test_sarif.py validates the output against the official schema.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..checks.findings import Finding, Fix, Severity
from ..checks.registry import RuleInfo
from ..model.ranges import Span
from . import dumps, one_based

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}


def _region(span: Span) -> dict[str, int]:
    line, col, end_line, end_col = one_based(span)
    return {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col}


@lru_cache(maxsize=4096)  # a report names each document for many findings; the path work is done once
def _artifact(path: str, cwd: Path) -> dict[str, str]:
    pure = PurePosixPath(path)
    if not pure.is_absolute() and ".." not in pure.parts:
        return {"uri": quote(pure.as_posix()), "uriBaseId": SRCROOT}
    return {"uri": (cwd / path).resolve().as_uri()}


def _location(path: str, span: Span, cwd: Path) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": _artifact(path, cwd), "region": _region(span)}}


def _fix(fix: Fix, cwd: Path) -> dict[str, Any]:
    by_path: dict[str, list[dict[str, Any]]] = {}
    for e in fix.edits:
        by_path.setdefault(e.path, []).append({"deletedRegion": _region(e.span), "insertedContent": {"text": e.new_text}})
    return {
        "description": {"text": fix.title},
        "artifactChanges": [{"artifactLocation": _artifact(p, cwd), "replacements": r} for p, r in by_path.items()],
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


def _rule(info: RuleInfo, severity: Severity | None) -> dict[str, Any]:
    full, page = _help(info)
    name = "".join(part.capitalize() for part in re.split(r"[-/]", info.id))
    return {
        "id": info.id,
        "name": name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": full},
        "help": {"text": page.replace("**", ""), "markdown": page},
        "defaultConfiguration": {"enabled": severity is not None, "level": _LEVELS[severity or info.severity]},
        "properties": {"tags": ["safety-requirements", info.family]},
    }


def render(
    findings: Sequence[Finding], rules: Mapping[str, RuleInfo], severities: Mapping[str, Severity | None],
    cwd: Path | None = None,
) -> str:
    """The SARIF log; ``severities`` are the configured ones (None: the rule is off in this run)."""
    cwd = cwd or Path.cwd()
    index = {rid: k for k, rid in enumerate(rules)}
    results = []
    for f in findings:
        result: dict[str, Any] = {
            "ruleId": f.rule,
            "level": _LEVELS[f.severity],
            "message": {"text": f.message},
            "locations": [_location(f.path, f.span, cwd)],
        }
        if f.rule in index:
            result["ruleIndex"] = index[f.rule]
        if f.related:
            result["relatedLocations"] = [
                {"id": k, **_location(r.path, r.span, cwd), "message": {"text": r.message}}
                for k, r in enumerate(f.related)
            ]
        if f.fixes:
            result["fixes"] = [_fix(fix, cwd) for fix in f.fixes]
        results.append(result)
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "safereq",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule(info, severities.get(rid)) for rid, info in rules.items()],
            }},
            "originalUriBaseIds": {SRCROOT: {"uri": cwd.resolve().as_uri().rstrip("/") + "/"}},
            "columnKind": "unicodeCodePoints",
            "invocations": [{"executionSuccessful": True}],
            "results": results,
        }],
    }
    return dumps(log, len(findings))
