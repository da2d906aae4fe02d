"""A fragment is verified, never trusted (issue 25, item 4).

A repository with two errors writes its fragment; generated tamperings of it (findings removed, a text
changed under its digest, a fix or a document pointing outside the repository, escape sequences in names)
must each be refused by ``safereq merge`` with one clean line, and a fragment edited since it was written is
never reused by ``check --fragment``. Escape sequences quoted from a document never reach the terminal raw.
Tamperings are applied both without and with a recomputed seal: the seal catches careless edits, the merge's
re-derivation from the carried texts catches a forger.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from safereq.cli.main import main
from safereq.fragment.format import seal_of

ESC = "\x1b]0;owned\x07\x1b[2J"
FSR = """# Functional safety requirements

## FSR-1: Limit the torque

The arbiter shall limit the torque to 3 Nm.

- ASIL: D
- Derived from: SG-9

## FSR-2: Report the fault

The arbiter should report a fault.

- ASIL: Q{esc}M
""".format(esc=ESC)


def _drop_findings(d: dict) -> None:
    d["findings"] = []


def _drop_errors(d: dict) -> None:
    d["findings"] = [f for f in d["findings"] if f["severity"] != "error"]


def _change_text(d: dict) -> None:
    d["documents"][0]["text"] = d["documents"][0]["text"].replace("ASIL: D", "ASIL: QM")


def _fix_path(target: str) -> Callable[[dict], None]:
    def tamper(d: dict) -> None:
        with_fix = next(f for f in d["findings"] if f.get("fixes")) if any(f.get("fixes") for f in d["findings"]) \
            else d["findings"][0]
        with_fix["fixes"] = [{"title": "x", "safe": True, "edits": [{"path": target, "span": [0, 0, 0, 0],
                                                                      "text": "owned"}]}]
    return tamper


def _document_path(target: str) -> Callable[[dict], None]:
    def tamper(d: dict) -> None:
        d["documents"][0]["path"] = target
    return tamper


def _source(name: str) -> Callable[[dict], None]:
    def tamper(d: dict) -> None:
        d["source"] = name
    return tamper


OUTSIDE = ("../outside.md", "/etc/passwd", "a/../../b.md", "C:/x.md", "", "./fsr.md", "a//b.md", "..\\x.md",
           "fsr.md\x1b[2J")
TAMPERINGS: dict[str, Callable[[dict], None]] = {
    "findings removed": _drop_findings, "errors removed": _drop_errors, "text changed under its digest": _change_text,
    **{f"fix path {p!r}": _fix_path(p) for p in OUTSIDE},
    **{f"document path {p!r}": _document_path(p) for p in OUTSIDE},
    **{f"name {n!r}": _source(n) for n in ("../up", "/abs", ESC + "repo", "a/../b")},
}


@pytest.fixture
def fragment(tmp_path: Path, monkeypatch) -> Path:
    repo = tmp_path / "fsr-repo"
    repo.mkdir()
    (repo / "fsr.md").write_text(FSR, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "fsr-repo", "--fragment", "f.json", "-q"]) == 1
    return tmp_path / "f.json"


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("resealed", [False, True], ids=["stale seal", "resealed"])
@pytest.mark.parametrize("name", list(TAMPERINGS))
def test_a_tampered_fragment_is_refused_by_merge(fragment, capsys, name, resealed):
    data = json.loads(fragment.read_text(encoding="utf-8"))
    TAMPERINGS[name](data)
    if resealed:
        data["seal"] = seal_of(data)
    fragment.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    code, out, err = _run(capsys, "merge", "f.json")
    assert code == 2 and out == "", (out, err)
    assert len(err.strip().splitlines()) == 1 and "\x1b" not in err and "Traceback" not in err, err


def test_a_fragment_with_its_findings_removed_is_not_reused_by_check(fragment, capsys):
    data = json.loads(fragment.read_text(encoding="utf-8"))
    _drop_findings(data)
    fragment.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    code, out, err = _run(capsys, "check", "fsr-repo", "--fragment", "f.json")
    assert code == 1 and "2 errors" in err, err


def test_escape_sequences_from_a_document_never_reach_the_terminal(fragment, capsys):
    capsys.readouterr()
    for args in (["check", "fsr-repo"], ["merge", "f.json"]):
        code, out, err = _run(capsys, *args)
        assert code == 1 and "\\x1b]0;owned\\x07" in out, (args, out)  # shown as the same characters
        assert "\x1b" not in out + err and "\x07" not in out + err, (args, out)
