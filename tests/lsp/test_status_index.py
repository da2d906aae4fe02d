"""The status's ``index`` field: set only when a table with data is there. After the index was deleted and the
next run cancelled before its first file, the folder holds an empty table, which is no index (the status bar
said "indexed" then)."""

from __future__ import annotations

from pathlib import Path

from safereq.cli.main import main
from safereq.lsp.status import has_index

CORPUS = Path(__file__).resolve().parents[1] / "knowledge" / "fixtures" / "corpus"


def test_an_empty_table_is_no_index_and_a_filled_one_is(tmp_path):
    from safereq.knowledge.store import Store

    index = tmp_path / "index"
    assert not has_index(index)
    index.mkdir()
    assert not has_index(index)
    Store(index, reader=False).ensure("none", 0)  # what a run cancelled before its first file leaves
    assert any(index.rglob("*.manifest")) and not has_index(index)
    assert main(["index", str(CORPUS), "--index-dir", str(index), "--embedder", "none"]) == 0
    assert has_index(index)
