"""Modal-verb rules: one binding 'shall' (应) per requirement statement, English and Chinese."""

from __future__ import annotations

import pytest

from safereq.checks import apply_edits
from safereq.checks.config import Config
from safereq.checks.engine import Checker
from safereq.checks.findings import Finding
from safereq.checks.analysis.modal_verbs import modal_verbs
from safereq.workspace import Workspace

ZH = "---\nlanguage: zh\n---\n"


def run(doc: str, rule: str, **config) -> list[Finding]:
    ws = Workspace()
    ws.update("doc.md", doc)
    return [f for f in Checker(Config(**config)).check(ws) if f.rule == rule]


def req(statement: str, item: str = "REQ-1", zh: bool = False) -> str:
    return (ZH if zh else "") + f"## {item}: A requirement\n{statement}\n\n- Status: draft\n"


def covered(doc: str, f: Finding) -> str:
    assert f.span.start_line == f.span.end_line
    return doc.split("\n")[f.span.start_line][f.span.start_col:f.span.end_col]


def fixed(doc: str, f: Finding) -> str:
    assert f.fix is not None
    return apply_edits(doc, f.fix.edits)


# -- modal/non-standard-verb --------------------------------------------------------------------------------
@pytest.mark.parametrize(("statement", "word", "result"), [
    ("The EPS must give priority to the driver.", "must", "The EPS shall give priority to the driver."),
    ("The EPS MUST give priority.", "MUST", "The EPS SHALL give priority."),
    ("Must the EPS stop? The EPS must not stop.", "must", "Must the EPS stop? The EPS shall not stop."),
    ("The EPS is required to log the fault.", "is required to", "The EPS shall log the fault."),
    ("The EPS needs to be reset.", "needs to", "The EPS shall be reset."),
    ("The EPS has to stop.", "has to", "The EPS shall stop."),
])
def test_obligation_words_are_replaced_by_shall(statement, word, result):
    doc = req(statement)
    found = run(doc, "modal/non-standard-verb")
    assert [covered(doc, f) for f in found][-1] == word
    assert found[-1].fix.safe
    assert fixed(doc, found[-1]) == req(result)


def test_a_sentence_opening_must_keeps_its_capital():
    doc = req("Must is wrong here. Must they stop?")
    assert [f.fix.edits[0].new_text for f in run(doc, "modal/non-standard-verb")] == ["Shall", "Shall"]


@pytest.mark.parametrize("statement", [
    "The EPS does not need to log the fault, but shall stop.",
    "The EPS shall stop; there is no need to log.",
    "Logging the fault is a must for the EPS, which shall stop.",
])
def test_words_that_do_not_oblige_are_not_reported(statement):
    assert run(req(statement), "modal/non-standard-verb") == []


@pytest.mark.parametrize(("statement", "word", "result"), [
    ("人机界面必须在 200 ms 内警告驾驶员。", "必须", "人机界面应在 200 ms 内警告驾驶员。"),
    ("系统需要在 10 ms 内进入安全状态。", "需要", "系统应在 10 ms 内进入安全状态。"),
    ("系统要在 10 ms 内进入安全状态。", "要", "系统应在 10 ms 内进入安全状态。"),
    ("系统应该记录故障。", "应该", "系统应记录故障。"),
    ("系统应当记录故障。", "应当", "系统应记录故障。"),
    ("系统务必记录故障。", "务必", "系统应记录故障。"),
    ("系统不得重启。", "不得", "系统不应重启。"),
    ("系统不应该重启。", "不应该", "系统不应重启。"),
])
def test_chinese_obligation_words_are_replaced_by_ying(statement, word, result):
    doc = req(statement, zh=True)
    [f] = run(doc, "modal/non-standard-verb")
    assert covered(doc, f) == word and f.fix.safe
    assert fixed(doc, f) == req(result, zh=True)


@pytest.mark.parametrize("statement", [
    "系统应满足主要要求和重要需求。",
    "系统应在必要的情况下记录所需的数据。",
    "系统应根据需要记录故障。",
    "只要车速超过 10 km/h，系统就应监控扭矩。",
    "系统不需要记录故障，但应报警。",
])
def test_yao_and_xu_inside_other_words_are_not_obligations(statement):
    assert run(req(statement, zh=True), "modal/non-standard-verb") == []


def test_extra_not_modal_words_from_the_configuration():
    doc = req("系统应计算燃油需要量。", zh=True)
    assert run(doc, "modal/non-standard-verb")
    assert run(doc, "modal/non-standard-verb", words={"zh": {"not-modal": ["需要量"]}}) == []


# -- modal/non-binding-verb ---------------------------------------------------------------------------------
def test_should_is_reported_with_a_fix_that_needs_review():
    doc = req("The HMI should warn the driver within 200 ms.")
    [f] = run(doc, "modal/non-binding-verb")
    assert covered(doc, f) == "should" and not f.fix.safe
    assert fixed(doc, f) == req("The HMI shall warn the driver within 200 ms.")


def test_will_is_reported_only_without_shall():
    [f] = run(req("The HMI will warn the driver."), "modal/non-binding-verb")
    assert f.fix.edits[0].new_text == "shall"
    assert run(req("The ECU shall cut the torque, so that the vehicle will coast."), "modal/non-binding-verb") == []


@pytest.mark.parametrize("statement", [
    "Should the sensor fail, the ECU shall enter the safe state.",
    "If the sensor should fail, then the ECU shall enter the safe state.",
    "The driver may steer at will. The ECU shall yield.",
    "The ECU shall respect the driver's will.",
])
def test_conditions_and_nouns_are_not_non_binding_verbs(statement):
    assert run(req(statement), "modal/non-binding-verb") == []


def test_chinese_recommendations_are_reported():
    doc = req("系统宜报警，不宜关闭。", zh=True)
    found = run(doc, "modal/non-binding-verb")
    assert [(covered(doc, f), f.fix.edits[0].new_text, f.fix.safe) for f in found] == [
        ("宜", "应", False), ("不宜", "不应", False)]
    assert run(req("系统应在适宜的温度下运行。", zh=True), "modal/non-binding-verb") == []


# -- modal/multiple -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("statement", "result"), [
    ("When a fault occurs, the ECU shall log the fault and shall warn the driver.",
     "When a fault occurs, the ECU shall log the fault. When a fault occurs, the ECU shall warn the driver."),
    ("The ECU shall log the fault and the HMI shall warn the driver.",
     "The ECU shall log the fault. The HMI shall warn the driver."),
    ("If the sensor fails, then the ECU shall log the fault, and the HMI shall warn the driver.",
     "If the sensor fails, then the ECU shall log the fault. If the sensor fails, then the HMI shall warn the driver."),
])
def test_two_obligations_are_split_into_two_sentences(statement, result):
    doc = req(statement)
    [f] = run(doc, "modal/multiple")
    assert covered(doc, f) == "shall"
    assert f.related and "first" in f.related[0].message
    assert not f.fix.safe
    assert fixed(doc, f) == req(result)


@pytest.mark.parametrize(("statement", "result"), [
    ("系统应检测故障并应进入安全状态。", "系统应检测故障。系统应进入安全状态。"),
    ("当车速超过 10 km/h 时，系统应记录故障，人机界面应警告驾驶员。",
     "当车速超过 10 km/h 时，系统应记录故障。当车速超过 10 km/h 时，人机界面应警告驾驶员。"),
])
def test_chinese_obligations_are_split(statement, result):
    doc = req(statement, zh=True)
    [f] = run(doc, "modal/multiple")
    assert fixed(doc, f) == req(result, zh=True)


def test_a_split_across_source_lines_keeps_the_text_intact():
    doc = req("The ECU shall log the fault\nand shall warn the driver.")
    [f] = run(doc, "modal/multiple")
    assert fixed(doc, f) == req("The ECU shall log the fault. The ECU shall warn the driver.")


@pytest.mark.parametrize("statement", [
    "The ECU shall log the fault or shall warn the driver.",
    "The ECU shall send a message and a flag that shall be set.",
    "The ECU shall log, shall warn and shall stop.",
    "The ECU shall log the fault. The HMI shall warn the driver.",
    "The ECU shall not stop and shall not restart.",
])
def test_unreliable_splits_get_no_fix(statement):
    doc = req(statement)
    [f] = run(doc, "modal/multiple")
    if statement.startswith("The ECU shall not"):
        assert fixed(doc, f) == req("The ECU shall not stop. The ECU shall not restart.")
    else:
        assert f.fixes == ()


def test_one_obligation_is_not_multiple():
    assert run(req("The ECU shall not stop the pump."), "modal/multiple") == []
    assert run(req("系统不应停止泵的响应。", zh=True), "modal/multiple") == []


# -- modal/missing ------------------------------------------------------------------------------------------
def test_a_statement_without_a_modal_verb_is_reported():
    doc = req("The ECU logs faults.")
    [f] = run(doc, "modal/missing")
    assert covered(doc, f) == "The ECU logs faults."
    [f] = run(req("The driver may override the ECU."), "modal/missing")
    assert "'may' only permits" in f.message


@pytest.mark.parametrize("compound", ["响应", "对应", "相应", "适应", "供应", "反应", "效应", "感应", "应急"])
def test_ying_inside_a_word_is_not_a_modal_verb(compound):
    assert run(req(f"系统处理{compound}信号。", zh=True), "modal/missing")
    one = req(f"系统应在 10 ms 内处理{compound}信号。", zh=True)
    assert run(one, "modal/missing") == [] and run(one, "modal/multiple") == []


@pytest.mark.parametrize("statement", ["系统应对传感器故障进行处理。", "应用软件应在启动时执行自检。", "系统应对应的信号进行处理。"])
def test_ying_at_the_start_of_an_ambiguous_word_counts_once(statement):
    verbs = [v for v in modal_verbs(statement, "zh") if v.role == "binding"]
    assert len(verbs) == 1
    doc = req(statement, zh=True)
    assert run(doc, "modal/missing") == [] and run(doc, "modal/multiple") == []


def test_only_requirement_statements_are_checked():
    doc = ("## TC-1: Test\nThe tester presses the pedal.\n\n## HE-1: Hazard\nThe car brakes late.\n\n"
           "## FSR-1: Stop\nThe ECU shall stop.\n\n- Rationale: the driver must be protected and will brake.\n")
    for rule in ("modal/missing", "modal/non-standard-verb", "modal/non-binding-verb"):
        assert run(doc, rule) == []


# -- modal/empty --------------------------------------------------------------------------------------------
def test_an_empty_requirement_is_reported_but_not_an_empty_goal():
    doc = "## SG-1: Avoid unintended braking\n- ASIL: D\n\n## FSR-1: Monitor the supply\n- ASIL: B\n- Derived from: SG-1\n"
    [f] = run(doc, "modal/empty")
    assert covered(doc, f) == "FSR-1"
    assert run(doc, "modal/missing") == []


# -- positions ----------------------------------------------------------------------------------------------
def test_columns_are_code_points_with_chinese_and_an_emoji():
    doc = req("🚗 车辆必须在 10 ms 内停止。", zh=True)
    [f] = run(doc, "modal/non-standard-verb")
    line = doc.split("\n")[f.span.start_line]
    assert (f.span.start_col, f.span.end_col) == (line.index("必须"), line.index("必须") + 2) == (4, 6)
    assert fixed(doc, f) == req("🚗 车辆应在 10 ms 内停止。", zh=True)
    doc = req("🚗 The car must stop.")
    [f] = run(doc, "modal/non-standard-verb")
    assert (f.span.start_col, f.span.end_col) == (10, 14)
