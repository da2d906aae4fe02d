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


def findings_paragraph_of(n: int) -> str:
    """One requirement of n sentences on one line, each with findings of several word-list rules (vague,
    escape clause, absolute percentage, open list, placeholder): the per-finding filters must not rescan the
    paragraph."""
    sentence = "The system reacts quickly as appropriate, detects 100 % of faults, etc., TBD. "
    return "# Findings\n\n## FSR-1: Vague\n\n" + sentence * n + "\n"


def _rule_words(language: str) -> list[str]:
    """Every entry of every word list of rules/<language>/ (short ones), to build sentences that hit them all."""
    from pathlib import Path

    import yaml

    words: list[str] = []
    for path in sorted((Path(__file__).resolve().parents[2] / "rules" / language).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for entries in (data.values() if isinstance(data, dict) else ()):
            if isinstance(entries, list):
                words += [w for w in entries if isinstance(w, str) and len(w) < 30 and "\n" not in w]
    return words


def word_lists_paragraph(n: int, language: str = "en") -> str:
    """One requirement of n sentences on one line, each ten entries drawn (seeded) from every word list of
    the language with modal verbs, numbers and percentages: every word-list filter and look-behind at once,
    where one that rescans the paragraph per entry shows as quadratic growth."""
    import random

    rng = random.Random(n)
    if language == "zh":
        pool = _rule_words("zh") + ["应", "应当", "必须", "可以", "将", "100 %", "10 ms", "5", "，", "比", "更"]
        head, sep, end = "---\nlanguage: zh\n---\n# 混合\n\n## FSR-1: 混合\n\n", "", "。"
        subject = "系统"
    else:
        pool = _rule_words("en") + ["shall", "should", "must", "will", "may", "100 %", "10 ms", "5", "if",
                                   "when", "then", ",", "it", "TBD", "etc.", "(see", ")", "= 100 %"]
        head, sep, end, subject = "# Mix\n\n## FSR-1: Mix\n\n", " ", ". ", "The system "
    return head + "".join(subject + sep.join(rng.choice(pool) for _ in range(10)) + end for _ in range(n)) + "\n"


SHAPES: dict[str, Callable[[int], str]] = {
    "chain": chain, "cycle": cycle, "same-id": same_id, "hara": hara, "wide-attribute": wide_attribute,
    "findings-paragraph": findings_paragraph_of, "word-lists-paragraph": word_lists_paragraph,
    "word-lists-paragraph-zh": lambda n: word_lists_paragraph(n, "zh"),
}


# Shapes for the memory figures (benchmarks/shapes/memory.py): each at about ``size`` characters. Besides the
# ones above, the kinds of text that cost the most memory per byte: a paragraph on one line, sentences that all
# have findings, many short lines, wide tables, prose with no items, code.
def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


def one_line(size: int) -> str:
    return "# One paragraph\n\n## FSR-1: One line\n\n" + _repeat("The system shall report the state within 10 ms and keep it. ", size) + "\n"


def findings_paragraph(size: int) -> str:
    """Every sentence vague, without a modal verb and with a TBD: findings on every one."""
    return "# Findings\n\n## FSR-1: Vague\n\n" + _repeat("The system reacts quickly as appropriate, TBD. ", size) + "\n"


def short_lines(size: int) -> str:
    return "# Short lines\n\n## FSR-1: Lines\n\nThe system shall x.\n\n" + _repeat("a\n", size)


def short_bullets(size: int) -> str:
    return "# Bullets\n\n## FSR-1: Bullets\n\nThe system shall x.\n\n" + _repeat("- x\n", size)


def wide_table(size: int) -> str:
    row = "|" + " x |" * 40 + "\n"
    return "# Table\n\n| " + " | ".join(f"c{i}" for i in range(40)) + " |\n|" + "---|" * 40 + "\n" + _repeat(row, size)


def prose_sections(size: int) -> str:
    return "# Prose\n\n" + _repeat("## Background\n\nSome words about the system and its context here.\n\n", size)


def code_fence(size: int) -> str:
    return "# Code\n\n```\n" + _repeat("int x = 1; // shall\n", size) + "```\n"


def _by_items(make: Callable[[int], str]) -> Callable[[int], str]:
    """A shape of n items as one of about ``size`` characters."""
    def sized(size: int) -> str:
        per_item = len(make(200).encode("utf-8")) / 200  # bytes: a Chinese character is three
        return make(max(2, int(size / per_item)))
    return sized


MEMORY_SHAPES: dict[str, Callable[[int], str]] = {
    **{name: _by_items(make) for name, make in SHAPES.items()},
    "one-line": one_line, "findings-paragraph": findings_paragraph, "short-lines": short_lines,
    "short-bullets": short_bullets, "wide-table": wide_table, "prose-sections": prose_sections,
    "code-fence": code_fence,
}
