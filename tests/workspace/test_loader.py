"""File discovery and safe reading (shared by the CLI and the language server)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from safereq.workspace.loader import (
    Excluder, LoadProblem, SourceFile, decode_source, discover, display_path, load, parse_size, read_source,
)


def _touch(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {name}\n")


def _names(paths, root: Path) -> list[str]:
    return [p.relative_to(root).as_posix() for p in paths]


def test_walk_finds_markdown_and_skips_hidden_dependencies_and_environments(tmp_path):
    _touch(tmp_path, "a.md", "b.markdown", "C.MD", "notes.txt", "sub/d.md", ".hidden.md", ".git/x.md",
           ".safereq/cache.md", "node_modules/pkg/README.md", "venv/lib/x.md", "env-x/pyvenv.cfg", "env-x/y.md",
           "conda/conda-meta/history.md", "__pycache__/z.md", "docs/.drafts/w.md")
    found = discover([tmp_path], cwd=tmp_path)
    assert _names(found.files, tmp_path) == ["C.MD", "a.md", "b.markdown", "sub/d.md"]
    assert found.problems == []


def test_named_files_are_read_whatever_their_name_and_named_hidden_folders_are_walked(tmp_path):
    _touch(tmp_path, "spec.txt", ".github/ISSUE.md")
    found = discover([tmp_path / "spec.txt", tmp_path / ".github"], cwd=tmp_path)
    assert _names(found.files, tmp_path) == ["spec.txt", ".github/ISSUE.md"]


def test_each_file_is_read_once_through_links_and_overlapping_arguments(tmp_path):
    _touch(tmp_path, "docs/a.md")
    os.symlink("a.md", tmp_path / "docs" / "alias.md")
    os.symlink("docs", tmp_path / "mirror")
    found = discover([tmp_path / "docs" / "a.md", tmp_path], cwd=tmp_path)
    assert _names(found.files, tmp_path) == ["docs/a.md"]
    assert found.problems == []


def test_symlink_loops_are_reported_once_and_not_followed(tmp_path):
    _touch(tmp_path, "docs/a.md")
    os.symlink("..", tmp_path / "docs" / "parent")
    os.symlink(".", tmp_path / "docs" / "self")
    found = discover([tmp_path / "docs"], cwd=tmp_path)
    assert _names(found.files, tmp_path) == ["docs/a.md"]
    assert [(p.path, p.code) for p in found.problems] == [("docs/parent", "io/symlink-loop"), ("docs/self", "io/symlink-loop")]
    assert "symbolic link to '..'" in found.problems[0].message


def test_self_referencing_link_named_directly(tmp_path):
    os.symlink("loop.md", tmp_path / "loop.md")
    (problem,) = discover([tmp_path / "loop.md"], cwd=tmp_path).problems
    assert problem.code == "io/symlink-loop"


def test_missing_and_unlistable_paths(tmp_path, monkeypatch):
    _touch(tmp_path, "ok/a.md", "locked/b.md")
    real_scandir = os.scandir

    def scandir(path):
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    found = discover([tmp_path / "nope", tmp_path / "ok" / "a.md" / "x", tmp_path], cwd=tmp_path)
    assert [(p.path, p.code, p.message) for p in found.problems] == [
        ("nope", "io/not-found", "no such file or directory"),
        ("ok/a.md/x", "io/not-found", "no such file or directory"),
        ("locked", "io/unreadable", "cannot list directory: permission denied"),
    ]
    assert _names(found.files, tmp_path) == ["ok/a.md"]


@pytest.mark.parametrize(("pattern", "path", "excluded"), [
    ("drafts", "drafts", True),
    ("drafts", "docs/drafts", True),
    ("drafts", "docs/drafts.md", False),
    ("*.draft.md", "docs/x/old.draft.md", True),
    ("docs/old/**", "docs/old/a/b.md", True),
    ("docs/old/**", "other/docs/old/a.md", False),
    ("**/generated/*.md", "a/b/generated/x.md", True),
    ("**/generated/*.md", "generated/x.md", True),
    ("docs/*.md", "docs/sub/x.md", False),
    ("docs/[!a]*.md", "docs/b.md", True),
    ("docs/[!a]*.md", "docs/a.md", False),
    ("./docs/?.md", "docs/a.md", True),
])
def test_exclude_globs(tmp_path, pattern, path, excluded):
    assert Excluder([pattern], tmp_path).excluded(tmp_path / path) is excluded


def test_excluded_folders_are_not_walked(tmp_path, monkeypatch):
    _touch(tmp_path, "keep/a.md", "gen/big/b.md")
    listed: list[str] = []
    real_scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda p: listed.append(Path(p).name) or real_scandir(p))
    found = discover([tmp_path], excluder=Excluder(["gen"], tmp_path), cwd=tmp_path)
    assert _names(found.files, tmp_path) == ["keep/a.md"]
    assert "gen" not in listed and "big" not in listed


def test_read_utf8_with_bom_and_crlf_and_write_back_the_same_way(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes(b"\xef\xbb\xbf# T\r\n\r\nText\r\n")
    src = read_source(path, display="a.md")
    assert isinstance(src, SourceFile)
    assert (src.text, src.bom, src.newline) == ("# T\n\nText\n", True, "\r\n")
    assert src.encode(src.text) == path.read_bytes()


def test_mixed_line_ends_are_kept_as_they_are(tmp_path):
    src = decode_source("a.md", tmp_path / "a.md", b"one\r\ntwo\nthree\r\n")
    assert isinstance(src, SourceFile) and src.newline == "\n" and src.text == "one\r\ntwo\nthree\r\n"
    assert src.encode(src.text) == b"one\r\ntwo\nthree\r\n"


def test_lone_cr_line_ends_are_line_breaks_and_are_written_back(tmp_path):
    """A file saved with CR line ends is many lines to every editor: it must be to the checks too (it was one
    long line, so a CI run found nothing in it while the editor showed findings)."""
    src = decode_source("a.md", tmp_path / "a.md", b"# T\r\r## FSR-1: x\r")
    assert isinstance(src, SourceFile) and src.text == "# T\n\n## FSR-1: x\n" and src.newline == "\r"
    assert src.encode(src.text + "y\n") == b"# T\r\r## FSR-1: x\ry\r"


def test_line_ends_mixing_lone_cr_are_read_as_the_editor_does_and_never_rewritten(tmp_path):
    from safereq.workspace.loader import CannotKeepLineEnds

    src = decode_source("a.md", tmp_path / "a.md", b"one\rtwo\r\nthree\nfour")
    assert isinstance(src, SourceFile) and src.text == "one\ntwo\nthree\nfour" and src.newline is None
    with pytest.raises(CannotKeepLineEnds):
        src.encode(src.text)


@pytest.mark.parametrize(("data", "code", "line", "col"), [
    (b"# T\n\nab\x00cd", "io/binary", 2, 2),
    (b"# T\nd\xc3\xa9j\xe0 vu\n", "io/encoding", 1, 3),
    (b"\xff\xfe#\x00 \x00", "io/binary", 0, 3),  # UTF-16 is binary to us: it has NUL bytes
])
def test_binary_and_encoding_problems_point_at_the_byte(tmp_path, data, code, line, col):
    problem = decode_source("a.md", tmp_path / "a.md", data)
    assert isinstance(problem, LoadProblem) and problem.code == code
    assert (problem.span.start_line, problem.span.start_col) == (line, col)


def test_size_limit_is_checked_before_reading(tmp_path):
    path = tmp_path / "big.md"
    with open(path, "wb") as fh:
        fh.truncate(11 * 1024 * 1024)
    problem = read_source(path)
    assert isinstance(problem, LoadProblem) and problem.code == "io/too-large"
    assert problem.message.startswith("file is 11 MB, more than the 10 MB limit")
    assert isinstance(read_source(path, max_bytes=12 * 1024 * 1024), LoadProblem)  # all NUL: binary, but read


def test_fifo_and_directory_are_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "pipe.md")
    (tmp_path / "dir.md").mkdir()
    assert read_source(tmp_path / "pipe.md").message == "cannot read: not a regular file"
    assert read_source(tmp_path / "dir.md").message == "cannot read: a directory"


def test_load_sorts_problems_and_keeps_readable_files(tmp_path):
    _touch(tmp_path, "a.md", "c.md")
    (tmp_path / "b.md").write_bytes(b"\xff")
    result = load([tmp_path, tmp_path / "zz.md"], cwd=tmp_path)
    assert [s.path for s in result.sources] == ["a.md", "c.md"]
    assert [(p.path, p.code) for p in result.problems] == [("b.md", "io/encoding"), ("zz.md", "io/not-found")]
    assert result.by_path["a.md"].text == "# a.md\n"


def test_display_path_is_relative_inside_the_working_directory(tmp_path):
    assert display_path(tmp_path / "docs" / "a.md", tmp_path) == "docs/a.md"
    assert display_path(Path("/elsewhere/a.md"), tmp_path) == "/elsewhere/a.md"


@pytest.mark.parametrize(("text", "size"), [("10MB", 10 * 1024**2), ("512k", 512 * 1024), ("2000", 2000),
                                            ("1.5 MiB", int(1.5 * 1024**2)), ("1g", 1024**3)])
def test_parse_size(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "ten", "0", "-1MB", "5TB"])
def test_parse_size_rejects(text):
    with pytest.raises(ValueError):
        parse_size(text)


def test_a_document_too_big_for_the_free_memory_is_refused_before_reading(tmp_path, monkeypatch):
    """Issue 12: a 100 MB document allowed with --max-file-size peaked at 6.2 GB; refuse it up front."""
    from safereq.workspace import memory

    path = tmp_path / "big.md"
    path.write_text("# Big\n\n" + "The system shall stop. " * 100_000, encoding="utf-8")  # 2.2 MB
    monkeypatch.setattr(memory, "available_bytes", lambda: 20 * 1024 * 1024)
    problem = read_source(path, max_bytes=1024 ** 3)
    assert isinstance(problem, LoadProblem) and problem.code == "io/too-large"
    assert problem.message == ("file is 2.2 MB: checking it would need at least 32.9 MB of memory, more than the "
                               "limit of 20 MB (the memory available now; free some, or split the documents); "
                               "not checked (split the document)")
    monkeypatch.setattr(memory, "available_bytes", lambda: 1024 ** 3)
    assert not isinstance(read_source(path, max_bytes=1024 ** 3), LoadProblem)
    assert isinstance(read_source(path, max_bytes=1024 ** 3, max_memory=10 * 1024 * 1024), LoadProblem)