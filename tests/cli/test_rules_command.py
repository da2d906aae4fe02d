"""`safereq rules`: the rule list and each rule's documentation page."""

import json

from safereq.cli.main import main


def test_lists_every_rule_with_its_default(capsys):
    assert main(["rules", "--json"]) == 0
    rules = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rules["modal/non-standard-verb"]["fixable"] is True
    assert rules["ears/no-pattern"]["enabled"] is False
    assert "io/binary" in rules


def test_shows_one_rule_page(capsys):
    assert main(["rules", "trace/dangling-link"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# trace/dangling-link") and "**Fix.**" in out


def test_unknown_rule_suggests_the_closest(capsys):
    assert main(["rules", "trace/dangling-links"]) == 2
    assert "did you mean 'trace/dangling-link'" in capsys.readouterr().err
