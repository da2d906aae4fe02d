"""The words the parser needs to know: item kinds and attribute keys, from rules/ plus user configuration."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..data import load_rules_yaml

_WS = re.compile(r"\s+")


def fold_key(key: str) -> str:
    """Case-insensitive, white-space-folded form of an attribute key, as written by users."""
    return _WS.sub(" ", key.strip()).casefold()


@dataclass(frozen=True)
class Kind:
    prefix: str
    name: str
    category: str


@dataclass(frozen=True)
class AttributeKey:
    key: str
    type: str


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """Kinds by ID prefix and attribute keys by folded alias; compared by identity so caches stay cheap."""

    kinds: dict[str, Kind] = field(default_factory=dict)
    attributes: dict[str, AttributeKey] = field(default_factory=dict)
    _seen: dict[str, AttributeKey | None] = field(default_factory=dict)  # raw key → lookup, bounded below
    # The parser's memo of the lines it read with these words (see model.parser): documents repeat lines
    # such as ``- ASIL: B``, and what a line means depends on the vocabulary, so the memo lives here.
    line_memo: dict[str, Any] = field(default_factory=dict, repr=False)

    def kind_of(self, prefix: str) -> Kind | None:
        return self.kinds.get(prefix)

    def attribute_key(self, raw_key: str) -> AttributeKey | None:
        try:
            return self._seen[raw_key]
        except KeyError:
            found = self.attributes.get(fold_key(raw_key))
            if len(self._seen) < 4096:
                self._seen[raw_key] = found
            return found


def load_vocabulary(extra_kinds: dict[str, dict[str, str]] | None = None) -> Vocabulary:
    """The shipped vocabulary, with kinds added or overridden by configuration (``[tool.safereq.kinds]``)."""
    kinds_data = dict(load_rules_yaml("kinds.yaml")["kinds"])
    kinds_data.update(extra_kinds or {})
    kinds = {
        prefix: Kind(prefix, spec.get("name", prefix), spec.get("category", "requirement"))
        for prefix, spec in kinds_data.items()
    }
    attributes: dict[str, AttributeKey] = {}
    for key, spec in load_rules_yaml("attributes.yaml")["attributes"].items():
        entry = AttributeKey(key, spec["type"])
        for alias in spec["aliases"]:
            attributes[fold_key(str(alias))] = entry
    return Vocabulary(kinds, attributes)
