"""Untrusted text made safe to show: a model's replies and corpus passages are data, never markup or commands.

:func:`clean` removes terminal escape sequences, control and bidirectional-override characters, and whatever
would pose as something safereq itself writes: a citation ("cites ISO 26262-99:2018 §1 (verified): ..."), a
clause reference, a verification mark, an attribute line ("- Derived from: SG-9"), a heading or a list or
quote marker. The text comes back as one line, so nothing it contains can start a Markdown line.

:func:`rejection` says why a text must not be offered at all: it carries shell commands, talk about the
assistant's instructions or output, or links and scripts: what a model writes when it obeys an injection.
The patterns are data, in rules/patterns/untrusted.yaml. Stdlib only (the language server renders with it).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ...data import load_rules_yaml

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), other two-character escapes, and 8-bit CSI.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]")
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))
_SPACES = re.compile(r"[ \t]+")


@cache
def _patterns() -> tuple[dict[str, re.Pattern[str]], dict[str, re.Pattern[str]]]:
    data = load_rules_yaml("patterns/untrusted.yaml")
    flags = re.IGNORECASE | re.MULTILINE

    def compile_all(section: dict[str, str]) -> dict[str, re.Pattern[str]]:
        return {name: re.compile(str(rx).strip(), flags) for name, rx in section.items()}

    keys = sorted({alias for spec in load_rules_yaml("attributes.yaml")["attributes"].values()
                   for alias in spec.get("aliases", ()) if len(alias) > 1}, key=len, reverse=True)
    attribute = re.compile(r"^\s*(?:[-*+]\s+)?\**(?:" + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in keys)
                           + r")\**\s*[:：].*$", flags)
    return {"attribute-line": attribute, **compile_all(data["strip"])}, compile_all(data["reject"])


def strip_controls(text: str) -> str:
    """Without terminal escapes, control characters (newlines and tabs kept) and bidirectional overrides."""
    text = _ESCAPES.sub("", text).translate(_BIDI)
    return "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))


def clean(text: str) -> str:
    """``text`` as one safe line: escapes and controls removed, forged citations, clause references,
    verification marks, attribute lines, headings and line markers stripped, white space collapsed."""
    strip, _ = _patterns()
    text = strip_controls(unicodedata.normalize("NFC", text or ""))
    for name in ("attribute-line", "heading"):
        text = strip[name].sub("", text)
    text = strip["line-marker"].sub("", text)
    for name in ("citation", "clause-reference", "verified-marker"):
        text = strip[name].sub("", text)
    lines = [_SPACES.sub(" ", line).strip() for line in text.splitlines()]
    out = " ".join(line for line in lines if line)
    return re.sub(r"\s+([.,;:])", r"\1", out).strip(" :;,-")


def quote_line(text: str) -> str:
    """A corpus quote as one printable line: only escapes and controls removed (its words are evidence and
    stay as the clause has them; the verification already matched them against the indexed text)."""
    return " ".join(strip_controls(text or "").split())


def rejection(text: str) -> str:
    """Why ``text`` must not be offered ("" when it may): the name of the first reject pattern it matches."""
    _, reject = _patterns()
    plain = strip_controls(text or "")
    for name, rx in reject.items():
        if rx.search(plain):
            return name
    return ""
