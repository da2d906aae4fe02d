"""Documents of pathological shape (issue 12, item 5), each at any size ``n``.

Every shape is a single Markdown document; the plain chain is the baseline the others are compared with.
"""

from __future__ import annotations

from collections.abc import Callable

STATEMENT = "The function shall report the state within 10 ms."


def _item(i: int, links: str) -> str:
    return f"## FSR-{i}: Item {i}\n\n{STATEMENT}\n\n- ASIL: B\n- Derived from: {links}\n\n"


def chain(n: int) -> str:
    """FSR-1 is derived from SG-1, every further item from the one before: the ordinary shape."""
    head = "# Chain\n\n## SG-1: Goal\n\nThe vehicle shall stop.\n\n- ASIL: B\n\n"
    return head + "".join(_item(i, f"FSR-{i - 1}" if i > 1 else "SG-1") for i in range(1, n + 1))


def cycle(n: int) -> str:
    """A ``Derived from`` cycle through all n items."""
    return "# Cycle\n\n" + "".join(_item(i, f"FSR-{i % n + 1}") for i in range(1, n + 1))


def same_id(n: int) -> str:
    """n headings with the same ID, each derived from itself."""
    return "# Same ID\n\n" + _item(1, "FSR-1") * n


def hara(n: int) -> str:
    """One HARA table of n rows, each naming a safety goal (a tenth of them defined)."""
    goals = "".join(f"## SG-{g}: Goal {g}\n\nThe vehicle shall stop.\n\n- ASIL: D\n\n" for g in range(1, n // 10 + 2))
    rows = "".join(f"| HZ-{i} | Event {i} | S3 | E4 | C3 | D | SG-{i % (n // 10 + 1) + 1} |\n" for i in range(1, n + 1))
    return ("# HARA\n\n" + goals + "## Hazard analysis\n\n| ID | Hazardous event | S | E | C | ASIL | Safety goal |\n"
            "|---|---|---|---|---|---|---|\n" + rows)


def wide_attribute(n: int) -> str:
    """n items and one more derived from all of them in a single attribute."""
    head = "# Wide\n\n## SG-1: Goal\n\nThe vehicle shall stop.\n\n- ASIL: B\n\n"
    items = "".join(_item(i, "SG-1") for i in range(1, n + 1))
    return head + items + _item(n + 1, ", ".join(f"FSR-{i}" for i in range(1, n + 1)))


SHAPES: dict[str, Callable[[int], str]] = {
    "chain": chain, "cycle": cycle, "same-id": same_id, "hara": hara, "wide-attribute": wide_attribute,
}
