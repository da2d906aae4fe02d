"""Text output: ``path:line:col: severity [rule] message``, 1-based, columns in code points; summary on stderr."""

from __future__ import annotations

import re

from safereq.checks.findings import Finding, Related, Severity
from safereq.model.ranges import Span
from safereq.report import text

LINE_RE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|info|hint) \[(?P<rule>[a-z]+/[a-z-]+)\] (?P<msg>.+)$")


def test_findings_are_compiler_style_lines(project, safereq):
    r = safereq("check", "--select", "format")
    lines = r.out.splitlines()
    assert lines == [
        "docs/fsr.md:11:4: warning [format/malformed-id] 'fsr-str-2' looks like an item ID but IDs are upper-case "
        "letters and digits (e.g. 'FSR-STR-2'); this heading is not read as an item"
    ]
    assert LINE_RE.match(lines[0])


def test_summary_goes_to_stderr_and_counts_files(project, safereq):
    r = safereq("check", "--select", "format")
    assert r.err.strip() == "0 errors, 1 warning in 2 files"  # an ID's case is not a safe fix
    assert "in 2 files" not in r.out


def test_quiet_prints_findings_only(project, safereq):
    r = safereq("check", "--select", "format", "--quiet")
    assert r.err == ""
    assert r.out.count("\n") == 1


def test_columns_count_code_points_not_bytes(project, safereq):
    # The bad byte follows two Chinese characters (6 bytes in UTF-8, 2 code points): column 3.
    (project / "docs" / "zh.md").write_bytes("# 标题\n中文".encode("utf-8") + b"\xff\n")
    r = safereq("check", "docs/zh.md")
    assert r.out.startswith("docs/zh.md:2:3: error [io/encoding] ")


def test_related_places_follow_as_note_lines():
    f = Finding("asil/lower-than-parent", Severity.ERROR, "ASIL B is lower than\nthe parent's D", "a.md",
                Span(4, 2, 4, 3), related=(Related("b.md", Span(0, 3, 0, 7), "SG-1 has ASIL D"),))
    assert text.render([f]) == ("a.md:5:3: error [asil/lower-than-parent] ASIL B is lower than the parent's D\n"
                                "b.md:1:4: note: SG-1 has ASIL D\n")


def test_summary_wording():
    f = Finding("x/y", Severity.ERROR, "m", "a.md", Span(0, 0, 0, 1))
    w = Finding("x/y", Severity.WARNING, "m", "a.md", Span(0, 0, 0, 1))
    i = Finding("x/y", Severity.INFO, "m", "a.md", Span(0, 0, 0, 1))
    assert text.summary([f, f, w, i], 1) == "2 errors, 1 warning, 1 note in 1 file"
    assert text.summary([], 3, fixed=1) == "0 errors, 0 warnings in 3 files; 1 fix applied"
    assert text.summary([w], 3, fixed=2, fixable=1) == "0 errors, 1 warning in 3 files; 2 fixes applied; 1 fixable left"


def test_no_markdown_files_is_said_plainly(tmp_path, monkeypatch, safereq):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("not markdown")
    r = safereq("check")
    assert r.status == 0 and r.out == ""
    assert "no Markdown files found" in r.err
