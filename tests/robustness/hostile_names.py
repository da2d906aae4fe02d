"""Generated file names that broke, or could break, the protocols safereq speaks with other programs.

Names are built from the pieces that matter to a line- or word-based protocol (newline, tab, carriage return,
space, quote, colon, a revision-looking prefix, a leading dash, non-ASCII, a digit glued to a word) rather
than copied in by hand, so that a new piece is one more entry in ``PIECES`` and every combination is tried.
"""

from __future__ import annotations

import itertools

# Pieces that mean something to git's batch protocols, to tokenisers or to shells.
PIECES = ("\n", "\t", "\r", " ", '"', ":", "HEAD:", "-", "0", "Ä", "行", "\\", "6")
STEMS = ("a", "Part", "goals")


def markdown_names() -> list[str]:
    """Markdown file names (one path component each) holding every piece, alone and in pairs, as prefix,
    infix and suffix of a stem; plus the name that shifted ``git cat-file --batch`` by one line."""
    names = {"0\nHEAD:a.md", "Part6.md", "part 6.md", "ISO26262Part6.md", "-n.md"}
    for stem, piece in itertools.product(STEMS, PIECES):
        names.update({f"{piece}{stem}.md", f"{stem}{piece}x.md", f"{stem}{piece}.md"})
    for a, b in itertools.combinations(PIECES[:6], 2):
        names.add(f"{a}{b}a.md")
    return sorted(n for n in names if "/" not in n and n not in (".md",))
