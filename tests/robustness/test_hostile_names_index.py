"""An index of a document with any name is healthy, and ``--rebuild`` always leaves a healthy index.

The integrity probe used to search for the first four-letter run of letters in the first chunk, so a document
named ``Part6.md`` (one token, ``part6``, for the full-text index) was searched as ``part`` and the index was
declared damaged for good: exit 3, and ``--rebuild`` built the same "damaged" index again. Real LanceDB, one
index per generated name that glues a digit to a word, or holds a newline or tab.
"""

from __future__ import annotations

import re

import pytest

from safereq.cli.main import main

from .hostile_names import markdown_names

NAMES = [n for n in markdown_names() if re.search(r"[^\W\d_]\d|\d[^\W\d_]", n) or "\n" in n or "\t" in n][::2]
TEXT = "# Watchdog\n\nThe watchdog shall reset the controller when the heartbeat stops.\n"


def _run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("name", NAMES, ids=repr)
def test_an_index_of_any_name_is_healthy_and_rebuilt_healthy(tmp_path, capsys, name):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / name).write_text(TEXT, encoding="utf-8")
    where = ["--index-dir", str(tmp_path / "index")]
    for extra in ((), ("--rebuild",)):
        code, text = _run(capsys, "index", str(corpus), "--embedder", "none", *extra, *where)
        assert code == 0, text
        code, text = _run(capsys, "search", "watchdog", "--mode", "fts", *where)
        assert code == 0 and "heartbeat" in text, text
        code, text = _run(capsys, "index", "--status", *where)
        assert code == 0, text
