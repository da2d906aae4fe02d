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
