"""Checks: pure functions from the workspace to findings.

The package is layered; a module imports only from the layers listed before its own:

- ``findings``: what a check reports (findings, fixes, related places, severities);
- ``registry``: rule metadata (rules/checks/<family>.yaml) and the decorators that bind check functions;
- ``config``: the project's configuration;
- ``context``: ``CheckContext``, the one object every check function reads;
- ``analysis``: text analysis shared by the rules (statements, modal verbs, word lists, units);
- ``families``: one module per rule family (format, modal, wording, ears, asil, trace, io);
- ``engine``: the checker and its caches, the item dispatch, the parallel cold check, applying fixes.

This module is the one place to import from, for a rule author (context, findings, decorators) and for the
rest of the code (checker, configuration, fixes, the io rules, the EARS description hovers show).
"""

from __future__ import annotations

from .config import Config, ConfigError, load_config, load_config_file
from .context import CheckContext
from .findings import Edit, Finding, Fix, Related, Severity
from .registry import (
    RuleInfo, document_check, item_check, item_part, linked_check, rule_infos, workspace_check,
)
from .engine.apply import EditConflict, apply_edits, plan_fixes
from .engine.checker import Checker
from .engine.parallel import default_jobs, parse_and_check
from .families.ears import classify_ears, describe_ears
from .families.io import all_rule_infos, io_findings, io_rule_infos

__all__ = [
    "CheckContext", "Checker", "Config", "ConfigError", "Edit", "EditConflict", "Finding", "Fix", "Related",
    "RuleInfo", "Severity", "all_rule_infos", "apply_edits", "classify_ears", "default_jobs", "describe_ears",
    "document_check", "io_findings", "io_rule_infos", "item_check", "item_part", "load_config",
    "linked_check", "load_config_file", "parse_and_check", "plan_fixes", "rule_infos", "workspace_check",
]
