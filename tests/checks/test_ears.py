"""EARS classification (classify_ears) and the ears/no-pattern rule, English and Chinese."""

from __future__ import annotations

import pytest

from safereq.checks.config import Config
from safereq.checks import classify_ears
from safereq.checks.engine import Checker
from safereq.checks.findings import Finding
from safereq.workspace import Workspace

ZH = "---\nlanguage: zh\n---\n"
ON = {"ears/no-pattern": "info"}


def run(doc: str, **config) -> list[Finding]:
    ws = Workspace()
    ws.update("doc.md", doc)
    return [f for f in Checker(Config(**config)).check(ws) if f.rule == "ears/no-pattern"]


def req(statement: str, zh: bool = False) -> str:
    return (ZH if zh else "") + f"## FSR-1: A requirement\n{statement}\n\n- ASIL: B\n"


@pytest.mark.parametrize(("text", "pattern", "clauses", "subject"), [
    ("The LCA torque arbiter shall limit the torque request to 3.0 Nm.", "ubiquitous", [], "The LCA torque arbiter"),
    ("When the torque request changes by more than 1.5 Nm within 20 ms, the arbiter shall set it to zero.",
     "event", [("event", "the torque request changes by more than 1.5 Nm within 20 ms")], "the arbiter"),
    ("While the LCA is active, the perception function shall report the lane quality.",
     "state", [("state", "the LCA is active")], "the perception function"),
    ("If the LCA deactivates itself, then the HMI shall warn the driver.",
     "unwanted", [("unwanted", "the LCA deactivates itself")], "the HMI"),
    ("If the sensor fails, the ECU shall enter the safe state.",
     "unwanted", [("unwanted", "the sensor fails")], "the ECU"),
    ("If the ECU resets and then restarts, the ECU shall log the reset.",
     "unwanted", [("unwanted", "the ECU resets and then restarts")], "the ECU"),
    ("If the ECU resets then the ECU shall log the reset.",
     "unwanted", [("unwanted", "the ECU resets")], "the ECU"),
    ("Where a trailer is attached, the ESC shall limit the yaw rate.",
     "optional", [("optional", "a trailer is attached")], "the ESC"),
    ("While the LCA is active, when the driver steers, the LCA shall yield.",
     "complex", [("state", "the LCA is active"), ("event", "the driver steers")], "the LCA"),
    ("The EPS must give priority to the driver.", "ubiquitous", [], "The EPS"),
])
def test_english_patterns(text, pattern, clauses, subject):
    cls = classify_ears(text, "en")
    assert cls.pattern == pattern
    assert [(c.kind, text[c.body_start:c.body_end]) for c in cls.clauses] == clauses
    assert text[cls.subject_start:cls.response_start].strip() == subject
    for c in cls.clauses:
        assert c.role in ("trigger", "precondition", "feature")
        assert text[c.start:c.end].lower().startswith(("when", "while", "if", "where"))


@pytest.mark.parametrize(("text", "pattern", "clauses"), [
    ("车道居中辅助的扭矩仲裁器应将扭矩请求限制在 3.0 Nm 以内。", "ubiquitous", []),
    ("当驾驶员施加的转向扭矩超过 2.0 Nm 时，车道居中辅助应将扭矩请求降为零。", "event",
     [("event", "驾驶员施加的转向扭矩超过 2.0 Nm")]),
    ("系统在检测到故障时应进入安全状态。", "event", [("event", "检测到故障")]),
    ("在车辆行驶期间，系统应监控转向扭矩。", "state", [("state", "车辆行驶")]),
    ("当车辆处于自动驾驶状态时，系统应监控驾驶员。", "state", [("state", "车辆处于自动驾驶状态")]),
    ("如果车道居中辅助自行退出，那么人机界面必须警告驾驶员。", "unwanted", [("unwanted", "车道居中辅助自行退出")]),
    ("若传感器失效则系统应进入安全状态。", "unwanted", [("unwanted", "传感器失效")]),
    ("在具备拖车功能的情况下，系统应限制车速。", "optional", [("optional", "拖车功能")]),
    ("如果配备了雷达，系统应使用雷达数据。", "optional", [("optional", "雷达")]),
    ("在车辆行驶期间，当驾驶员转向时，系统应让出控制权。", "complex", [("state", "车辆行驶"), ("event", "驾驶员转向")]),
    ("系统应当在若干周期内完成自检。", "ubiquitous", []),
])
def test_chinese_patterns(text, pattern, clauses):
    cls = classify_ears(text, "zh")
    assert cls.pattern == pattern
    assert [(c.kind, text[c.body_start:c.body_end]) for c in cls.clauses] == clauses


def test_unwanted_clause_ends_before_its_connector():
    text = "如果车道居中辅助自行退出，那么人机界面应警告驾驶员。"
    [c] = classify_ears(text, "zh").clauses
    assert text[c.start:c.end] == "如果车道居中辅助自行退出"
    assert text[classify_ears(text, "zh").subject_start:].startswith("人机界面")


@pytest.mark.parametrize(("text", "language", "reason"), [
    ("Upon detection of a fault, the ECU shall enter the safe state.", "en", "'Upon'"),
    ("After the driver deactivates the LCA, the LCA shall stop.", "en", "'After'"),
    ("The ECU shall enter the safe state if a fault is detected.", "en", "'if …' follows the response"),
    ("在检测到故障后，系统应进入安全状态。", "zh", "在检测到故障后"),
])
def test_statements_that_fit_no_pattern(text, language, reason):
    cls = classify_ears(text, language)
    assert cls.pattern == "none" and reason in cls.reason
    assert cls.reason_span is not None


def test_no_pattern_is_off_by_default_and_points_at_the_offending_words():
    doc = req("The ECU 🚗 shall enter the safe state if a fault is detected.")
    assert run(doc) == []
    [f] = run(doc, rules=ON)
    line = doc.split("\n")[f.span.start_line]
    assert line[f.span.start_col:f.span.end_col] == "if" and f.span.start_col == 37
    assert f.severity.label == "info"


@pytest.mark.parametrize(("statement", "zh"), [
    ("When the driver brakes, the ECU shall stop the LCA.", False),
    ("The ECU shall limit the torque to 3 Nm.", False),
    ("The ECU limits the torque.", False),  # no modal verb: left to modal/missing
    ("当驾驶员制动时，系统应停止。", True),
])
def test_statements_that_fit_a_pattern_raise_nothing(statement, zh):
    assert run(req(statement, zh), rules=ON) == []


def test_the_projects_extra_not_modal_words_count_for_ears_as_for_the_modal_rules():
    doc = req("The ECU will enter the safe state if a fault is detected.")
    assert len(run(doc, rules=ON)) == 1  # 'if …' follows the response 'will'
    extra = {"en": {"not-modal": ["will enter"]}}
    assert run(doc, rules=ON, words=extra) == []  # no modal verb: modal/missing reports it
    cls = classify_ears("The ECU will enter the safe state if a fault is detected.", "en", ("will enter",))
    assert cls.pattern == "none" and "no modal verb" in cls.reason


def test_a_statement_without_a_modal_verb_has_no_pattern():
    cls = classify_ears("When the driver brakes, the ECU stops.", "en")
    assert cls.pattern == "none" and "no modal verb" in cls.reason


@pytest.mark.parametrize(("text", "pattern"), [
    ("In caſe of a fault, the ECU shall stop.", "none"),  # long s: matched without case, looked up folded
    ("\u212aeep the torque low, the ECU shall stop.", "ubiquitous"),
    ("WHEN the driver brakes, the ECU shall stop.", "event"),
    ("Whiſt moving, the ECU shall stop.", "ubiquitous"),
])
def test_letters_that_match_only_under_case_folding_do_not_break_the_classifier(text, pattern):
    assert classify_ears(text, "en").pattern == pattern
