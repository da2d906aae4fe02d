"""Cap the text a passage vector is computed from: the chunk's header and the start of its text.

The bundled model's cost grows with the sequence length (attention is quadratic, every layer is per token), and
a clause's heading and first sentences say what it is about; the rest mostly adds cost. So only the first
``max_tokens`` tokens of a chunk's embed text (its contextual header comes first) are embedded. The stored chunk
text stays whole: full-text search, citations and the reranker see all of it. ``0`` embeds the whole text.
Off by default: re-embedding the dev set's corpora with caps of 128 and 256 lost retrieval quality against
whole chunks (benchmarks/README.md, "Capping the embedded text"); it is an opt-in for very long clauses.
"""

from __future__ import annotations

from collections.abc import Callable

DEFAULT_MAX_TOKENS = 0


def cap_text(text: str, max_tokens: int, count: Callable[[str], int]) -> str:
    """The longest prefix of ``text``, cut at a space or line break, that ``count`` puts at ≤ ``max_tokens``.

    ``count`` is the model's own token count (specials included), so the cap is exact for the model. A text
    without a break point within the cap (e.g. unspaced Chinese) is cut by characters instead.
    """
    if max_tokens <= 0 or count(text) <= max_tokens:
        return text
    cuts = [i for i, ch in enumerate(text) if ch in " \n"]
    lo, hi = 0, len(cuts) - 1  # find the last cut whose prefix fits
    best = -1
    while lo <= hi:
        mid = (lo + hi) // 2
        if count(text[:cuts[mid]]) <= max_tokens:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return text[:cuts[best]].rstrip() if best >= 0 else _cap_chars(text, max_tokens, count)


def _cap_chars(text: str, max_tokens: int, count: Callable[[str], int]) -> str:
    lo, hi, best = 1, len(text), 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if count(text[:mid]) <= max_tokens:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return text[:best]


def capped_passages(model, texts: list[str], max_tokens: int) -> list[str]:
    """``texts`` cut to the first ``max_tokens`` tokens the bundled ``model`` feeds (0: unchanged)."""
    if max_tokens <= 0:
        return texts
    return [cap_text(t, max_tokens, model.token_count) for t in texts]
