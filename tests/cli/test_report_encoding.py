"""Large reports are encoded one finding at a time; the text is exactly what ``json.dumps`` writes of the
whole report (indented up to INDENTED_UP_TO findings, compact above), so no consumer sees a difference."""

from __future__ import annotations

import json

import pytest

from safereq.checks import all_rule_infos
from safereq.checks.findings import Edit, Finding, Fix, Related, Severity
from safereq.model.ranges import Span
from safereq.report import INDENTED_UP_TO, dumps, dumps_array
from safereq.report import json as report_json
from safereq.report import sarif


def _findings(n: int) -> list[Finding]:
    return [Finding("trace/dangling-link", Severity.ERROR if k % 3 else Severity.WARNING, f"m{k} → 统一 \"q\"",
                    "a.md", Span(k, 0, k, 3),
                    fixes=(Fix("t", (Edit("a.md", Span(k, 0, k, 1), "x\ny"),)),) if k % 2 else (),
                    related=tuple(Related("b.md", Span(j, 1, j, 2), f"r{j}") for j in range(k % 3)))
            for k in range(n)]


def _as_json_dumps(text: str, findings: int) -> str:
    indent = 2 if findings <= INDENTED_UP_TO else None
    return json.dumps(json.loads(text), indent=indent, ensure_ascii=False) + "\n"


def _at_depth(value: object, level: int) -> object:
    """``value`` as the last value of ``level`` nested containers, lists and dicts in turn."""
    for k in range(level):
        value = [0, value] if k % 2 else {"a": 1, "b": value}
    return value


@pytest.mark.parametrize("findings", [1, INDENTED_UP_TO + 1])
@pytest.mark.parametrize("level", [0, 1, 3])
@pytest.mark.parametrize("items", [[], [{}], [[], {"a": [1, {"b": []}], "c": "d\ne"}, "x", None]])
def test_an_array_is_written_as_json_dumps_writes_it_at_its_depth(items, level, findings):
    head, _, tail = dumps(_at_depth("@", level), findings).partition('"@"')
    assert head + dumps_array(iter(items), findings, level) + tail == dumps(_at_depth(items, level), findings)


@pytest.mark.parametrize("n", [0, 3, INDENTED_UP_TO + 1])
def test_json_report_is_the_records_as_json_dumps_writes_them(n):
    findings = _findings(n)
    text = report_json.render(findings)
    records = [report_json.finding_dict(f) for f in findings]
    assert text == json.dumps(records, indent=2 if n <= INDENTED_UP_TO else None, ensure_ascii=False) + "\n"
    if n:
        first = json.loads(text)[1]
        assert list(first) == ["path", "line", "column", "end_line", "end_column", "severity", "rule", "message",
                               "fix", "related"]
        assert first["fix"]["edits"][0] == {"path": "a.md", "line": 2, "column": 1, "end_line": 2,
                                            "end_column": 2, "new_text": "x\ny"}


@pytest.mark.parametrize("n", [0, 3, INDENTED_UP_TO + 1])
def test_sarif_log_is_laid_out_as_json_dumps_writes_it(tmp_path, n):
    findings = _findings(n)
    text = sarif.render(findings, all_rule_infos(), {}, tmp_path, {"a.md": "x\n" * (n + 1), "b.md": "y\n" * 3})
    assert text == _as_json_dumps(text, n)
    (run,) = json.loads(text)["runs"]
    assert list(run)[-1] == "results" and len(run["results"]) == n
    if n:
        assert run["results"][1]["message"]["text"] == "m1 → 统一 \"q\" (see [r0](0))"


def test_sarif_columns_count_utf16_units_only_on_lines_beyond_the_bmp(tmp_path):
    text = "a🚗b🚗c\nplain 统一\n"
    findings = [Finding("wording/vague-term", Severity.WARNING, "m", "a.md", Span(0, 2, 0, 4)),
                Finding("wording/vague-term", Severity.WARNING, "m", "a.md", Span(1, 6, 1, 8))]
    results = json.loads(sarif.render(findings, all_rule_infos(), {}, tmp_path, {"a.md": text}))["runs"][0]["results"]
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in results]
    assert [(g["startColumn"], g["endColumn"]) for g in regions] == [(4, 7), (7, 9)]
