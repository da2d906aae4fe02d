"""Wording rules (INCOSE GtWR R7-R9, R19, R24, R26, R32 and requirement smells), the well-formed fixture and
the example workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from safereq.checks import apply_edits
from safereq.checks.config import Config, load_config
from safereq.checks.engine import Checker
from safereq.checks.findings import Finding
from safereq.checks.registry import rule_infos
from safereq.workspace import Workspace

ZH = "---\nlanguage: zh\n---\n"
TEXT_FAMILIES = ("modal", "wording", "ears")
ALL_TEXT_RULES_ON = {rid: "on" for rid in rule_infos() if rid.split("/")[0] in TEXT_FAMILIES}


def run(doc: str, rule: str | None = None, **config) -> list[Finding]:
    ws = Workspace()
    ws.update("doc.md", doc)
    found = Checker(Config(**config)).check(ws)
    return [f for f in found if (f.rule == rule if rule else f.rule.split("/")[0] in TEXT_FAMILIES)]


def req(statement: str, zh: bool = False) -> str:
    return (ZH if zh else "") + f"## REQ-1: A requirement\n{statement}\n\n- Status: draft\n"


def words(doc: str, found: list[Finding]) -> list[str]:
    lines = doc.split("\n")
    return [lines[f.span.start_line][f.span.start_col:f.span.end_col] for f in found]


# One statement that breaks each rule, with the words reported, and one that must pass.
CASES = [
    ("wording/vague-term", "The ECU shall report the fault quickly and with sufficient accuracy.",
     ["quickly", "sufficient"], "The ECU shall report the fault within 50 ms."),
    ("wording/escape-clause", "The ECU shall store the context if possible, as far as\npossible.",
     ["if possible"], "If the memory is available, then the ECU shall store the context."),
    ("wording/open-ended", "The camera monitor shall detect dirt, snow, ice, etc., including but not limited to fog.",
     ["etc.", "including but not limited to"], "The camera monitor shall detect dirt, snow and ice."),
    ("wording/and-or", "The HMI shall warn the driver optically and/or acoustically, or optically and / or haptically.",
     ["and/or", "and / or"], "The HMI shall warn the driver optically and acoustically."),
    ("wording/placeholder", "The ECU shall stop within TBD ms, then XXX [placeholder] ?? [TBC].",
     ["TBD", "XXX", "[placeholder]", "??", "[TBC]"], "The ECU shall stop within 50 ms, see [the plan](plan.md)."),
    ("wording/superlative", "The planner shall compute the optimal trajectory with the best comfort.",
     ["optimal", "best"], "The planner shall use the most recent of at least 3 values and at most 5."),
    ("wording/comparative", "The ECU shall respond faster than the driver and with better accuracy.",
     ["faster", "better"], "The ECU shall apply more than 1.5 Nm, forward the higher of the two values and use one or more."),
    ("wording/subjective", "The HMI shall be user-friendly and easy to use.",
     ["user-friendly", "easy to use"], "The HMI shall show the warning within 100 ms."),
    ("wording/negative", "The HMI shall not fail to warn the driver; a late warning is not impossible.",
     ["not fail to", "not impossible"], "The LCA shall not stop centering the vehicle without warning the driver."),
    ("wording/pronoun", "When the ECU detects a fault, it shall stop. This shall be logged.",
     ["it", "This"], "The LCA shall not request torque after the driver has deactivated it."),
    ("wording/absolute", "The EPS shall always give priority to the driver under all circumstances.",
     ["always", "under all circumstances"], "While the EPS is powered, the EPS shall give priority to the driver."),
    ("wording/missing-unit", "The ECU shall stop within 100, and exceed 2.0 for 3 s.",
     ["100", "2.0"], "The ECU shall stop within 100 ms and accept 3 consecutive frames."),
]

ZH_CASES = [
    ("wording/vague-term", "系统应快速检测故障。", ["快速"], "系统应在 50 ms 内检测故障。"),
    ("wording/escape-clause", "系统应尽可能记录故障，必要时重启。", ["尽可能", "必要时"], "系统应记录故障。"),
    ("wording/open-ended", "系统应检测灰尘、冰雪等遮挡。", ["等"], "系统应检测 ASIL 等级并等待 3 个周期。"),
    ("wording/and-or", "系统应以声和/或光方式报警。", ["和/或"], "系统应以声和光方式报警。"),
    ("wording/placeholder", "系统应在 TBD ms 内停止，阈值待定。", ["TBD", "待定"], "系统应在 50 ms 内停止。"),
    ("wording/superlative", "系统应选择最佳轨迹。", ["最佳"], "系统应选择最近的有效值。"),
    ("wording/comparative", "系统应提供更好的精度。", ["更好"], "系统应输出比 3 Nm 更大的扭矩。"),
    ("wording/subjective", "人机界面应用户友好且易于使用。", ["用户友好", "易于使用"], "人机界面应在 100 ms 内显示警告。"),
    ("wording/negative", "系统不应不报警。", ["不应不"], "系统不应在未收到有效请求时输出扭矩。"),
    ("wording/pronoun", "当控制器检测到故障时，它应进入安全状态。", ["它"], "系统应将其扭矩请求降为零，此外应报警。"),
    ("wording/absolute", "系统应始终监控扭矩。", ["始终"], "系统应每 10 ms 监控扭矩。"),
    ("wording/missing-unit", "当车速超过 100 时，系统应在 50 内停止。", ["100", "50"], "系统应在 2 个周期内停止，年份 2018 年。"),
]


@pytest.mark.parametrize(("rule", "bad", "reported", "good"), CASES + [(r, b, w, g) for r, b, w, g in ZH_CASES],
                         ids=[c[0] for c in CASES] + [c[0] + "-zh" for c in ZH_CASES])
def test_each_rule_reports_its_words_and_passes_good_wording(rule, bad, reported, good):
    zh = any("\u4e00" <= ch <= "\u9fff" for ch in bad)
    doc = req(bad, zh)
    found = run(doc, rule)
    lines = doc.split("\n")
    got = [lines[f.span.start_line][f.span.start_col:f.span.end_col] if f.span.start_line == f.span.end_line
           else "\n".join([lines[f.span.start_line][f.span.start_col:], lines[f.span.end_line][:f.span.end_col]])
           for f in found]
    assert got[:len(reported)] == reported
    assert all(f.message for f in found)
    assert run(req(good, zh), rule) == []


def test_a_phrase_broken_over_two_lines_is_found_with_a_two_line_span():
    doc = req("The ECU shall store the context as far as\npossible.")
    [f] = run(doc, "wording/escape-clause")
    assert (f.span.start_line, f.span.end_line) == (1, 2)
    assert (f.span.start_col, f.span.end_col) == (32, 8)


@pytest.mark.parametrize("statement", [
    "The LCA shall stop after 2018 and conform to ISO 26262-9:2018 §5.4.10 and clause 7.",
    "The arbiter shall forward requests of TSR-1 for ASIL D after TSR-2.",
    "The radar monitor shall accept objects between 0.5 and 200 m and values from 1 to 5 V.",
    "The ECU shall ramp the torque down to 0 within 100ms and keep 5% margin.",
    "The ECU shall use version 2.3.1 within 3 consecutive cycles for 2 sensors.",
])
def test_missing_unit_does_not_report_years_ids_ranges_or_counts(statement):
    assert run(req(statement), "wording/missing-unit") == []


def test_missing_unit_chinese_time_window_without_context_word():
    doc = req("系统应在检测到故障后 100 内停止。", zh=True)
    assert words(doc, run(doc, "wording/missing-unit")) == ["100"]


def test_shall_never_becomes_shall_not_and_shall_always_loses_always():
    doc = req("The EPS shall never ignore the driver.")
    [f] = run(doc, "wording/absolute")
    assert f.fix.safe and apply_edits(doc, f.fix.edits) == req("The EPS shall not ignore the driver.")
    doc = req("The EPS shall always give priority to the driver.")
    [f] = run(doc, "wording/absolute")
    assert not f.fix.safe and apply_edits(doc, f.fix.edits) == req("The EPS shall give priority to the driver.")
    [f] = run(req("The EPS never fails."), "wording/absolute")
    assert f.fixes == ()


def test_universal_quantifier_is_off_by_default_and_skips_periods():
    doc = req("The gateway shall check all messages every 10 ms.")
    assert run(doc, "wording/universal-quantifier") == []
    on = {"wording/universal-quantifier": "info"}
    assert words(doc, run(doc, "wording/universal-quantifier", rules=on)) == ["all"]


def test_the_pronoun_rule_reads_modal_verbs_with_the_projects_extra_not_modal_words():
    """A pronoun is flagged as the subject of a modal verb; a phrase the project says is not a modal verb
    ("will trip" here) makes it no subject, for this rule as for the modal rules."""
    doc = req("The relay shall open when it will trip.")
    assert words(doc, run(doc, "wording/pronoun")) == ["it"]
    assert run(doc, "wording/pronoun", words={"en": {"not-modal": ["will trip"]}}) == []


def test_users_extend_word_lists_per_language():
    doc = req("The HMI shall respond in a snappy way.")
    assert run(doc, "wording/vague-term") == []
    extra = {"en": {"vague-terms": ["snappy"]}}
    assert words(doc, run(doc, "wording/vague-term", words=extra)) == ["snappy"]
    zh_doc = req("系统应利落地停止。", zh=True)
    assert words(zh_doc, run(zh_doc, "wording/vague-term", words={"zh": {"vague-terms": ["利落"]}})) == ["利落"]


def test_attributes_and_non_requirements_are_not_checked():
    doc = ("## FSR-1: Stop\nThe ECU shall stop within 50 ms.\n\n- Rationale: quickly, if possible, etc., TBD\n\n"
           "## TC-1: Test\nPress the pedal quickly, TBD.\n\n## HE-1: Hazard\nThe car always brakes late.\n")
    assert run(doc) == []


def test_columns_are_code_points_with_chinese_and_an_emoji():
    doc = req("🚗 系统应快速停止，🚦 TBD。", zh=True)
    found = run(doc)
    line = doc.split("\n")[found[0].span.start_line]
    assert [(f.rule, f.span.start_col) for f in found] == [
        ("wording/vague-term", line.index("快速")), ("wording/placeholder", line.index("TBD"))]
    assert line.index("TBD") == 12  # 🚗 and 🚦 are one column each


def test_the_wellformed_fixture_raises_nothing(repo_root: Path):
    doc = (repo_root / "tests/fixtures/text-wellformed.md").read_text(encoding="utf-8")
    assert [(f.rule, f.message) for f in run(doc, rules=ALL_TEXT_RULES_ON)] == []
    ws = Workspace()
    parsed = ws.update("fixture.md", doc)
    assert len(parsed.items) >= 20 and {i.language for i in parsed.items} == {"en", "zh"}


def test_the_examples_raise_exactly_the_intended_findings(repo_root: Path):
    examples = repo_root / "examples"
    ws = Workspace()
    for path in sorted(examples.rglob("*.md")):
        if path.name != "README.md":
            ws.update(str(path), path.read_text(encoding="utf-8"))
    found = [f for f in Checker(load_config(examples)).check(ws) if f.rule.split("/")[0] in TEXT_FAMILIES]
    got = []
    for f in found:
        item = ws.item_at(f.path, f.span.start_line)
        line = ws.documents[f.path].text.split("\n")[f.span.start_line]
        got.append((item.id, f.rule, line[f.span.start_col:f.span.end_col]))
    assert got == [
        ("FSR-3", "modal/non-standard-verb", "must"),
        ("FSR-5", "wording/vague-term", "quickly"),
        ("FSR-6", "wording/placeholder", "TBD"),
        ("FSR-ZH-3", "modal/non-standard-verb", "必须"),
    ]


def test_placeholder_patterns_skip_only_statements_they_cannot_match(monkeypatch):
    """The placeholder patterns are searched only in statements holding a character a match can start with;
    the shortcut must find exactly what a search of every statement finds."""
    from safereq.checks.analysis import word_lists

    texts = ["The ECU shall stop within ?? ms.", "The ECU shall stop [TBD].", "系统应在？？毫秒内停止。",
             "The ECU shall log <value>.", "The ECU shall send {{signal}}.", "The ECU shall stop within 10 ms.",
             "Is it [ok]? The ECU shall < 5 V {x}", "系统应在【待定】毫秒内停止。"]
    for language in ("en", "zh"):
        lex = word_lists.Lexicon(language, ())
        assert lex.pattern_starts["placeholders"] is not None  # the shipped patterns all allow the shortcut
        plain = word_lists.Lexicon(language, ())
        plain.pattern_starts = {name: None for name in plain.patterns}
        for text in texts:
            assert lex.entries(text) == plain.entries(text), text
    assert word_lists.first_chars(r"\?{2,}|\[x\]") == frozenset("?[")
    assert word_lists.first_chars("tbd") is None and word_lists.first_chars(r"\d+") is None  # letters, classes


# -- wording/missing-unit on dimensionless values (a held-out set found these) -----------------------------
@pytest.mark.parametrize(("statement", "zh"), [
    ("The classifier shall reject objects with a classification confidence below 0.9.", False),
    ("The ECU shall reject a detection when its confidence is less than 0.9.", False),
    ("The ECU shall report a fault when the slip ratio exceeds 1.2.", False),
    ("The ECU shall set the gain to a value of 0.5.", False),
    ("当置信度低于 0.6 时，系统应拒绝该目标。", True),
    ("当比率的值超过 1.2 时，系统应报警。", True),
])
def test_missing_unit_is_quiet_on_dimensionless_values(statement, zh):
    assert run(req(statement, zh), "wording/missing-unit") == []


@pytest.mark.parametrize(("statement", "zh", "number"), [
    ("The ratio monitor shall respond within 100.", False, "100"),  # the ratio is not what is compared
    ("The ECU shall brake when the speed exceeds 100.", False, "100"),
    ("当速度超过 100 时，系统应报警。", True, "100"),
])
def test_missing_unit_still_reports_quantities_next_to_dimensionless_words(statement, zh, number):
    doc = req(statement, zh)
    assert words(doc, run(doc, "wording/missing-unit")) == [number]


def test_dimensionless_words_are_project_data():
    doc = req("The ECU shall alarm when the zorgly exceeds 1.2.")
    assert len(run(doc, "wording/missing-unit")) == 1
    assert run(doc, "wording/missing-unit", words={"en": {"dimensionless": ["zorgly"]}}) == []


# -- a modal word inside an inline code span is a display text, not the statement's verb -------------------
def test_must_inside_a_code_span_is_not_the_modal_verb():
    doc = req("The HMI shall display `Driver must brake` when the ECU detects a fault.")
    found = run(doc, rule=None, rules=ALL_TEXT_RULES_ON)
    assert [f.rule for f in found if f.rule.startswith("modal/")] == []
    alone = req("The HMI must display `Driver shall brake`.")  # outside the span it still counts
    assert [f.rule for f in run(alone, "modal/non-standard-verb")] == ["modal/non-standard-verb"]
    assert words(alone, run(alone, "modal/non-standard-verb")) == ["must"]
