"""Text from documents and fragments made safe to print on a terminal.

A finding's message quotes the document (``'\\x1b]0;…' is not an ASIL``), and a fragment from another
repository carries names and messages its writer chose: printed as they are, escape sequences would retitle
the window, hide lines, move the cursor or fake other output, and bidirectional controls would reorder what
is read. Every control character (C0, DEL, C1) and every bidirectional control is shown as its ``\\x..`` /
``\\u....`` escape instead, so the same characters are visible and none acts.
"""

from __future__ import annotations

import re

_CONTROLS_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    c = m.group(0)
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def printable(text: str) -> str:
    """``text`` with control and bidirectional characters escaped (tabs and line breaks are kept)."""
    return _CONTROLS_RE.sub(_escape, text)
