"""Titles that dot reads as syntax (issue 25, item 10): one ending in a backslash, or longer than 16 KB, made
Graphviz fail and no report was written. Every hostile title of the corpus now gets its graph; a graph dot
still cannot draw becomes a note in the page, never a failed report."""

from __future__ import annotations

import shutil

import pytest

from safereq.cli.main import main
from safereq.report.html.graph import render_svgs

from robustness.hostile_corpus import hostile_titles, titles_workspace

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")


@needs_dot
def test_every_hostile_title_gets_its_graph(tmp_path, monkeypatch, capsys):
    titles_workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["report", "titles.md", "-o", "out"]) == 0, capsys.readouterr().err
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert page.count("<svg") == len(hostile_titles()) and "graph-failed" not in page
    assert "Stop the car \\" in page  # the backslash is shown, as written


@needs_dot
def test_a_graph_dot_cannot_draw_is_a_note_and_the_others_are_drawn():
    good = 'digraph a { "SG-1" -> "FSR-1" }'
    svgs = render_svgs([good, 'digraph b { "unclosed -> x }', good])
    assert svgs[0] is not None and svgs[0].startswith("<svg") and svgs[1] is None and svgs[2] is not None


def test_the_xlsx_report_holds_every_hostile_title_as_text(tmp_path, monkeypatch, capsys):
    """Issue 25, item 11: a control character in a title made openpyxl refuse the workbook ("internal
    error"). Characters XML forbids are U+FFFD now; a title that looks like a formula stays words."""
    from openpyxl import load_workbook

    titles_workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["report", "titles.md", "-o", "out", "--format", "xlsx"]) == 0, capsys.readouterr().err
    sheet = load_workbook(tmp_path / "out" / "report.xlsx")["Matrix"]
    header = [c.value for c in sheet[1]]
    column = header.index("title")
    cells = [row[column] for row in sheet.iter_rows(min_row=2)]
    titles = [c.value for c in cells]
    assert len(titles) == 2 * len(hostile_titles())
    assert any(t.startswith("Controls \ufffd") for t in titles)
    formula = [c for c in cells if c.value.startswith("=HYPERLINK")]
    assert formula and all(c.data_type == "s" for c in formula)
