"""``primaryLocationLineHash``: the per-line fingerprint GitHub code scanning uses to follow an alert while
lines move, computed as GitHub's upload action computes it when a SARIF file comes without one.

The fingerprint of a line is a rolling polynomial hash (base 37, modulo 2**64) over the next 100 characters
of the file from the start of that line, where spaces and tabs are skipped and every line end counts as one
``\\n``; characters are UTF-16 code units, as in JavaScript. A hash seen before in the file gets the next
occurrence number: ``"<hex>:<n>"``. Writing it ourselves means an alert keeps its identity even when the
SARIF file is uploaded by a tool that does not add fingerprints.
"""

from __future__ import annotations

_WINDOW = 100
_BASE = 37
_LF, _END = ord("\n"), 0xFFFF


def line_hashes(text: str) -> list[str]:
    """The fingerprint of every line of ``text`` (index 0 is line 1); one more for a final line end.

    Computed for all lines at once with numpy rather than unit by unit: the units are the text's code units
    with line ends made one ``\\n`` and spaces and tabs dropped (in that order, as the upload action skips
    them: ``\\r \\n`` is two line ends), then an end marker and zeros; the hash of a line is the polynomial
    over the 100 units from its start, whose 64-bit arithmetic numpy's ``uint64`` wraps as the action's does.
    """
    import numpy as np

    units = text.replace("\r\n", "\n").replace("\r", "\n").replace(" ", "").replace("\t", "")
    data = np.frombuffer(units.encode("utf-16-le", "surrogatepass"), dtype="<u2")
    seq = np.zeros(len(data) + 1 + _WINDOW, dtype=np.uint64)
    seq[: len(data)] = data
    seq[len(data)] = _END
    starts = np.concatenate(([0], np.flatnonzero(data == _LF) + 1))
    value = np.zeros(len(starts), dtype=np.uint64)
    base = np.uint64(_BASE)
    for k in range(_WINDOW):
        value = value * base + seq[starts + k]
    counts: dict[int, int] = {}
    out: list[str] = []
    for v in value.tolist():
        n = counts[v] = counts.get(v, 0) + 1
        out.append(f"{v:x}:{n}")
    return out
