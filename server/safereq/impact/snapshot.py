"""What a linked item depends on in its target, and a short fingerprint of it.

A child derived from a safety goal depends on what the goal says (its statement) and on the attributes that
decide what the child must achieve: the ASIL, the safe state, the FTTI and the allocation. A change of the
title, the status or the rationale does not put the child in question, so those are left out. A project may
name further attribute keys (``[impact] attributes``), e.g. a custom ``Operating mode``.

The snapshot keeps the values themselves, not only their hash, so that a suspect link can say what changed
("ASIL: C → D"); the fingerprint names a snapshot in the review file and in messages.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping

from ..model.document import Item

STATEMENT = "statement"
#: The attributes every project's links depend on, in the order messages list them.
DEFAULT_KEYS: tuple[str, ...] = ("asil", "safe-state", "ftti", "allocated-to")
_SPACE = re.compile(r"\s+")

Snapshot = dict[str, str]


def _norm(text: str) -> str:
    """White space folded: re-wrapping a paragraph is not a change of meaning."""
    return _SPACE.sub(" ", text).strip()


def keys_for(extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The attributes compared: the defaults, then a project's own (``[impact] attributes``)."""
    return DEFAULT_KEYS + tuple(k for k in extra if k not in DEFAULT_KEYS)


def snapshot(item: Item, keys: Iterable[str] = DEFAULT_KEYS) -> Snapshot:
    """The item's statement and relevant attributes, empty values left out (a missing ASIL is no entry)."""
    out: Snapshot = {}
    statement = _norm(item.statement.text)
    if statement:
        out[STATEMENT] = statement
    for key in keys:
        values = [_norm(a.value) for a in item.attributes if a.key == key and a.value.strip()]
        if values:
            out[key] = "; ".join(values)
    return out


def fingerprint(snap: Mapping[str, str]) -> str:
    """Twelve hex digits of SHA-256 over the canonical JSON of the snapshot: short enough to read in a diff,
    long enough that two versions of one item never collide in practice."""
    canonical = json.dumps(dict(snap), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]


def changes(old: Mapping[str, str], new: Mapping[str, str]) -> list[tuple[str, str | None, str | None]]:
    """``(field, old value, new value)`` for each field that differs; statement first, then attributes."""
    order = [STATEMENT, *sorted(k for k in {*old, *new} if k != STATEMENT)]
    return [(k, old.get(k), new.get(k)) for k in order if old.get(k) != new.get(k)]


def field_label(key: str) -> str:
    """How messages name a field: the attribute's label from rules/attributes.yaml, else the key."""
    if key == STATEMENT:
        return "statement"
    from ..data import load_rules_yaml

    spec = (load_rules_yaml("attributes.yaml").get("attributes") or {}).get(key) or {}
    return str(spec.get("label") or key)


def _focus(old: str, new: str, context: int = 3) -> tuple[str, str]:
    """The two values cut to the words that differ, with a few words of context and an ellipsis where words
    were left out, so that a long statement's one changed number is what the message shows."""
    a, b = old.split(" "), new.split(" ")
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    lo = max(0, start - context)
    def cut(words: list[str]) -> str:
        hi = len(words) - max(0, end - context)
        return ("… " if lo else "") + " ".join(words[lo:hi]) + (" …" if hi < len(words) else "")
    return cut(a), cut(b)


def describe(changed: list[tuple[str, str | None, str | None]], width: int = 60) -> str:
    """``ASIL: C → D; statement: "… torque to 3 Nm." → "… torque to 2 Nm."``: long values are cut to the
    words that differ, then to ``width`` characters."""

    def show(value: str | None) -> str:
        if value is None:
            return "(none)"
        cut = value if len(value) <= width else value[: width - 1] + "…"
        return f'"{cut}"' if " " in cut else cut

    parts = []
    for key, old, new in changed:
        if old is not None and new is not None and max(len(old), len(new)) > width:
            old, new = _focus(old, new)
        parts.append(f"{field_label(key)}: {show(old)} → {show(new)}")
    return "; ".join(parts)
