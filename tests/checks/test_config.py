"""Configuration files: every error names the file and the 1-based line it is on; valid files load."""

from __future__ import annotations

from pathlib import Path

import pytest

from safereq.checks.config import Config, ConfigError, find_config, load_config, load_config_file
from safereq.checks.findings import Severity


def _error(tmp_path: Path, text: str, name: str = "safereq.toml") -> ConfigError:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert info.value.path == path
    return info.value


@pytest.mark.parametrize(("text", "line", "start"), [
    ('exclude = ["a"]\nrules = 3\n', 2, "'rules' must be a table"),
    ('[rules]\n"format/malformd-id" = "error"\n', 2, "unknown rule 'format/malformd-id'; did you mean 'format/malformed-id'?"),
    ("[rules]\n\n'format/nope' = 'error'\n", 3, "unknown rule 'format/nope'"),
    ('[rules]\n"format/malformed-id" = 2\n', 2, "rule 'format/malformed-id': expected a string severity"),
    ('[rules]\n"format/malformed-id" = "fatal"\n', 2, "rule 'format/malformed-id': unknown severity 'fatal'"),
    ('colour = "red"\n', 1, "unknown setting 'colour'"),
    ('[agent]\nx = 1\n', 1, "unknown setting 'agent'"),
    ('[kinds]\nSYSR = { category = "requirement" }\nsys = { name = "x" }\n', 3, "kind 'sys': a kind is the upper-case letters"),
    ('[kinds]\nSYSR = { category = "wish" }\n', 2, "kind 'SYSR': category must be one of"),
    ('[words]\nen = ["seamless"]\n', 2, "'words' must be tables of string lists"),
    ('[words.en]\nvague-terms = [1, 2]\n', 2, "'words' must be tables of string lists"),
    ('rules = {}\nexclude = "drafts/**"\n', 2, "'exclude' must be a list of glob patterns"),
    ('index = 5\n[llm]\n', 1, "'index' must be a table"),
    # every unknown or misspelt key, at any depth, with the closest valid name
    ('[words.en]\nvague-terms = ["a"]\nvague-term = ["zorgly"]\n', 3,
     "unknown word list 'words.en.vague-term'; did you mean 'vague-terms'?"),
    ('[words.fr]\nvague-terms = ["a"]\n', 1, "unknown language 'words.fr' (use en or zh)"),
    ('rule = {}\n', 1, "unknown setting 'rule'; did you mean 'rules'?"),
    ('[index]\npth = "x"\n', 2, "unknown setting 'index.pth'; did you mean 'path'?"),
    ('[corpora]\n\npath = ["x"]\n', 3, "unknown setting 'corpora.path'; did you mean 'paths'?"),
    ('[llm]\nbase_url = "http://x"\nmodle = "m"\n', 3, "unknown setting 'llm.modle'; did you mean 'model'?"),
    ('[llm]\napi_key = "sk-1"\n', 2, "unknown setting 'llm.api_key': the API key is never read from a file"),
    ('[llm]\ntimeout = "soon"\n', 2, "'llm.timeout':"),
    ('[kinds]\nSMR = { name = "x", categroy = "hazard" }\n', 2, "unknown setting 'kinds.SMR.categroy'; did you mean 'category'?"),
    ('external-ids = "TC-*"\n', 1, "'external-ids' must be a list of ID patterns"),
    ('external-ids = ["tc"]\n', 1, "external ID pattern 'tc'"),
    ('external-id = ["TC-*"]\n', 1, "unknown setting 'external-id'; did you mean 'external-ids'?"),
    ('[llm]\nmodel = "x"\n[corpora]\n[index\n', 4, "invalid TOML"),
    ('[rules]\n"format/malformed-id" = "error', 2, "invalid TOML"),
])
def test_errors_carry_file_and_line(tmp_path, text, line, start):
    err = _error(tmp_path, text)
    assert err.line == line
    assert err.message.startswith(start)
    where = f"{err.path}:{line}: " if line else f"{err.path}: "
    assert str(err) == where + err.message


def test_pyproject_errors_point_into_the_safereq_table(tmp_path):
    text = ('[project]\nname = "x"\n\n[tool.ruff]\nexclude = ["build"]\n\n'
            '[tool.safereq]\nexclude = "drafts"\n')
    err = _error(tmp_path, text, "pyproject.toml")
    assert (err.line, err.message) == (8, "'exclude' must be a list of glob patterns")


def test_pyproject_nested_word_list_points_at_its_key(tmp_path):
    text = ('[tool.ruff]\nvague-term = 1\n\n[tool.safereq.words.en]\nvague-terms = ["a"]\n'
            'vague-term = ["zorgly"]\n')
    err = _error(tmp_path, text, "pyproject.toml")
    assert (err.line, err.message) == (6, "unknown word list 'words.en.vague-term'; did you mean 'vague-terms'?")


def test_pyproject_nested_rules_table(tmp_path):
    text = '[tool.safereq.rules]\n"format/front-matter" = "warning"\n"format/bad" = "off"\n'
    err = _error(tmp_path, text, "pyproject.toml")
    assert err.line == 3 and err.message.startswith("unknown rule 'format/bad'")


def test_unreadable_configuration_has_the_path_and_no_line(tmp_path):
    path = tmp_path / "safereq.toml"
    path.write_bytes(b"rules = {}\n\xff\n")
    with pytest.raises(ConfigError) as info:
        load_config_file(path)
    assert info.value.path == path and info.value.line is None
    assert str(info.value).startswith(f"{path}: cannot read configuration")


def test_valid_file_loads_rules_kinds_words_and_exclude(tmp_path):
    (tmp_path / "safereq.toml").write_text(
        'exclude = ["drafts/**"]\n[rules]\nformat = "off"\n"format/malformed-id" = "error"\n'
        '[kinds]\nSYSR = { name = "system requirement", category = "requirement" }\n'
        '[words.en]\nvague-terms = ["seamless"]\n')
    config = load_config(tmp_path)
    assert config.source == tmp_path / "safereq.toml"
    assert config.exclude == ("drafts/**",)
    assert config.severity("format/malformed-id", Severity.WARNING, True) == Severity.ERROR
    assert config.severity("format/front-matter", Severity.ERROR, True) is None  # the family switched off
    assert config.kinds["SYSR"]["category"] == "requirement"
    assert config.extra_words("en", "vague-terms") == ["seamless"]


def test_nearest_file_wins_and_safereq_toml_before_pyproject(tmp_path):
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    (tmp_path / "safereq.toml").write_text("")
    (tmp_path / "a" / "pyproject.toml").write_text('[tool.safereq]\nexclude = []\n')
    assert find_config(sub) == tmp_path / "a" / "pyproject.toml"
    (tmp_path / "a" / "safereq.toml").write_text("")
    assert find_config(sub) == tmp_path / "a" / "safereq.toml"


def test_pyproject_without_a_safereq_table_is_not_a_configuration(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert find_config(tmp_path) is None or find_config(tmp_path).parent != tmp_path
    assert load_config_file(tmp_path / "pyproject.toml") == Config()


def test_editor_settings_are_validated_too():
    with pytest.raises(ConfigError) as info:
        Config().merged({"rules": {"format/nope": "error"}})
    assert info.value.path is None and str(info.value).startswith("unknown rule 'format/nope'")
    merged = Config(rules={"format/front-matter": "off"}).merged({"rules": {"format/malformed-id": "error"}})
    assert merged.rules == {"format/front-matter": "off", "format/malformed-id": "error"}
