"""The ``io/*`` rules: problems met while finding and reading files, reported as findings.

They are not checks over a workspace (a file that cannot be read has no document), so they are not in the
registry's families; their metadata and docs live beside the others in rules/checks/io.yaml and
rules/docs/io-*.md so that every report format can describe them the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from ...data import load_rules_yaml
from ...workspace.loader import LoadProblem
from ..findings import Finding, Severity
from ..registry import RuleInfo, engine_rule_infos, rule_infos


@cache
def io_rule_infos() -> dict[str, RuleInfo]:
    return {
        f"io/{name}": RuleInfo(f"io/{name}", Severity.parse(spec["severity"]), True, spec["summary"], False)
        for name, spec in load_rules_yaml("checks/io.yaml")["rules"].items()
    }


def all_rule_infos() -> dict[str, RuleInfo]:
    """The registry's rules, the engine's own (deviations) and the io rules: everything a finding's ``rule``
    can name."""
    return {**rule_infos(), **engine_rule_infos(), **io_rule_infos()}


def io_findings(problems: Iterable[LoadProblem], severities: Mapping[str, Severity | None]) -> list[Finding]:
    """Findings for load problems; ``severities`` maps a rule id to its severity, or None when it is off."""
    infos = io_rule_infos()
    out = []
    for p in problems:
        severity = severities.get(p.code, infos[p.code].severity)
        if severity is not None:
            out.append(Finding(p.code, severity, p.message, p.path, p.span))
    return out
