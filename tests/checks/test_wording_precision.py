"""Wording findings that were false positives on requirement sets written by other teams (eval/checks/): each
case is the general pattern, with the true positive next to it that must still be reported."""

from __future__ import annotations

import pytest

from .test_wording import req, run, words


def _reported(statement: str, rule: str) -> list[str]:
    doc = req(statement)
    return words(doc, run(doc, rule, rules={rule: "on"}))


@pytest.mark.parametrize("statement", [
    "The FZC shall set the brake to 100 % on a timeout.",            # after a value marker
    "The FZC shall command maximum braking (100%) on a timeout.",     # a value in brackets
    "The duty cycle shall map linearly from 0% braking to 100% braking.",   # a scale
    "The derating shall be: below 60 C = 100%, above 80 C = 50%.",
])
def test_a_percentage_that_is_a_value_is_no_absolute(statement):
    assert _reported(statement, "wording/absolute") == []


def test_a_percentage_that_claims_perfection_is_still_an_absolute():
    assert _reported("The monitor shall detect 100 % of the sensor faults.", "wording/absolute") == ["100 %"]


def test_at_a_minimum_before_a_number_is_a_bound_not_an_open_list():
    assert _reported("The RZC shall sample the current at a minimum rate of 1 kHz.", "wording/open-ended") == []
    assert _reported("The log shall include, at a minimum, the fault code.", "wording/open-ended") == ["at a minimum"]


def test_a_vague_word_inside_an_escape_clause_is_reported_once():
    statement = "The ECU shall log trouble codes as appropriate for all faults."
    assert _reported(statement, "wording/vague-term") == []
    assert _reported(statement, "wording/escape-clause") == ["as appropriate"]
    assert _reported("The ECU shall enter the appropriate safe state.", "wording/vague-term") == ["appropriate"]


@pytest.mark.parametrize("statement", [
    "The ADC shall be configured for 12-bit resolution within 5 us.",        # a unit after a hyphen
    "The SC shall open the relay if the fault persists for 2 or more consecutive cycles.",
    "The SC shall declare a bus fault when the error counter exceeds 255.",  # a counter's value is a count
])
def test_a_number_with_its_unit_or_a_count_needs_no_unit(statement):
    assert _reported(statement, "wording/missing-unit") == []


def test_a_number_without_a_unit_is_still_reported():
    assert _reported("The ECU shall reset the output within 100.", "wording/missing-unit") == ["100"]
    assert _reported("The ECU shall debounce the input for 2 or more.", "wording/missing-unit") == ["2"]


def test_a_word_inside_any_earlier_escape_clause_counts_as_inside():
    """The bisection over escape clauses (one paragraph can hold thousands) must find a long clause that
    starts before a shorter, later one."""
    from types import SimpleNamespace

    from safereq.checks.families.wording import _not_in_escape_clause

    a = SimpleNamespace(entries={"escape-clauses": [(5, 8), (0, 30), (40, 50)]})
    assert not _not_in_escape_clause(a, 10, 12)  # inside (0, 30), after (5, 8) ended
    assert _not_in_escape_clause(a, 32, 35)  # between clauses
    assert not _not_in_escape_clause(a, 41, 45)
    assert _not_in_escape_clause(a, 48, 52)  # runs past the clause's end
    assert _not_in_escape_clause(SimpleNamespace(entries={}), 1, 2)
