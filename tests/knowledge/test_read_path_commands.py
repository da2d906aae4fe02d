"""Commands that only read the index (``search``, ``index --status``, a no-op ``index``) stay on the light read
path (no LanceDB import), and ``index`` counts what ``--status`` lists (issue 25, item 16)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from safereq.cli.main import main

SERVER = Path(__file__).resolve().parents[2] / "server"


def _modules_after(argv: list[str], cwd: Path) -> dict:
    """Run ``safereq argv`` in a fresh interpreter; its exit status and whether lancedb / pydantic got imported."""
    code = ("import json, sys\nfrom safereq.cli.main import main\nstatus = main(sys.argv[1:])\n"
            "print(json.dumps({'status': status, 'lancedb': 'lancedb' in sys.modules, "
            "'pydantic': 'pydantic' in sys.modules}))")
    env = {"PYTHONPATH": str(SERVER), "PATH": "/usr/bin:/bin", "HOME": str(cwd)}
    done = subprocess.run([sys.executable, "-c", code, *argv], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture()
def text_index(tmp_path, corpus_dir) -> Path:
    """The fixture corpus indexed without vectors, plus a file with no text at all."""
    (tmp_path / "docs").mkdir()
    for f in corpus_dir.iterdir():
        (tmp_path / "docs" / f.name).write_bytes(f.read_bytes())
    (tmp_path / "docs" / "empty.md").write_text("", encoding="utf-8")
    index = tmp_path / "idx"
    assert main(["index", str(tmp_path / "docs"), "--index-dir", str(index), "--embedder", "none"]) == 0
    return index


@pytest.mark.parametrize("argv", [["search", "watchdog timeout"], ["index", "--status"],
                                  ["index", "docs", "--embedder", "none"]], ids=["search", "status", "no-op index"])
def test_read_only_commands_do_not_import_lancedb(text_index, argv):
    found = _modules_after([*argv, "--index-dir", str(text_index)], text_index.parent)
    assert found["status"] == 0
    assert found["lancedb"] is False and found["pydantic"] is False


def test_a_changed_file_still_goes_through_the_writer(text_index, capsys):
    doc = text_index.parent / "docs" / "brake-guide.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\n## 9 Added\n\nA new watchdog clause.\n", encoding="utf-8")
    assert main(["index", str(doc.parent), "--index-dir", str(text_index), "--embedder", "none", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["indexed"] == [str(doc)]


def test_index_counts_what_status_lists(text_index, capsys):
    docs = text_index.parent / "docs"
    assert main(["index", str(docs), "--index-dir", str(text_index), "--embedder", "none", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert main(["index", "--status", "--index-dir", str(text_index), "--json"]) == 0
    listed = {f["source"] for f in json.loads(capsys.readouterr().out)["files"]}
    assert set(report["skipped"]) == listed  # "unchanged" are exactly the files the index holds
    assert report["empty"] == [str(docs / "empty.md")]
    assert main(["index", str(docs), "--index-dir", str(text_index), "--embedder", "none"]) == 0
    out = capsys.readouterr().out
    assert f"{len(listed)} unchanged, 1 without text," in out


def test_rebuild_says_so_once_and_counts_no_file_unchanged(text_index, capsys):
    docs = text_index.parent / "docs"
    assert main(["index", str(docs), "--index-dir", str(text_index), "--embedder", "none", "--rebuild"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("from scratch") == 1, captured.err
    assert "; 0 unchanged, 1 without text," in captured.out
