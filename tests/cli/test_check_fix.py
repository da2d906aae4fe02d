"""``--fix``: safe fixes rewritten in place atomically, re-checked, idempotent, never over someone's edit."""

from __future__ import annotations

import os
import stat

import pytest

import safereq.workspace.loader as loader

MUST = "The steering arbiter must limit"


@pytest.fixture(autouse=True)
def _a_non_standard_verb(project):
    """FSR-STR-1 says 'must': replacing it with 'shall' is the safe fix these tests apply."""
    fsr = project / "docs" / "fsr.md"
    fsr.write_text(fsr.read_text().replace("The steering arbiter shall limit", MUST), encoding="utf-8")


def test_fix_round_trip_rewrites_the_file_and_reports_what_remains(project, safereq):
    fsr = project / "docs" / "fsr.md"
    before = fsr.read_text()
    r = safereq("check", "--select", "modal", "--fix")
    assert r.status == 0
    assert r.out == ""  # nothing remains
    assert r.err.splitlines() == ["safereq: fixed docs/fsr.md:7 FSR-STR-1: Replace 'must' with 'shall'",
                                  "0 errors, 0 warnings in 2 files; 1 fix applied"]
    after = fsr.read_text()
    assert after == before.replace(MUST, "The steering arbiter shall limit")
    assert not [p for p in fsr.parent.iterdir() if p.name.startswith(".")]  # no temporary file left behind


def test_fix_is_idempotent(project, safereq):
    safereq("check", "--select", "modal", "--fix")
    fsr = project / "docs" / "fsr.md"
    once, mtime = fsr.read_bytes(), fsr.stat().st_mtime_ns
    r = safereq("check", "--select", "modal", "--fix")
    assert r.err.strip() == "0 errors, 0 warnings in 2 files; 0 fixes applied"
    assert fsr.read_bytes() == once and fsr.stat().st_mtime_ns == mtime  # not even rewritten


def test_fix_keeps_crlf_bom_and_permissions(project, safereq):
    fsr = project / "docs" / "fsr.md"
    fsr.write_bytes(b"\xef\xbb\xbf" + fsr.read_bytes().replace(b"\n", b"\r\n"))
    os.chmod(fsr, 0o640)
    safereq("check", "--select", "modal", "--fix")
    data = fsr.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf---\r\n")
    assert b"arbiter shall limit" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert stat.S_IMODE(fsr.stat().st_mode) == 0o640


def test_a_file_with_cr_line_ends_is_checked_as_the_editor_shows_it_and_fixed_keeping_them(project, safereq):
    fsr = project / "docs" / "fsr.md"
    with_lf = safereq("check", "--format", "json")
    fsr.write_bytes(fsr.read_bytes().replace(b"\n", b"\r"))
    with_cr = safereq("check", "--format", "json")
    assert with_cr.out == with_lf.out and '"line": 11' in with_cr.out  # same findings, same lines
    safereq("check", "--select", "modal", "--fix")
    data = fsr.read_bytes()
    assert b"arbiter shall limit" in data and b"\n" not in data


def test_a_file_mixing_lone_cr_with_other_line_ends_is_not_fixed(project, safereq):
    fsr = project / "docs" / "fsr.md"
    mixed = fsr.read_bytes().replace(b"\n", b"\r", 3)
    fsr.write_bytes(mixed)
    r = safereq("check", "--select", "modal", "--fix")
    assert "modal/non-standard-verb" in r.out  # reported, at the line the editor shows
    assert "docs/fsr.md: not fixed: its line ends mix lone CRs with others" in r.err
    assert fsr.read_bytes() == mixed


def test_fix_writes_through_a_symbolic_link(project, safereq):
    real = project / "real.md"
    os.replace(project / "docs" / "fsr.md", real)
    (project / "docs" / "fsr.md").symlink_to(real)
    safereq("check", "--select", "modal", "--fix")
    assert (project / "docs" / "fsr.md").is_symlink()
    assert "arbiter shall limit" in real.read_text()


def test_only_safe_fixes_are_applied(project, safereq, monkeypatch):
    from safereq.checks.engine import Checker
    from safereq.checks.findings import Fix

    original = Checker.check

    def unsafe(self, ws, paths=None):  # the same findings, with their fixes marked as needing review
        return [f.__class__(f.rule, f.severity, f.message, f.path, f.span,
                            tuple(Fix(x.title, x.edits, safe=False) for x in f.fixes), f.related, f.tags)
                for f in original(self, ws, paths)]

    monkeypatch.setattr(Checker, "check", unsafe)
    before = (project / "docs" / "fsr.md").read_text()
    r = safereq("check", "--select", "modal", "--fix")
    assert (project / "docs" / "fsr.md").read_text() == before
    assert "0 fixes applied" in r.err and "[modal/non-standard-verb]" in r.out


def test_a_file_changed_since_it_was_read_is_not_touched(project, safereq, monkeypatch):
    fsr = project / "docs" / "fsr.md"
    real_load = loader.load

    def load_then_someone_edits(*args, **kwargs):
        result = real_load(*args, **kwargs)
        fsr.write_text(fsr.read_text() + "\nEdited in the editor meanwhile.\n")
        return result

    monkeypatch.setattr(loader, "load", load_then_someone_edits)
    r = safereq("check", "--select", "modal", "--fix")
    assert "docs/fsr.md: not fixed: changed on disk since it was read" in r.err
    text = fsr.read_text()
    assert MUST in text and text.endswith("Edited in the editor meanwhile.\n")
    assert "[modal/non-standard-verb]" in r.out  # still reported


def test_write_source_refuses_a_changed_file(tmp_path):
    path = tmp_path / "a.md"
    path.write_text("one\n")
    source = loader.read_source(path)
    path.write_text("two\n")
    with pytest.raises(loader.ChangedOnDisk):
        loader.write_source(source, "three\n")
    assert path.read_text() == "two\n"


def test_a_fix_marked_safe_that_would_change_a_commitment_is_not_written(project, safereq, monkeypatch):
    """The second line of defence: were a rule to mark an ID, ASIL, link or number change safe, --fix refuses."""
    from safereq.checks.engine import Checker
    from safereq.checks.findings import Fix

    original = Checker.check

    def all_safe(self, ws, paths=None):
        return [f.__class__(f.rule, f.severity, f.message, f.path, f.span,
                            tuple(Fix(x.title, x.edits, safe=True) for x in f.fixes), f.related, f.tags)
                for f in original(self, ws, paths)]

    monkeypatch.setattr(Checker, "check", all_safe)
    fsr = project / "docs" / "fsr.md"
    before = fsr.read_text()
    r = safereq("check", "--select", "format", "--fix")  # 'fsr-str-2' -> 'FSR-STR-2' makes a new item
    assert fsr.read_text() == before
    assert "docs/fsr.md: not fixed: the items go from 1 to 2 (a safe fix must not: please report this bug)" in r.err
    assert "0 fixes applied" in r.err and "[format/malformed-id]" in r.out
