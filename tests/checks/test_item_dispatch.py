"""The item dispatch (checks/engine/dispatch.py) and the scanners' key filters skip only what cannot report.

Both are speed-ups that must never change a finding: a rule the plan leaves out for an item would have
found nothing there, and a word-list entry or modal verb a key filter passes over could not have matched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from safereq.checks.analysis import modal_verbs, word_lists
from safereq.checks.engine import Checker
from safereq.workspace import Workspace

from .findings_snapshot import all_rules_config, load_workspace

TESTS = Path(__file__).resolve().parent.parent
WORKSPACES = [TESTS.parent / "examples", TESTS / "fixtures" / "trace-brake-workspace",
              TESTS / "checks" / "defects-workspace"]

# Statements where a phrase's words are split by punctuation, spaced oddly, cased oddly, or written with
# letters that match case-insensitively without being the same when lowered (ſ is s, K the Kelvin sign is k).
TRICKY = [
    "The ECU shall respond as soon as possible.", "The ECU shall respond as, soon as possible.",
    "The ECU shall respond AS  SOON\tAS POSSIBLE and/or later.", "The ECU shall respond as ſoon as poſſible.",
    "The ECU shall be state-of-the-art, fault-free and a must.", "A must: the ECU has to stop; it needs to stop.",
    "The ECU has, to stop within TBD ms.", "The \u212aECU shall stop 100 % of the time, to the extent necessary.",
    "The ECU is required to stop and is obliged\nto log.", "The ECU should, if necessary, stop [TBD].",
    "系统应在必要时尽快停止，as soon as possible。", "The ECU needs to stop when necessary, etc.",
]


@pytest.mark.parametrize("root", WORKSPACES, ids=lambda p: p.name)
def test_the_plan_leaves_out_only_rules_without_findings(root):
    ws = load_workspace(root)
    ws.update("tricky.md", "".join(f"## FSR-T{k}: Tricky\n{text}\n\n- ASIL: B\n- Derived from: SG-1\n\n"
                                   for k, text in enumerate(TRICKY)))
    checker = Checker(all_rules_config())
    ctx = checker._context(ws)
    skipped = 0
    for doc in ws.documents.values():
        for item in doc.items:
            chosen = {rule for rule, _fn in checker._dispatch(ctx, item)}
            for rule, fn in checker._item_fns:
                if rule not in chosen:
                    skipped += 1
                    assert list(fn(ctx, item)) == [], (rule, item.id)
    assert skipped  # the plan does leave rules out


def test_a_rule_runs_only_for_items_with_one_of_its_topics(monkeypatch):
    from safereq.checks import registry

    calls: list[str] = []
    original = registry.checks()
    check = original["wording/vague-term"]

    def counting(ctx, item):
        calls.append(item.id)
        return check.fn(ctx, item)

    patched = dict(original)
    patched[check.rule] = registry.Check(check.rule, "item", counting, topics=check.topics)
    monkeypatch.setattr("safereq.checks.engine.checker.checks", lambda: patched)
    ws = Workspace()
    ws.update("reqs.md", "## FSR-1: A\nThe ECU shall stop quickly.\n\n## FSR-2: B\nThe ECU shall stop.\n\n"
                         "## TC-1: Test\nCheck quickly.\n")
    findings = Checker().check(ws)
    assert calls == ["FSR-1"]
    assert [f.rule for f in findings if f.rule == check.rule] == [check.rule]


def test_a_rule_deciding_by_its_statement_test_is_left_out_where_the_test_fails():
    """wording/missing-unit and wording/pronoun register a test of the statement (statement_topic): the plan
    calls them only for statements the test holds for, and they still report there."""
    ws = Workspace()
    ws.update("reqs.md", "## FSR-1: A\nThe ECU shall stop within 100 ms.\n\n## FSR-2: B\nThe ECU shall stop "
                         "within 100.\n\n## FSR-3: C\nIt shall stop.\n\n## FSR-4: D\nThe ECU shall stop it.\n")
    checker = Checker(all_rules_config())
    ctx = checker._context(ws)
    planned = {item.id: {rule for rule, _fn in checker._dispatch(ctx, item)} for item in ws.documents["reqs.md"].items}
    assert "wording/missing-unit" not in planned["FSR-1"] and "wording/missing-unit" in planned["FSR-2"]
    assert "wording/pronoun" in planned["FSR-3"] and "wording/pronoun" not in planned["FSR-4"]
    reported = {f.rule for f in checker.check(ws)}
    assert {"wording/missing-unit", "wording/pronoun"} <= reported


def test_topics_are_a_collection_of_names():
    from safereq.checks import registry

    with pytest.raises(TypeError):
        registry.item_check("wording/vague-term", topics="vague-terms")


def _unfiltered_lexicon(language: str, extras) -> word_lists.Lexicon:
    lex = word_lists.Lexicon(language, extras)
    keys = lex.filter.keys

    class AllKeys:
        def candidates(self, text):
            return keys

    lex.filter = AllKeys()
    for groups in lex.index.values():
        for group in groups:
            group.needs = None
    return lex


@pytest.mark.parametrize("language", ["en", "zh"])
def test_word_list_filters_find_what_trying_every_key_finds(language):
    extras = (("vague-terms", ("as needed", "naïve", "fast-ish")), ("not-in", ("very state",)))
    filtered, plain = word_lists.Lexicon(language, extras), _unfiltered_lexicon(language, extras)
    for text in TRICKY:
        assert filtered.entries(text) == plain.entries(text), text


def test_modal_filters_find_what_trying_every_key_finds():
    extra = ("a must", "has, to")
    filtered = modal_verbs._Scanner("en", extra)
    plain = modal_verbs._Scanner("en", extra)
    plain.filter = None  # every key, as for Chinese
    for text in TRICKY:
        assert filtered.scan(text) == plain.scan(text), text
