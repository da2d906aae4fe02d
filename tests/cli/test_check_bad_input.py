"""Bad input never stops the run: each problem is a finding (io/*) and every other file is still checked."""

from __future__ import annotations

import json
import os

import pytest

import safereq.workspace.loader as loader


def _findings(safereq, *args):
    r = safereq("check", *args, "--select", "format", "--format", "json")
    assert "Traceback" not in r.err
    return r, {(f["path"], f["rule"]): f for f in r.json()}


def _other_files_checked(found) -> bool:
    return ("docs/fsr.md", "format/malformed-id") in found


def test_binary_file(project, safereq):
    (project / "docs" / "image.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    r, found = _findings(safereq)
    f = found[("docs/image.md", "io/binary")]
    assert f["severity"] == "error" and "NUL byte at offset 8" in f["message"]
    assert (f["line"], f["column"]) == (3, 1)  # after the PNG signature's two line feeds
    assert _other_files_checked(found) and r.status == 1


def test_invalid_utf8(project, safereq):
    (project / "docs" / "latin1.md").write_bytes("# Anforderung\nDie Temperatur darf 90 °C nicht überschreiten.\n".encode("latin-1"))
    _, found = _findings(safereq)
    f = found[("docs/latin1.md", "io/encoding")]
    assert "not valid UTF-8: byte b0" in f["message"]
    assert (f["line"], f["column"]) == (2, 24)
    assert _other_files_checked(found)


def test_file_over_the_size_limit_is_not_read(project, safereq, monkeypatch):
    big = project / "docs" / "export.md"
    with open(big, "wb") as fh:  # a sparse 50 MB file: instant to make, and never read
        fh.truncate(50 * 1024 * 1024)
    reads: list[int] = []
    real_read = os.read

    def counting_read(fd, n):
        data = real_read(fd, n)
        reads.append(len(data))
        return data

    monkeypatch.setattr(loader.os, "read", counting_read)
    _, found = _findings(safereq)
    f = found[("docs/export.md", "io/too-large")]
    assert f["message"].startswith("file is 50 MB, more than the 10 MB limit")
    assert _other_files_checked(found)
    assert sum(reads) < 1024 * 1024  # only the small documents were read


def test_size_limit_is_configurable(project, safereq):
    (project / "docs" / "medium.md").write_text("# Medium\n" + "x" * 3000 + "\n")
    _, found = _findings(safereq, "--max-file-size", "2KB")
    assert "2 KB limit" in found[("docs/medium.md", "io/too-large")]["message"]
    _, found = _findings(safereq, "--max-file-size", "1MB")
    assert ("docs/medium.md", "io/too-large") not in found


def test_directory_loop_through_a_symlink(project, safereq):
    os.symlink("..", project / "docs" / "up")
    (project / "docs" / "sub").mkdir()
    os.symlink("../../docs", project / "docs" / "sub" / "again")
    r, found = _findings(safereq, "docs")
    assert found[("docs/up", "io/symlink-loop")]["severity"] == "warning"
    assert ("docs/sub/again", "io/symlink-loop") in found
    assert _other_files_checked(found)
    assert r.err.strip() == ""  # JSON format: the summary is for text only
    assert sum(1 for f in found if f[1] == "format/malformed-id") == 1  # each file read once


def test_unreadable_file(project, safereq, monkeypatch):
    secret = project / "docs" / "secret.md"
    secret.write_text("# Secret\n")
    real_open = os.open

    def deny(path, flags, *args, **kwargs):  # chmod 000 does not stop root, so refuse the open itself
        if os.fspath(path).endswith("secret.md"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(loader.os, "open", deny)
    _, found = _findings(safereq)
    assert found[("docs/secret.md", "io/unreadable")]["message"] == "permission denied"
    assert _other_files_checked(found)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file_by_permissions(project, safereq):
    secret = project / "docs" / "secret.md"
    secret.write_text("# Secret\n")
    secret.chmod(0)
    _, found = _findings(safereq)
    assert found[("docs/secret.md", "io/unreadable")]["message"] == "permission denied"


def test_named_pipe_does_not_block(project, safereq):
    os.mkfifo(project / "docs" / "pipe.md")
    _, found = _findings(safereq)
    assert found[("docs/pipe.md", "io/unreadable")]["message"] == "cannot read: not a regular file"
    assert _other_files_checked(found)


def test_broken_symlink(project, safereq):
    os.symlink("nowhere.md", project / "docs" / "dangling.md")
    _, found = _findings(safereq)
    assert found[("docs/dangling.md", "io/unreadable")]["message"] == "broken symbolic link to 'nowhere.md'"


def test_path_that_does_not_exist(project, safereq):
    r, found = _findings(safereq, "docs", "specs/missing.md")
    assert found[("specs/missing.md", "io/not-found")]["message"] == "no such file or directory"
    assert _other_files_checked(found) and r.status == 1


def test_bad_input_in_text_and_sarif(project, safereq):
    (project / "docs" / "bin.md").write_bytes(b"\0")
    text = safereq("check", "--select", "format")
    assert "docs/bin.md:1:1: error [io/binary] binary file" in text.out
    assert text.err.strip().startswith("1 error, 1 warning in 2 files")
    log = json.loads(safereq("check", "--select", "format", "--format", "sarif").out)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"io/binary", "format/malformed-id"}


def test_empty_file_is_fine(project, safereq):
    (project / "docs" / "empty.md").write_bytes(b"")
    r, found = _findings(safereq)
    assert not [k for k in found if k[0] == "docs/empty.md"]
