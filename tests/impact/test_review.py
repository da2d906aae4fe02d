"""``safereq review`` and the review file: recording, reporting suspect links, and the file's format."""

from __future__ import annotations

import json

import pytest

from safereq.cli.main import main
from safereq.impact import review_state


def test_a_new_workspace_starts_clean_and_one_command_records_it(repo, capsys):
    assert main(["review"]) == 0
    err = capsys.readouterr().err
    assert "0 suspect" in err and "no review recorded yet" in err
    assert main(["review", "--all"]) == 0
    data = {"links": {json.loads(l)["link"] for l in (repo.root / review_state.FILE_NAME).read_text().splitlines() if "\"link\"" in l}}
    assert set(data["links"]) == {"FSR-1 -> SG-1", "FSR-2 -> SG-1", "TSR-1 -> FSR-2", "TC-1 -> FSR-1"}
    assert main(["review"]) == 0


def test_suspect_links_name_old_and_new_values_and_review_clears_them(repo, capsys):
    main(["review", "--all"])
    repo.edit("goals.md", "- ASIL: C", "- ASIL: D")
    capsys.readouterr()
    assert main(["review"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "fsr.md:8: FSR-1 → SG-1: ASIL: C → D" in out
    assert len(out) == 2
    assert main(["review", "--link", "FSR-1:SG-1"]) == 0
    capsys.readouterr()
    assert main(["review"]) == 1
    assert [l.split(":")[0] for l in capsys.readouterr().out.splitlines()] == ["fsr.md"]
    assert main(["review", "--document", "fsr.md"]) == 0
    assert main(["review"]) == 0


def test_the_file_has_one_line_per_link_and_is_stable(repo):
    main(["review", "--all"])
    first = (repo.root / review_state.FILE_NAME).read_text()
    assert sum(1 for l in first.splitlines() if " -> " in l) == 4
    main(["review", "--all"])
    assert (repo.root / review_state.FILE_NAME).read_text() == first
    repo.edit("goals.md", "- ASIL: C", "- ASIL: D")
    main(["review", "--link", "FSR-1:SG-1"])
    import difflib

    changed = [l for l in difflib.unified_diff(first.splitlines(), (repo.root / review_state.FILE_NAME)
                                               .read_text().splitlines(), n=0, lineterm="")
               if l[:1] in "+-" and not l.startswith(("+++", "---"))]
    # the link's line changes, and one snapshot line is added for the new version of SG-1
    assert sorted(l[0] for l in changed) == ["+", "+", "-"]


@pytest.mark.parametrize("text, message", [
    ("{not json", "line 1 is not valid JSON"),
    ('{"format": "other"}', "not a safereq review file"),
    ('{"format": "safereq-review", "version": 7}', "version 7 is not supported"),
    ("[" * 100000, "not valid JSON"),
    ("", "not a safereq review file"),
])
def test_a_broken_review_file_is_a_clear_message(repo, capsys, text, message):
    repo.write(review_state.FILE_NAME, text)
    assert main(["review"]) == 2
    assert message in capsys.readouterr().err


def test_unknown_selectors_are_usage_errors(repo, capsys):
    assert main(["review", "--item", "NOPE-1"]) == 2
    assert "no item NOPE-1" in capsys.readouterr().err
    assert main(["review", "--link", "FSR-1:SG-2"]) == 2
    assert "no link between FSR-1 and SG-2" in capsys.readouterr().err


def test_a_project_can_mark_more_attributes_relevant(repo, capsys):
    repo.write("safereq.toml", '[impact]\nattributes = ["status"]\n')
    repo.edit("goals.md", "- Safe state: steering assist off", "- Safe state: steering assist off\n- Status: draft")
    assert main(["review", "--all"]) == 0
    repo.edit("goals.md", "- Status: draft", "- Status: approved")
    capsys.readouterr()
    assert main(["review"]) == 1
    assert "FSR-1 → SG-1: Status: draft → approved" in capsys.readouterr().out
    repo.write("safereq.toml", "")
    main(["review", "--all"])
    repo.edit("goals.md", "- Status: approved", "- Status: obsolete")
    capsys.readouterr()
    assert main(["review"]) == 0  # by default a status is not what children depend on


def test_an_unknown_impact_attribute_is_a_configuration_error(repo, capsys):
    repo.write("safereq.toml", '[impact]\nattributes = ["stauts"]\n')
    assert main(["review"]) == 2
    err = capsys.readouterr().err
    assert "unknown attribute 'stauts'" in err and "status" in err and "safereq.toml" in err
