"""``safereq diff``: changes between revisions, renames, links, and the impact downstream."""

from __future__ import annotations

import json
import subprocess

from safereq.cli.main import main


def run_json(capsys, *args: str) -> dict:
    assert main(["diff", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_no_change_says_so(repo, capsys):
    assert main(["diff"]) == 0
    assert "no requirement changes between HEAD and working tree" in capsys.readouterr().out


def test_asil_change_lists_old_and_new_and_every_item_downstream(repo, capsys):
    repo.edit("goals.md", "- ASIL: C", "- ASIL: D")
    out = run_json(capsys)
    assert [c["id"] for c in out["changed"]] == ["SG-1"]
    assert out["changed"][0]["changes"] == [{"field": "asil", "old": "C", "new": "D"}]
    assert out["asil_changes"] == [{"id": "SG-1", "old": "C", "new": "D"}]
    impact = {i["id"]: i for i in out["impact"]}
    # children, a grandchild and the verification item of a child
    assert set(impact) == {"FSR-1", "FSR-2", "TSR-1", "TC-1"}
    assert impact["TSR-1"]["via"] == ["SG-1", "FSR-2"]
    assert impact["TC-1"]["via"] == ["SG-1", "FSR-1"]
    assert not any(i["reviewed"] for i in out["impact"])


def test_title_change_is_reported_but_puts_nothing_in_question(repo, capsys):
    repo.edit("goals.md", "Avoid unintended steering", "Avoid unwanted steering")
    out = run_json(capsys)
    assert out["changed"][0]["changes"][0]["field"] == "title"
    assert out["changed"][0]["relevant"] is False
    assert out["impact"] == []


def test_rename_is_one_rename_not_a_removal_and_an_addition(repo, capsys):
    repo.edit("fsr.md", "## FSR-2: Monitor torque", "## FSR-9: Monitor torque")
    repo.edit("fsr.md", "Derived from: FSR-2", "Derived from: FSR-9")
    out = run_json(capsys)
    assert [(r["renamed_from"], r["id"]) for r in out["renamed"]] == [("FSR-2", "FSR-9")]
    assert out["added"] == [] and out["removed"] == []
    # the child's link followed the rename: not a link change
    assert out["links_added"] == [] and out["links_removed"] == []


def test_links_added_and_removed(repo, capsys):
    repo.edit("fsr.md", "- Derived from: SG-1\n- Verified by: TC-1", "- Derived from: SG-2\n- Verified by: TC-1")
    out = run_json(capsys)
    assert out["links_added"] == [{"from": "FSR-1", "key": "derived-from", "to": "SG-2", "path": "fsr.md"}]
    assert out["links_removed"] == [{"from": "FSR-1", "key": "derived-from", "to": "SG-1", "path": "fsr.md"}]


def test_removed_item_puts_its_dependents_in_question(repo, capsys):
    text = (repo.root / "goals.md").read_text()
    repo.write("goals.md", text[: text.index("## SG-2")])
    repo.edit("goals.md", "## SG-1", "## SG-1")
    repo.edit("fsr.md", "- ASIL: C\n- Derived from: SG-1\n\n## TSR", "- ASIL: C\n- Derived from: SG-2\n\n## TSR")
    out = run_json(capsys)
    assert [r["id"] for r in out["removed"]] == ["SG-2"]
    assert "FSR-2" in {i["id"] for i in out["impact"]}


def test_between_two_commits_and_markdown_for_a_pull_request(repo, capsys):
    repo.edit("goals.md", "- ASIL: C", "- ASIL: D")
    repo.commit("raise SG-1")
    assert main(["diff", "HEAD~1", "HEAD", "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "| changed | SG-1 | goals.md | ASIL: C → D |" in md
    assert "| FSR-1 | fsr.md:3 | SG-1 | **needs review** |" in md


def test_reviewed_dependents_are_marked_and_not_followed(repo, capsys):
    assert main(["review", "--all"]) == 0
    repo.commit("record review")
    repo.edit("goals.md", "- ASIL: C", "- ASIL: D")
    assert main(["review", "--item", "FSR-2"]) == 0
    capsys.readouterr()
    impact = {i["id"]: i for i in run_json(capsys)["impact"]}
    assert impact["FSR-2"]["reviewed"] is True
    assert "TSR-1" not in impact            # below a reviewed child nothing is in question
    assert impact["FSR-1"]["reviewed"] is False and "TC-1" in impact


def test_cell_text_cannot_break_the_markdown_table(repo, capsys):
    repo.edit("goals.md", "Avoid unintended steering", "Avoid | unintended `steering`")
    assert main(["diff", "--format", "markdown"]) == 0
    row = next(l for l in capsys.readouterr().out.splitlines() if l.startswith("| changed"))
    assert row.count(" | ") == 3 and "\\|" in row


def test_unknown_revision_and_not_a_repository_are_clear_errors(repo, capsys, tmp_path_factory):
    assert main(["diff", "no-such-rev"]) == 2
    assert "unknown revision 'no-such-rev'" in capsys.readouterr().err
    assert main(["diff", "--", "--upload-pack=x"]) == 2
    elsewhere = tmp_path_factory.mktemp("plain")
    assert main(["diff", "-p", str(elsewhere)]) == 2
    assert "not inside a git repository" in capsys.readouterr().err


def test_works_in_a_shallow_clone(repo, tmp_path_factory, capsys, monkeypatch):
    repo.edit("goals.md", "- ASIL: C", "- ASIL: D")
    repo.commit("raise SG-1")
    clone = tmp_path_factory.mktemp("shallow") / "c"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo.root}", str(clone)], check=True)
    monkeypatch.chdir(clone)
    assert main(["diff", "HEAD~1", "HEAD"]) == 2
    assert "shallow clone" in capsys.readouterr().err
    (clone / "goals.md").write_text((clone / "goals.md").read_text().replace("- ASIL: D", "- ASIL: B"))
    out = run_json(capsys)
    assert out["asil_changes"] == [{"id": "SG-1", "old": "D", "new": "B"}]
