"""Code lenses stay linear in the number of headings, whatever the shape (issue 25, item 9): n headings that
all define FSR-1 and derive from it took 53 s of lenses at 2,500 and 395 s at 5,000, because each lens
gathered the item's whole view (its n children, sorted again, its n references scanned). The work is counted
in Python function calls (deterministic, unlike time): doubling n must not much more than double it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from lsprotocol import types

from safereq.lsp.lens import code_lens
from safereq.lsp.session import Session

from robustness.counting import calls_during

SAME_ID = "## FSR-1: Item 1\n\nThe function shall report the state within 10 ms.\n\n- ASIL: B\n- Derived from: FSR-1\n\n"


def lenses_of(folder: Path, n: int) -> tuple[list[types.CodeLens], int]:
    folder.mkdir()
    session = Session("utf-16", [folder])
    uri = (folder / "same.md").as_uri()
    session.open_document(uri, "# Same ID\n\n" + SAME_ID * n, 1, "markdown")
    ls = SimpleNamespace(session=session, client_name="pytest")
    params = types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    code_lens(ls, params)  # the first request pays for what every later one shares
    return calls_during(lambda: code_lens(ls, params))  # type: ignore[return-value]


def test_lenses_on_headings_that_share_an_id_grow_linearly(tmp_path):
    small, small_calls = lenses_of(tmp_path / "small", 300)
    large, large_calls = lenses_of(tmp_path / "large", 600)
    assert len(small) == 300 and len(large) == 600
    assert large[0].command.title == "1 parent · 600 children · not verified · ASIL B"  # the counts are right
    assert large_calls < 2.5 * small_calls, (small_calls, large_calls)  # before: 4 times (n²)
