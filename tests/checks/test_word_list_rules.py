"""Word-list rules are data: a rule in rules/checks/wording.yaml that names its list and message, its words
in rules/<lang>/wording.yaml, its page in rules/docs/, and a row here. No code names them.

Each row is a statement in which ``{word}`` stands for an entry of the rule's list. The row is checked with a
shipped entry of the list, with a made-up word the project adds through ``words.<lang>.<list>`` (found only
then), and the metadata (the lists a rule reads) is checked against the data and the code.
"""

from __future__ import annotations

import pytest

from safereq.checks import Checker, Config
from safereq.checks.registry import checks, rule_infos, scanned_lists, word_list_names
from safereq.data import load_rules_yaml
from safereq.workspace import Workspace

# rule -> (language, statement with {word}, a shipped entry of its list)
ROWS = {
    "wording/vague-term": ("en", "The ECU shall report the fault {word}.", "quickly"),
    "wording/escape-clause": ("en", "The ECU shall report the fault {word}.", "if possible"),
    "wording/open-ended": ("en", "The ECU shall report faults of sensors, actuators {word}.", "etc."),
    "wording/and-or": ("en", "The ECU shall report speed {word} torque.", "and/or"),
    "wording/placeholder": ("en", "The ECU shall report the fault within {word}.", "TBD"),
    "wording/subjective": ("en", "The HMI shall show a {word} warning.", "user-friendly"),
    "wording/superlative": ("en", "The ECU shall use the {word} filter.", "optimal"),
    "wording/comparative": ("en", "The ECU shall react {word}.", "faster"),
    "wording/negative": ("zh", "系统{word}报告故障。", "不应不"),
    "wording/universal-quantifier": ("en", "The ECU shall monitor {word} sensor.", "every"),
}
MADE_UP = "zorglub"


def _word_list_rules() -> dict[str, object]:
    return {rid: info for rid, info in rule_infos().items() if info.message is not None}


def _found(language: str, statement: str, rule: str, config: Config) -> list[str]:
    doc = ("---\nlanguage: zh\n---\n" if language == "zh" else "") + f"## REQ-1: A requirement\n{statement}\n"
    ws = Workspace()
    ws.update("doc.md", doc)
    lines = doc.split("\n")
    return [lines[f.span.start_line][f.span.start_col:f.span.end_col]
            for f in Checker(config).check(ws) if f.rule == rule]


def test_every_word_list_rule_has_a_row():
    assert set(ROWS) == set(_word_list_rules())


@pytest.mark.parametrize("rule", sorted(ROWS))
def test_a_shipped_entry_is_reported(rule):
    language, statement, word = ROWS[rule]
    assert word in load_rules_yaml(f"{language}/wording.yaml")[rule_infos()[rule].lists[0]]
    assert _found(language, statement.format(word=word), rule, Config(rules={rule: "on"})) == [word]


@pytest.mark.parametrize("rule", sorted(ROWS))
def test_a_project_word_extends_the_rules_list(rule):
    language, statement, _word = ROWS[rule]
    text = statement.format(word=MADE_UP)
    assert _found(language, text, rule, Config(rules={rule: "on"})) == []
    extended = Config(rules={rule: "on"}, words={language: {rule_infos()[rule].lists[0]: [MADE_UP]}})
    assert _found(language, text, rule, extended) == [MADE_UP]


def test_a_word_list_rule_reads_one_list():
    from safereq.checks.families.wording import _KEEP

    for rid, info in _word_list_rules().items():
        # A raw list is read only by the rule's filter of entries (wording._KEEP), never scanned.
        assert len(info.lists) == 1 and (not info.raw_lists or rid in _KEEP), rid
        assert "{word}" in info.message, rid


def test_every_list_a_rule_names_is_in_the_data():
    data = {*load_rules_yaml("en/wording.yaml"), *load_rules_yaml("zh/wording.yaml")}
    for rid, info in rule_infos().items():
        for name in (*info.lists, *info.raw_lists):
            assert name in data, f"{rid} reads list {name!r}, which rules/<lang>/wording.yaml lacks"


def test_every_list_in_the_data_is_read():
    """A list no rule names would be neither scanned nor extensible: silently dead data."""
    data = {*load_rules_yaml("en/wording.yaml"), *load_rules_yaml("zh/wording.yaml")}
    read_by_the_scan_itself = {"placeholder-patterns"}  # the placeholders' patterns (analysis/word_lists.py)
    assert data - word_list_names() - read_by_the_scan_itself == set()


def test_the_topics_of_a_check_are_the_lists_its_metadata_names():
    """The engine calls an item function only for items with one of its topics; a topic that is a word list
    must be one the rule declares (and so one the scan looks for), or the rule would never be called."""
    data = {*load_rules_yaml("en/wording.yaml"), *load_rules_yaml("zh/wording.yaml")}
    for rid, check in checks().items():
        listed = (check.topics or frozenset()) & data
        assert listed <= set(rule_infos()[rid].lists), rid
        assert listed <= set(scanned_lists()), rid
