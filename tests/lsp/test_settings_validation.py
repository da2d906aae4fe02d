"""The editor's settings are validated by the one configuration model: an unknown or misspelt key, at any
depth, is reported with the closest valid name and left out; the valid sections stay in force."""

from __future__ import annotations

from safereq.lsp.session import Session


def _problems(raw: dict) -> tuple[Session, list[str]]:
    session = Session("utf-16", [])
    session.apply_settings(raw)
    return session, session.setting_problems


def test_misspelt_keys_are_named_with_the_closest_valid_one():
    session, problems = _problems({"llm": {"baseUrl": "http://127.0.0.1:9/v1", "modle": "m"},
                                   "indx": {"path": "x"}, "index": {"path": "idx"}})
    assert "unknown setting 'safereq.indx'; did you mean 'index'?" in problems
    assert "safereq.llm: unknown setting 'llm.modle'; did you mean 'model'?" in problems
    assert session.settings.index.path == "idx"  # the valid section applies
    assert session.settings.llm.base_url is None  # the section with a mistake is left out whole


def test_dotted_keys_and_client_only_settings_are_accepted():
    session, problems = _problems({"llm.baseUrl": "http://127.0.0.1:9/v1", "llm.model": "m",
                                   "server": {"path": "/bin/safereq"}, "trace": {"server": "off"}})
    assert problems == []
    assert (session.settings.llm.base_url, session.settings.llm.model) == ("http://127.0.0.1:9/v1", "m")


def test_an_unknown_rule_names_the_closest_rule():
    _session, problems = _problems({"rules": {"wording/vage-term": "error"}})
    assert problems == ["safereq.rules: unknown rule 'wording/vage-term'; did you mean 'wording/vague-term'?"]
