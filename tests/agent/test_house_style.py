"""Derive follows the siblings' children (the team's house style) and splits what the item bundles."""

from __future__ import annotations

from safereq.agent.item.context import workspace_view
from safereq.agent.retrieval.knowledge import catalogue_source
from safereq.agent.tasks.pipeline import AgentRequest, Assistant
from safereq.agent.writing.analogues import keeps_limits, transfer
from safereq.workspace import Workspace

SPEC = """# Requirements

## FEAT-1: Command line
The tool offers a command line interface.

## SYSR-1: Help
`help`, `-h` and `--help` show a short help text with command line usage.

- Derived from: FEAT-1

## SYSR-2: Version
`help`, `-h` and `--help` show the version of the tool.

- Derived from: FEAT-1

## DSN-1: Help command
The CLI provides a help command and flags (`help`, `-h`, `--help`) that display a short help text.

- Derived from: SYSR-1
"""


def test_a_siblings_child_is_rewritten_with_the_items_own_phrase():
    out = transfer("`help`, `-h` and `--help` show a short help text with command line usage.",
                   "The CLI provides a help command and flags (`help`, `-h`, `--help`) that display a short help text.",
                   "`help`, `-h` and `--help` show the version of the tool.")
    assert out is not None
    assert out[0] == "The CLI provides a help command and flags (`help`, `-h`, `--help`) that display the version of the tool."


def test_a_phrase_is_carried_from_its_first_word_or_not_at_all():
    # the child names "the current version", the sibling "the version": carrying from the middle of the
    # phrase would write "the current a short help text"
    assert transfer("`help` shows the version of OFT.", "The CLI provides the current version of OpenFastTrace.",
                    "`help` shows a short help text with usage.") is None


def test_an_analogue_that_loses_a_limit_is_not_offered():
    assert not keeps_limits("The monitor shall report within 50 ms.", "The monitor shall report quickly.")
    assert transfer("The logger shall flush within 10 ms.", "The logger writes its buffer to disk within 10 ms.",
                    "The logger shall flush within 50 ms.") is None or "50 ms" in transfer(
        "The logger shall flush within 10 ms.", "The logger writes its buffer to disk within 10 ms.",
        "The logger shall flush within 50 ms.")[0]


def test_derive_writes_the_item_s_child_like_its_siblings_children():
    ws = Workspace()
    ws.update("spec.md", SPEC)
    result = Assistant(catalogue_source()).run(AgentRequest("derive", workspace_view(ws, ws.item("SYSR-2"))))
    (s,) = result.suggestions
    assert s.id.startswith("DSN-") and s.pattern == "sibling-analogue" and s.derived_from == ["SYSR-2"]
    assert s.statement.endswith("that display the version of the tool.")
    assert s.citations == []  # no clause of a standard is about a help flag: nothing is cited


def derive(text: str, item_id: str):
    ws = Workspace()
    ws.update("spec.md", text)
    return Assistant(catalogue_source()).run(AgentRequest("derive", workspace_view(ws, ws.item(item_id))))


def test_a_compound_requirement_is_not_split_offline():
    # a part alone restates half of the item: every blind judge that saw one dropped or rewrote it
    result = derive(PURIFIER, "SYS-2")
    assert result.suggestions == [] and result.notes


def test_a_distant_sibling_or_a_verb_alone_gives_no_analogue():
    # two sponsors' requirements that share their frame but not their matter (a portal, a GCP project)
    assert transfer("The platform SHALL provide a dedicated web portal for each sponsor at a unique URL.",
                    "The system SHALL deploy a unique web portal URL for each sponsor.",
                    "The platform SHALL provision each sponsor with a dedicated GCP project for staging environments.") is None
    assert transfer("The system SHALL support multiple clinical trial sites within each sponsor's environment.",
                    "The system SHALL support role-based access control for each sponsor.",
                    "The system SHALL configure each sponsor's database with site data structures.") is None


PURIFIER = """# System

## SYS-1: Noise
The system shall stay below 40 dBA at the lowest fan speed.

## SYS-2: Power
The system shall operate from a USB-C 5 V input and not exceed 5 W.

## SYS-3: Low battery
When the battery voltage drops below 3.3 V, the system shall enter the low-power mode.

# Hardware

## HW-1: Fan driver
The fan driver shall limit the fan to 40 dBA at the lowest speed.

- Derived from: SYS-1
"""


def test_a_derived_item_gets_the_kind_the_team_derives_items_of_its_kind_into():
    # SYS-3 has no parent, so no siblings with children; another SYS item's child shows the house kind (HW)
    result = derive(PURIFIER, "SYS-3")
    assert result.suggestions, result.notes
    assert all(s.id.startswith("HW-") for s in result.suggestions), [s.id for s in result.suggestions]
    assert {s.id for s in result.suggestions}.isdisjoint({"HW-1"})


TRANSLATOR = """\
# Translator

## UR-1: Privacy

The system shall protect the user's privacy.

## SR-3: OCR privacy

系统应该保证用户隐私，不记录用户的OCR识别记录。

- Derived from: UR-1
"""


def test_a_kind_the_rules_do_not_know_keeps_the_teams_own_scheme():
    # no SR item has children and SR is no kind of the safety chain: the derived item is SR-n, not REQ-n
    result = derive(TRANSLATOR, "SR-3")
    assert result.suggestions, result.notes
    assert all(s.id.startswith("SR-") and s.id != "SR-3" for s in result.suggestions), [s.id for s in result.suggestions]


def test_a_quantity_carried_without_its_name_or_unit_is_no_analogue():
    # the sibling's child names its quantity (RR) and unit: the item's range alone cannot replace them
    assert transfer("The system shall control the respiratory rate (RR) from 5-30 bpm in increments of 1 bpm.",
                    "GUI must allow adjusting RR from 5-30 bpm with increments of 1",
                    "The system shall control the target PEEP from 0 - 20 cm H2O in increments of 1 cmH2O.") is None
    assert transfer("The system shall control the target peak inspiratory pressure (PIP) from 5-55 cmH2O in "
                    "increments of 1 cm H2O.",
                    "GUI shall allow the user to set PIP from 5-55 cmH2O with increments of 1 cm H2O.",
                    "The system shall control the respiratory rate (RR) from 5-30 breaths per minute (bpm) in "
                    "increments of 1 bpm.") is None
