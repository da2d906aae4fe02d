"""Random batches of changes keep the server's copy of a buffer equal to the editor's, in every position
encoding (issue 12, item 2): lone surrogates, CR typed before LF, text deleted between a lone CR and an LF,
astral characters. In-process and fast, so it tries far more sequences than the real-client fuzz
(``test_lsp_edit_sequences.py``), which found the CR/LF case first."""

from __future__ import annotations

import pytest

from .conftest import scale
from .fuzzers import buffer_sequence

ENCODINGS = ["utf-16", "utf-8", "utf-32"]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_random_changes_leave_the_servers_lines_the_editors(encoding):
    failures = [p for seed in range(scale(150, 5_000)) if (p := buffer_sequence(seed, encoding)) is not None]
    assert failures == [], failures[:3]
