"""Where the shipped data lives: `rules/` and `corpora/`, in a checkout or inside an installed wheel.

A wheel carries them under ``safereq/_data/``; an editable install or a checkout reads them from the
repository root, so data edits take effect without reinstalling.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent


def _locate(name: str) -> Path:
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent.parent / name


def rules_dir() -> Path:
    """The shipped rule packs (word lists, kinds, attributes, ASIL tables, patterns, rule docs)."""
    return _locate("rules")


def corpora_dir() -> Path:
    """The shipped reference corpora and the clause catalogue."""
    return _locate("corpora")


@cache
def load_rules_yaml(relative: str) -> Any:
    """Parse one YAML file under rules/ once per process; shipped data is trusted, so errors propagate."""
    import yaml

    # libyaml's loader when PyYAML has it: the pure-Python one takes ~0.1 s for the word lists alone.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(rules_dir() / relative, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader)  # noqa: S506 (a safe loader)
