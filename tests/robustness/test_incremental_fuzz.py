"""Incremental checking equals a fresh check after any edit sequence (issue 12, item 4), and the parser and
the checks survive any text.

The edits are character-level splices with lone surrogates, control characters, CR and CRLF, duplicate IDs,
headings split in the middle; see fuzzers.py. ``SAFEREQ_FUZZ_LONG=1`` runs many more seeds.
"""

from __future__ import annotations

import random

import pytest

from .conftest import scale
from .fuzzers import core_sequence, fresh_check, hostile_text


@pytest.mark.parametrize("seed", range(scale(12, 2_000)))
def test_random_edit_sequences_find_what_a_fresh_check_finds(seed):
    assert core_sequence(seed, edits=scale(20, 40)) is None


def test_hostile_text_parses_and_checks():
    rng = random.Random(3)
    for _ in range(scale(15, 1_000)):
        docs = {"a.md": hostile_text(rng), "b.md": hostile_text(rng, 500)}
        findings = fresh_check(docs)
        assert all(f.path in docs for f in findings)
