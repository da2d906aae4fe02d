"""primaryLocationLineHash as GitHub's upload action computes it: the published test vectors of
github/codeql-action's fingerprinting (inputs and expected hashes are facts about that algorithm)."""

from __future__ import annotations

import pytest

from safereq.report.line_hash import line_hashes


@pytest.mark.parametrize("text, expected", [
    ("", ["c129715d7a2bc9a3:1"]),
    (" a\nb\n  \t\tc\n d", ["271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"]),
    (" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
     ["8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1",
      "b86d3392aea1be30:1", "e6ceba753e1a442:1"]),
])
def test_published_vectors(text, expected):
    assert line_hashes(text) == expected


@pytest.mark.parametrize("ending", ["\n", "\r", "\r\n"])
def test_line_ends_do_not_change_the_hashes(ending):
    text = ending.join([" hello; \t", "world!!!", "", "", "  \t\tGreetings", " End", ""])
    assert line_hashes(text) == ["e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1",
                                 "e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1",
                                 "c129715d7a2bc9a3:1"]


def test_repeated_lines_are_numbered():
    assert line_hashes("Lorem ipsum dolor sit amet.\n" * 10) == [
        *(f"a7f2ff13bc495cf2:{n}" for n in range(1, 7)), "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
        "55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"]




def _unit_by_unit(text: str) -> list[str]:
    """The upload action's algorithm step by step (a rolling hash over a 100-unit window), as a reference for
    the vectorised one."""
    units = list(memoryview(text.encode("utf-16-le", "surrogatepass")).cast("H")) + [0xFFFF] + [0] * 100
    window, starts, value, index, line, at_start, after_cr = [0] * 100, [-1] * 100, 0, 0, 0, True, False
    counts: dict[str, int] = {}
    out: list[str] = []
    for position, unit in enumerate(units):
        real = position < len(units) - 100
        if real and (unit in (0x20, 0x09) or (after_cr and unit == 0x0A)):
            after_cr = False
            continue
        after_cr = real and unit == 0x0D
        unit = 0x0A if after_cr else unit
        if starts[index] != -1:
            key = format(value, "x")
            counts[key] = counts.get(key, 0) + 1
            out.append(f"{key}:{counts[key]}")
            starts[index] = -1
        if real and at_start:
            at_start, line = False, line + 1
            starts[index] = line
        at_start = at_start or unit == 0x0A
        value = (37 * value + unit - pow(37, 100, 1 << 64) * window[index]) & ((1 << 64) - 1)
        window[index], index = unit, (index + 1) % 100
    return out


def test_the_same_as_the_unit_by_unit_algorithm_on_random_text():
    import random

    rnd = random.Random(7)
    alphabet = [" ", "\t", "\r", "\n", "\r\n", "a", "b", "统", "🚗", "\uffff", "\ud800"]
    for _ in range(300):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 300)))
        assert line_hashes(text) == _unit_by_unit(text), repr(text)
    assert line_hashes("x" * 500) == _unit_by_unit("x" * 500)
