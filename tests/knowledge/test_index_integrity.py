"""A damaged index: every kind of damage gives a clear message and exit code, never a traceback or silently
empty results; ``safereq index`` goes back to the last good version LanceDB keeps; ``--rebuild`` repairs the
rest. Real LanceDB tables, damaged on disk the way a crash, a full disk or a careless user would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from safereq.cli.main import main

from .knowledge_helpers import FIXTURES

CORPUS = FIXTURES / "corpus"
TABLE = "chunks.lance"
QUERY = "watchdog"  # in the fixture corpus: a good index finds it


@pytest.fixture(scope="module")
def good_index(tmp_path_factory) -> Path:
    index = tmp_path_factory.mktemp("good") / "index"
    assert main(["index", str(CORPUS), "--index-dir", str(index), "--embedder", "none"]) == 0
    return index


def _manifests(d: Path) -> list[Path]:
    return sorted((d / TABLE / "_versions").glob("*.manifest"))  # Lance names the newest version lowest


def _data(d: Path) -> list[Path]:
    return sorted((d / TABLE / "data").glob("*.lance"))


def _truncate(p: Path) -> None:
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _junk(p: Path) -> None:
    p.write_bytes(b"LANC" + bytes(range(256)) * 4)


def _empty(p: Path) -> None:
    p.write_bytes(b"")


def _replace_with_file(p: Path) -> None:
    shutil.rmtree(p)
    p.write_text("not an index\n")


# name → (damage, exit code of search, words of its message, exit code of a plain `safereq index` re-run)
CASES = {
    "manifest truncated": (lambda d: _truncate(_manifests(d)[0]), 3, "version", 0),
    "manifest junk": (lambda d: _junk(_manifests(d)[0]), 3, "cannot be read", 0),
    "manifest emptied": (lambda d: _empty(_manifests(d)[0]), 3, "cannot be read", 0),
    "every manifest junk": (lambda d: [_junk(m) for m in _manifests(d)], 3, "cannot be read", 3),
    "data file truncated": (lambda d: [_truncate(p) for p in _data(d)], 3, "cannot be read", 0),
    "data file junk": (lambda d: [_junk(p) for p in _data(d)], 3, "cannot be read", 0),
    "data file emptied": (lambda d: [_empty(p) for p in _data(d)], 3, "cannot be read", 0),
    "data file deleted": (lambda d: [p.unlink() for p in _data(d)], 3, "Not found", 0),
    "_versions deleted": (lambda d: shutil.rmtree(d / TABLE / "_versions"), 3, "_versions", 3),
    "_versions emptied": (lambda d: [p.unlink() for p in (d / TABLE / "_versions").iterdir()], 3, "no version", 3),
    "every file emptied": (lambda d: [_empty(p) for p in d.rglob("*") if p.is_file()], 3, "cannot be read", 3),
    "full-text index deleted": (lambda d: shutil.rmtree(d / TABLE / "_indices"), 3, "full-text index", 0),
    "full-text index truncated": (lambda d: [_truncate(p) for p in (d / TABLE / "_indices").rglob("*.lance")], 3,
                                  "full-text index", 0),
    "table folder is a file": (lambda d: _replace_with_file(d / TABLE), 3, "is a file", 3),
    "index path is a file": (lambda d: _replace_with_file(d), 2, "is a regular file", 2),
}


def _run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("name", list(CASES))
def test_damaged_index_is_explained_repaired_and_rebuilt(name, good_index, tmp_path, capsys):
    damage, search_code, words, index_code = CASES[name]
    index = tmp_path / "index"
    shutil.copytree(good_index, index)
    damage(index)
    where = ["--index-dir", str(index)]

    code, text = _run(capsys, "search", QUERY, "--mode", "fts", *where)
    assert code == search_code and words in text and "Traceback" not in text, text
    assert ("run 'safereq index" in text) if code == 3 else ("--index-dir" in text), text
    code, text = _run(capsys, "index", "--status", *where)
    assert code == search_code and words in text, text

    code, text = _run(capsys, "index", str(CORPUS), "--embedder", "none", *where)
    assert code == index_code, text
    if index_code == 0:  # went back to a good version (or rebuilt the full-text index), then brought it up to date
        assert "damaged" in text, text
        code, text = _run(capsys, "search", QUERY, "--mode", "fts", *where)
        assert code == 0 and "watchdog" in text.lower(), text
    elif index_code == 3:
        assert "--rebuild" in text, text

    code, text = _run(capsys, "index", str(CORPUS), "--embedder", "none", "--rebuild", *where)
    if name == "index path is a file":  # not ours to delete: the message says what to do
        assert code == 2 and "is a regular file" in text and index.read_text() == "not an index\n", text
        return
    assert code == 0 and "rebuilt" in text, text
    code, text = _run(capsys, "search", QUERY, "--mode", "fts", *where)
    assert code == 0 and "watchdog" in text.lower(), text
    code, text = _run(capsys, "index", "--status", *where)
    assert code == 0 and "2 file(s)" in text, text


def test_fallback_keeps_the_damaged_manifests_aside(good_index, tmp_path, capsys):
    index = tmp_path / "index"
    shutil.copytree(good_index, index)
    bad = _manifests(index)[0]
    _junk(bad)
    code, text = _run(capsys, "index", str(CORPUS), "--embedder", "none", *["--index-dir", str(index)])
    assert code == 0 and "last good version" in text, text
    kept = list((index / "damaged").rglob(bad.name))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"LANC")


def test_index_folder_under_a_file_is_explained(tmp_path, capsys):
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    code, text = _run(capsys, "index", str(CORPUS), "--embedder", "none", "--index-dir", str(blocker / "index"))
    assert code == 2 and "is a regular file" in text and "File exists" not in text, text


def _unprivileged() -> list[str] | None:
    """A command prefix that runs as a user without write access (root ignores file modes)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] if setpriv else None


def test_read_only_index_force_says_what_to_do(good_index):
    prefix = _unprivileged()
    if prefix is None:
        pytest.skip("needs setpriv to drop root's write access")
    # Not under pytest's basetemp: that folder is 0700 (and reset to it by every pytest run on the machine).
    base = Path(tempfile.mkdtemp(prefix="safereq-ro-"))
    try:
        os.chmod(base, 0o755)
        index = base / "index"
        shutil.copytree(good_index, index)
        for p in (index, *index.rglob("*")):
            os.chmod(p, 0o555 if p.is_dir() else 0o444)
        safereq = [sys.executable, "-m", "safereq"]
        env = {**os.environ, "HOME": str(base)}
        r = subprocess.run([*prefix, *safereq, "index", str(CORPUS), "--embedder", "none", "--force",
                            "--index-dir", str(index)], capture_output=True, text=True, env=env, timeout=120, cwd=base)
        assert r.returncode == 2 and "cannot write to the index" in r.stderr and "Traceback" not in r.stderr, r.stderr
        r = subprocess.run([*prefix, *safereq, "search", QUERY, "--mode", "fts", "--index-dir", str(index)],
                           capture_output=True, text=True, env=env, timeout=120, cwd=base)
        assert r.returncode == 0 and "watchdog" in r.stdout.lower(), r.stderr  # reading a read-only index works
    finally:
        for p in (base, *base.rglob("*")):
            if p.is_dir():
                os.chmod(p, 0o755)
        shutil.rmtree(base)
