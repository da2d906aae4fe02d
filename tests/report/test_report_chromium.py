"""The HTML report in a real browser: headless Chromium opens it from the file system (no server), the
coverage numbers are in the DOM after the page's script ran, the matrix filter (kept in the URL fragment)
hides rows, and a screenshot shows the bars and the trace graphs drawn.

Chromium comes from Debian (scripts/test.sh installs it); without it the test skips, except in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from safereq.cli.main import main

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        if os.environ.get("CI"):
            pytest.fail("chromium missing: scripts/test.sh installs it from Debian")
        pytest.skip("chromium not installed (scripts/test.sh installs it)")
    return found


def _browse(chromium: str, tmp: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp / "profile"
    return subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                          text=True, timeout=120)


class _Rows(HTMLParser):
    """Rows of the tables by id: their data attributes, whether hidden, and their text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[dict]] = {}
        self.spans: dict[str, str] = {}
        self._table: str | None = None
        self._row: dict | None = None
        self._span: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table = attrs.get("id")
            self.tables.setdefault(self._table or "", [])
        elif tag == "tr" and self._table and ("data-group" in attrs or "data-kind" in attrs):
            self._row = {**attrs, "text": ""}
        elif tag == "span" and attrs.get("id"):
            self._span = attrs["id"]
            self.spans[self._span] = ""

    def handle_endtag(self, tag):
        if tag == "tr" and self._row is not None:
            self.tables[self._table].append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None
        elif tag == "span":
            self._span = None

    def handle_data(self, data):
        if self._row is not None:
            self._row["text"] += data
        if self._span:
            self.spans[self._span] += data


def _dom(chromium: str, tmp: Path, url: str) -> _Rows:
    run = _browse(chromium, tmp, "--dump-dom", url)
    assert run.returncode == 0 and "</html>" in run.stdout, run.stderr[-2000:]
    parsed = _Rows()
    parsed.feed(run.stdout)
    return parsed


@pytest.fixture
def report(brake, tmp_path, capsys) -> Path:
    assert main(["report", "brake", "-o", str(tmp_path / "report")]) == 0
    capsys.readouterr()
    return tmp_path / "report" / "index.html"


def test_numbers_in_the_dom_match_the_json_report(chromium, report, brake, tmp_path, capsys):
    import json

    assert main(["report", "brake", "-o", str(tmp_path / "data"), "--format", "json"]) == 0
    capsys.readouterr()
    expected = {(r["by"], r["group"], r["measure"]): r for r in
                json.loads((tmp_path / "data" / "report.json").read_text(encoding="utf-8"))["coverage"]}
    dom = _dom(chromium, tmp_path, report.as_uri())
    for table, by in (("coverage-overall", "all"), ("coverage-kind", "kind"), ("coverage-asil", "asil")):
        rows = dom.tables[table]
        assert len(rows) == sum(1 for key in expected if key[0] == by)
        for row in rows:
            want = expected[(by, row["data-group"], row["data-measure"])]
            assert (int(row["data-covered"]), int(row["data-total"]), float(row["data-percent"])) == (
                want["covered"], want["total"], want["percent"])
            assert f"{want['percent']:g}%" in row["text"]
    assert dom.spans["hole-count"] == "3" and dom.spans["matrix-shown"] == str(len(dom.tables["matrix"]))


def test_the_matrix_filter_in_the_url_fragment_hides_rows(chromium, report, tmp_path):
    dom = _dom(chromium, tmp_path, report.as_uri() + "#kind=TSR&holes=1")
    visible = [r["id"] for r in dom.tables["matrix"] if "hidden" not in r]
    assert visible == ["item-TSR-20"]
    assert dom.spans["matrix-shown"] == "1"
    dom = _dom(chromium, tmp_path, report.as_uri() + "#asil=D")
    visible = {r["id"] for r in dom.tables["matrix"] if "hidden" not in r}
    assert visible == {"item-HE-1", "item-SG-1", "item-FSR-1"}


def test_screenshot_shows_bars_and_trace_graphs(chromium, report, tmp_path):
    from PIL import Image

    shot = tmp_path / "report.png"
    run = _browse(chromium, tmp_path, f"--screenshot={shot}", "--window-size=1280,4000", report.as_uri())
    assert run.returncode == 0 and shot.exists(), run.stderr[-2000:]
    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 4000)
    colours = {colour for _count, colour in image.getcolors(maxcolors=1 << 20)}
    assert (0x4A, 0x8F, 0x4A) in colours  # a full coverage bar
    assert (0xC0, 0x39, 0x2B) in colours or (0xD6, 0x89, 0x10) in colours  # a low or middling bar
    assert (0xF4, 0xC7, 0xC3) in colours  # an ASIL D box of a trace graph: the SVG was drawn
    if os.environ.get("SAFEREQ_SCREENSHOT_DIR"):  # to look at it: the file tool shows the PNG
        shutil.copy(shot, Path(os.environ["SAFEREQ_SCREENSHOT_DIR"]) / "report.png")
