"""Accepted deviations: a ``Deviation:`` line accepts its item's finding of a rule (about the quoted words),
a deviation without a reason or that accepts nothing is a finding, and the engine's caches keep the result
equal to a fresh check."""

import pytest

from safereq.checks.engine import Checker
from safereq.checks.engine.deviations import accept_edit, clean_reason, read
from safereq.checks import apply_edits
from safereq.workspace import Workspace

DOC = """# Requirements

## SG-1: Avoid unintended steering
The steering system shall not apply unintended torque.

- ASIL: B

### FSR-12: Warn the driver
The ECU should warn the driver quickly.

- ASIL: B
- Derived from: SG-1
- Deviation: modal/non-binding-verb "should": quoted from the customer's specification CS-4
{extra}
### FSR-13: Warn again
The ECU should warn the driver again quickly.

- ASIL: B
- Derived from: SG-1
"""


def check(text: str):
    ws = Workspace()
    ws.update("r.md", text)
    checker = Checker()
    return checker.check(ws), checker.accepted()


def at(findings, rule):
    return [(f.span.start_line, f.rule) for f in findings if f.rule == rule]


def test_a_deviation_accepts_its_items_finding_and_no_other():
    found, accepted = check(DOC.format(extra=""))
    # FSR-12's 'should' is accepted; FSR-13's, the same rule in the next item, is not.
    assert at(found, "modal/non-binding-verb") == [(15, "modal/non-binding-verb")]
    (a,) = accepted
    assert (a.finding.rule, a.finding.span.start_line) == ("modal/non-binding-verb", 8)
    assert (a.deviation.item_id, a.deviation.words, a.deviation.reason) == (
        "FSR-12", "should", "quoted from the customer's specification CS-4")
    assert not [f for f in found if f.rule.startswith("deviation/")]
    assert at(found, "wording/vague-term") == [(8, "wording/vague-term"), (15, "wording/vague-term")]


def test_the_words_choose_which_finding_is_accepted():
    found, accepted = check(DOC.format(extra='- Deviation: wording/vague-term "fast": too general\n'))
    assert [f.rule for f in found if f.rule.startswith("deviation/")] == ["deviation/unmatched"]
    assert "about 'fast'" in next(f.message for f in found if f.rule == "deviation/unmatched")
    found, accepted = check(DOC.format(extra='- Deviation: wording/vague-term "QUICKLY": agreed with the OEM\n'))
    assert at(found, "wording/vague-term") == [(16, "wording/vague-term")] and len(accepted) == 2  # FSR-13's


def test_a_deviation_without_a_reason_still_accepts_but_is_an_error():
    found, accepted = check(DOC.format(extra="- Deviation: wording/vague-term\n"))
    (problem,) = [f for f in found if f.rule.startswith("deviation/")]
    assert problem.rule == "deviation/no-reason" and problem.severity.label == "error"
    assert problem.span.start_line == 13 and "gives no reason" in problem.message
    assert {a.finding.rule for a in accepted} == {"modal/non-binding-verb", "wording/vague-term"}


@pytest.mark.parametrize(("line", "message"), [
    ("- Deviation: wording/vage-term: typo", "'wording/vage-term' is not a rule ID"),
    ("- Deviation: the customer wants it", "cannot be read"),
    ("- Deviation: wording/absolute: nothing absolute here", "no wording/absolute finding in FSR-12"),
])
def test_a_deviation_that_accepts_nothing_is_reported(line, message):
    found, _ = check(DOC.format(extra=line + "\n"))
    (problem,) = [f for f in found if f.rule.startswith("deviation/")]
    assert problem.rule == "deviation/unmatched" and message in problem.message


def test_the_deviation_rules_follow_the_configuration():
    from safereq.checks import Config

    ws = Workspace()
    ws.update("r.md", DOC.format(extra="- Deviation: wording/vague-term\n"))
    found = Checker(Config(rules={"deviation/no-reason": "off"})).check(ws)
    assert not [f for f in found if f.rule.startswith("deviation/")]


def test_values_are_read_with_every_quote_style():
    from safereq.model.document import Attribute

    def value(text):
        attr = Attribute("deviation", "Deviation", text, 0, 0, 0, 0, 0, 0, 0)
        item = type("I", (), {"path": "p", "id": "X-1"})()
        return read(item, attr)[2:5]

    assert value('modal/multiple “shall … shall”：原文如此') == ("modal/multiple", "shall … shall", "原文如此")
    assert value("ears/no-pattern: free   text\nnext") == ("ears/no-pattern", None, "free text next")
    assert value("ears/no-pattern") == ("ears/no-pattern", None, "")


EDITS = [
    ("remove the accepted word", lambda t: t.replace("should warn the driver quickly", "shall warn the driver quickly")),
    ("remove the deviation", lambda t: t.replace("- Deviation: modal/non-binding-verb \"should\": quoted from the "
                                                 "customer's specification CS-4\n", "")),
    ("add a deviation", lambda t: t.replace("- Derived from: SG-1\n\"\"\"", "")
     .replace("again quickly.\n\n- ASIL: B\n- Derived from: SG-1\n",
              "again quickly.\n\n- ASIL: B\n- Derived from: SG-1\n- Deviation: wording/vague-term\n")),
    ("move the item down", lambda t: t.replace("### FSR-12:", "\n\n\n### FSR-12:")),
    ("edit the reason away", lambda t: t.replace(": quoted from the customer's specification CS-4", "")),
]


@pytest.mark.parametrize(("name", "edit"), EDITS, ids=[e[0] for e in EDITS])
def test_incremental_results_equal_a_fresh_check(name, edit):
    text = DOC.format(extra="")
    ws = Workspace()
    checker = Checker()
    ws.update("r.md", text)
    checker.check(ws)
    text = edit(text)
    ws.update("r.md", text)
    assert (checker.check(ws), checker.accepted()) == check(text)


def test_the_accept_edit_writes_a_line_the_checker_reads_back():
    text = DOC.format(extra="")
    found, _ = check(text)
    finding = next(f for f in found if f.rule == "modal/non-binding-verb")  # FSR-13's
    ws = Workspace()
    ws.update("r.md", text)
    edit = accept_edit(ws.documents["r.md"], finding, "agreed\x1b[2J in review\nR-7")
    after = apply_edits(text, [edit])
    # The escape character is gone (a reason is one line of plain text); what it preceded stays as text.
    assert after.endswith('- Derived from: SG-1\n- Deviation: modal/non-binding-verb "should": agreed [2J in review R-7\n')
    found, accepted = check(after)
    assert not at(found, "modal/non-binding-verb") and len(accepted) == 2
    with pytest.raises(ValueError, match="needs a reason"):
        accept_edit(ws.documents["r.md"], finding, " \n\t")
    assert clean_reason("a\u202eb\tc") == "a b c"


def test_the_accept_edit_after_a_last_line_without_a_line_break_and_without_attributes():
    text = "## FSR-1: Warn\nThe ECU should warn."
    found, _ = check(text)
    finding = next(f for f in found if f.rule == "modal/non-binding-verb")
    ws = Workspace()
    ws.update("r.md", text)
    after = apply_edits(text, [accept_edit(ws.documents["r.md"], finding, "legacy")])
    assert after == "## FSR-1: Warn\nThe ECU should warn.\n\n- Deviation: modal/non-binding-verb \"should\": legacy"
    found, accepted = check(after)
    assert not at(found, "modal/non-binding-verb") and len(accepted) == 1
