"""A "safe" fix never changes an ID, an ASIL, a link, a decomposition or a number (issue 25, item 2).

Every fix marked safe, of every rule, is applied alone to the workspaces the tests ship and to seeded hostile
mutations of them, and the document's commitments (``safereq.model.commitments``) must be the same before and
after. ``check --fix`` over a copy of ``examples/`` must leave every commitment as it was and name each fix it
applied. Raising FSR-5's ASIL from A to B used to be applied by ``--fix`` as a safe fix.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from safereq.checks import apply_edits
from safereq.checks.config import Config
from safereq.checks.engine import Checker
from safereq.checks.registry import rule_infos
from safereq.cli.main import main
from safereq.model.commitments import changed_commitment
from safereq.workspace import Workspace
from safereq.workspace.loader import load

from .conftest import scale
from .fuzzers import DOCS, random_splice

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [ROOT / "examples", ROOT / "tests" / "checks" / "defects-workspace",
           ROOT / "tests" / "fixtures" / "trace-brake-workspace"]


def _texts(folder: Path) -> dict[str, str]:
    return {s.path: s.text for s in load([folder], cwd=folder).sources}


def _mutated(seed: int) -> dict[str, str]:
    """The fuzzers' documents after a few seeded character-level splices each."""
    rng = random.Random(seed)
    out = {}
    for path, text in DOCS.items():
        for _ in range(rng.randrange(1, 6)):
            text = random_splice(rng, text).apply(text)
        out[path] = text
    return out


CORPUS = {folder.name: (lambda f=folder: _texts(f)) for folder in SHIPPED} | {"fuzz-docs": lambda: dict(DOCS)} | {
    f"mutated-{seed}": (lambda s=seed: _mutated(s)) for seed in range(scale(8, 400))}


def _workspace(docs: dict[str, str]) -> Workspace:
    ws = Workspace()
    for path, text in docs.items():
        ws.update(path, text)
    return ws


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_safe_fix_of_every_rule_keeps_every_commitment(name):
    docs = CORPUS[name]()
    ws = _workspace(docs)
    findings = Checker(Config(rules={rid: "on" for rid in rule_infos()})).check(ws)
    broken = []
    for finding in findings:
        for fix in finding.fixes:
            if not fix.safe:
                continue
            for path in {e.path for e in fix.edits}:
                after = _workspace({path: apply_edits(docs[path], [e for e in fix.edits if e.path == path])})
                reason = changed_commitment(ws.documents[path], after.documents[path])
                if reason is not None:
                    broken.append(f"{finding.rule} {fix.title!r} at {path}:{finding.span.start_line + 1}: {reason}")
    assert broken == []


def test_the_commitments_see_an_asil_a_link_an_id_and_a_number_change():
    """The oracle above could fail: each kind of change it guards is seen."""
    doc = "## FSR-1: Limit\n\nThe arbiter shall limit torque to 3 Nm.\n\n- ASIL: A\n- Derived from: SG-1\n"
    before = _workspace({"a.md": doc}).documents["a.md"]
    for old, new in (("ASIL: A", "ASIL: B"), ("SG-1", "SG-2"), ("FSR-1", "FSR-2"), ("3 Nm", "4 Nm"),
                     ("ASIL: A", "ASIL: A(B)")):
        after = _workspace({"a.md": doc.replace(old, new)}).documents["a.md"]
        assert changed_commitment(before, after) is not None, (old, new)
    same = _workspace({"a.md": doc.replace("shall limit", "shall restrict")}).documents["a.md"]
    assert changed_commitment(before, same) is None


def test_fix_over_the_examples_changes_no_commitment_and_names_each_fix(tmp_path, monkeypatch, capsys):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path / "examples")
    before = _workspace(_texts(Path(".")))
    main(["check", "--fix", "."])
    err = capsys.readouterr().err.splitlines()
    after = _workspace(_texts(Path(".")))
    assert sorted(before.documents) == sorted(after.documents)
    for path in before.documents:
        assert changed_commitment(before.documents[path], after.documents[path]) is None, path
    applied = [line for line in err if line.startswith("safereq: fixed ")]
    count = int(err[-1].rpartition("; ")[2].split()[0])
    assert applied and len(applied) == count  # each fix named with its place and item
    assert all(" FSR-" in line for line in applied)
