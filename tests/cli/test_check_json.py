"""``--format json``: an array of findings with 1-based, end-exclusive positions and the fix when there is one."""

from __future__ import annotations

import json

from safereq.checks.findings import Edit, Finding, Fix, Related, Severity
from safereq.model.ranges import Span
from safereq.report import json as report_json


def test_json_array_with_positions_and_fix(project, safereq):
    r = safereq("check", "--select", "format", "--format", "json")
    assert r.status == 0
    (finding,) = r.json()
    assert finding == {
        "path": "docs/fsr.md", "line": 11, "column": 4, "end_line": 11, "end_column": 13,
        "severity": "warning", "rule": "format/malformed-id", "message": finding["message"],
        "fix": {"title": "Write the ID as FSR-STR-2", "safe": False, "edits": [
            {"path": "docs/fsr.md", "line": 11, "column": 4, "end_line": 11, "end_column": 13, "new_text": "FSR-STR-2"},
        ]},
    }
    line = (project / "docs/fsr.md").read_text().split("\n")[finding["line"] - 1]
    assert line[finding["column"] - 1:finding["end_column"] - 1] == "fsr-str-2"


def test_json_has_no_summary_on_stdout_and_empty_is_an_array(project, safereq):
    (project / "docs" / "fsr.md").write_text("# Nothing to see\n")
    r = safereq("check", "--select", "format", "--format", "json")
    assert json.loads(r.out) == []


def test_related_and_unicode_are_kept():
    f = Finding("x/y", Severity.HINT, "统一 message", "a.md", Span(1, 0, 2, 0),
                fixes=(Fix("t", (Edit("a.md", Span(1, 0, 1, 0), "x"),), safe=False),),
                related=(Related("b.md", Span(0, 0, 0, 4), "here"),))
    (d,) = json.loads(report_json.render([f]))
    assert d["message"] == "统一 message" and d["severity"] == "hint"
    assert (d["line"], d["column"], d["end_line"], d["end_column"]) == (2, 1, 3, 1)
    assert d["fix"]["safe"] is False
    assert d["related"] == [{"path": "b.md", "line": 1, "column": 1, "end_line": 1, "end_column": 5, "message": "here"}]
    assert "统一" in report_json.render([f])  # not escaped


def test_output_file_gets_the_report(project, safereq):
    r = safereq("check", "--select", "format", "--format", "json", "--output", "report.json")
    assert r.out == ""
    assert json.loads((project / "report.json").read_text())[0]["rule"] == "format/malformed-id"


def test_large_reports_are_compact_and_the_same_data():
    """Above INDENTED_UP_TO findings the JSON is written without indentation (the indenting encoder is
    pure Python); the data is the same."""
    import json as _json

    from safereq.model.ranges import Span
    from safereq.report import INDENTED_UP_TO
    from safereq.report import json as report_json

    many = [Finding("trace/dangling-link", Severity.ERROR, f"m{k}", "a.md", Span(k, 0, k, 3)) for k in range(INDENTED_UP_TO + 1)]
    small, large = report_json.render(many[:2]), report_json.render(many)
    assert "\n  " in small and large.count("\n") == 1
    assert _json.loads(large)[:2] == _json.loads(small)
