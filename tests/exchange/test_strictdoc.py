"""StrictDoc, the real consumer, in both directions: ``strictdoc convert`` reads our ReqIF, ``strictdoc export
--formats reqif-sdoc`` writes ReqIF we import, and a round trip through StrictDoc gives back the same items,
statements (word for word), attributes, links and chapters, with StrictDoc's plain (RST) and HTML markup.

StrictDoc is not a dependency of safereq (it pins versions the shared environment does not take):
scripts/test.sh installs it into .cache/strictdoc; ``SAFEREQ_STRICTDOC`` names another ``strictdoc``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from safereq.cli.main import main

from .conftest import comparable, records_of

ROOT = Path(__file__).resolve().parents[2]


def _strictdoc() -> str | None:
    for candidate in (os.environ.get("SAFEREQ_STRICTDOC"), str(ROOT / ".cache" / "strictdoc" / "bin" / "strictdoc"),
                      str(Path(sys.executable).parent / "strictdoc"), shutil.which("strictdoc")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


STRICTDOC = _strictdoc()
pytestmark = pytest.mark.skipif(STRICTDOC is None, reason="StrictDoc is not installed (scripts/test.sh installs it "
                                                          "into .cache/strictdoc; or set SAFEREQ_STRICTDOC)")


def strictdoc(cwd: Path, *args: str) -> str:
    env = {**os.environ, "XDG_CACHE_HOME": str(cwd / ".xdg-cache")}
    run = subprocess.run([STRICTDOC, *args], cwd=cwd, capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "error:" not in run.stdout, run.stdout[-3000:]
    return run.stdout


def _round_trip(wiper: Path, tmp_path: Path, capsys, *convert_options: str) -> Path:
    assert main(["export", str(wiper), "--to", "reqif", "-o", str(tmp_path / "ours.reqif")]) == 0
    strictdoc(tmp_path, "convert", "--reqif-profile", "p01_sdoc", *convert_options, "ours.reqif", "sdoc")
    strictdoc(tmp_path, "export", "--formats", "reqif-sdoc", "--output-dir", "theirs", "sdoc")
    back = tmp_path / "back"
    assert main(["import", str(tmp_path / "theirs" / "reqif" / "output.reqif"), "-o", str(back)]) == 0
    err = capsys.readouterr().err
    assert "imported 7 items" in err and "reads back" not in err, err
    return back


def test_strictdoc_converts_our_reqif_into_items_and_sections(wiper, tmp_path, capsys):
    assert main(["export", str(wiper), "--to", "reqif", "-o", str(tmp_path / "ours.reqif")]) == 0
    strictdoc(tmp_path, "convert", "--reqif-profile", "p01_sdoc", "ours.reqif", "sdoc")
    sdoc = "\n".join(p.read_text(encoding="utf-8") for p in sorted((tmp_path / "sdoc").glob("*.sdoc")))
    assert sdoc.count("[SAFEREQ_ITEM]") == 7 and sdoc.count("[[SAFEREQ_CHAPTER]]") == 2
    assert "UID: HE-10" in sdoc and "UID: FSR-10" in sdoc
    # A HARA row has no statement: no empty statement block that StrictDoc cannot read back.
    assert "STATEMENT: >>>\n\n<<<" not in sdoc and "STATEMENT: >>>\n<<<" not in sdoc
    # A line break in a statement keeps the words apart once StrictDoc flattens the XHTML.
    assert "within 200 ms\nwhen the drop rate" in sdoc


def test_a_round_trip_through_strictdoc_gives_back_the_same_items(wiper, tmp_path, capsys):
    back = _round_trip(wiper, tmp_path, capsys)
    assert comparable(records_of([back])) == comparable(records_of([wiper]))


def test_a_round_trip_through_strictdoc_html_markup_keeps_every_statement(wiper, tmp_path, capsys):
    back = _round_trip(wiper, tmp_path, capsys, "--reqif-import-markup", "HTML")
    theirs = (tmp_path / "theirs" / "reqif" / "output.reqif").read_text(encoding="utf-8")
    assert "&lt;p&gt;" in theirs or "&lt;div&gt;" in theirs  # StrictDoc wrote HTML inside string values
    original = {r.id: r.text for r in records_of([wiper])}
    assert {r.id: r.text for r in records_of([back])} == original


SDOC = """\
[DOCUMENT]
TITLE: Brake controller

[GRAMMAR]
ELEMENTS:
- TAG: REQUIREMENT
  FIELDS:
  - TITLE: UID
    TYPE: String
    REQUIRED: True
  - TITLE: TITLE
    TYPE: String
    REQUIRED: False
  - TITLE: STATEMENT
    TYPE: String
    REQUIRED: False
  - TITLE: ASIL
    TYPE: String
    REQUIRED: False
  RELATIONS:
  - TYPE: Parent

[[SECTION]]
TITLE: Hold

[REQUIREMENT]
UID: SG-1
TITLE: Keep the vehicle standing
STATEMENT: The vehicle shall not roll away when parked.
ASIL: C

[REQUIREMENT]
UID: FSR-1
TITLE: Hold the brake
STATEMENT: >>>
The brake controller shall hold the brake pressure
while the vehicle is parked.
<<<
ASIL: C
RELATIONS:
- TYPE: Parent
  VALUE: SG-1

[[/SECTION]]
"""


def test_a_document_written_in_strictdoc_imports_with_its_sections_and_links(tmp_path, capsys):
    (tmp_path / "sdoc").mkdir()
    (tmp_path / "sdoc" / "brake.sdoc").write_text(SDOC, encoding="utf-8")
    strictdoc(tmp_path, "export", "--formats", "reqif-sdoc", "--output-dir", "theirs", "sdoc")
    assert main(["import", str(tmp_path / "theirs" / "reqif" / "output.reqif"), "-o", str(tmp_path / "back")]) == 0
    err = capsys.readouterr().err
    assert "imported 2 items" in err, err
    records = {r.id: r for r in records_of([tmp_path / "back"])}
    assert records["FSR-1"].text == "The brake controller shall hold the brake pressure\nwhile the vehicle is parked."
    assert records["FSR-1"].links == {"derived-from": ["SG-1"]} and records["FSR-1"].attributes == {"asil": "C"}
    assert records["FSR-1"].chapters == ("Hold",) and records["SG-1"].title == "Keep the vehicle standing"
