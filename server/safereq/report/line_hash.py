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
_MASK = (1 << 64) - 1
_FIRST = pow(_BASE, _WINDOW, 1 << 64)
_SKIPPED = (ord(" "), ord("\t"))
_LF, _CR, _END = ord("\n"), ord("\r"), 0xFFFF


def _code_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [data[i] | (data[i + 1] << 8) for i in range(0, len(data), 2)]


def line_hashes(text: str) -> list[str]:
    """The fingerprint of every line of ``text`` (index 0 is line 1); one more for a final line end."""
    window = [0] * _WINDOW
    starts = [-1] * _WINDOW  # the line number that starts at each window slot, or -1
    value = 0
    index = 0
    line = 0
    at_line_start = True
    after_cr = False
    counts: dict[str, int] = {}
    out: list[str] = []

    def emit() -> None:
        key = format(value, "x")
        counts[key] = counts.get(key, 0) + 1
        out.append(f"{key}:{counts[key]}")
        starts[index] = -1

    def push(unit: int) -> None:
        nonlocal value, index
        oldest = window[index]
        window[index] = unit
        value = (_BASE * value + unit - _FIRST * oldest) & _MASK
        index = (index + 1) % _WINDOW

    def feed(unit: int) -> None:
        nonlocal line, at_line_start, after_cr
        if unit in _SKIPPED or (after_cr and unit == _LF):
            after_cr = False
            return
        after_cr = unit == _CR
        if after_cr:
            unit = _LF
        if starts[index] != -1:
            emit()
        if at_line_start:
            at_line_start = False
            line += 1
            starts[index] = line
        if unit == _LF:
            at_line_start = True
        push(unit)

    for unit in _code_units(text):
        feed(unit)
    feed(_END)
    for _ in range(_WINDOW):
        if starts[index] != -1:
            emit()
        push(0)
    return out
