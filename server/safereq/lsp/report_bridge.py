"""``safereq.coverage`` and ``safereq.writeReport``: the traceability report of the editor's workspace.

Both read the language server's live workspace (unsaved edits included), through the same code as
``safereq report`` (report.coverage, report.html). ``safereq.coverage`` takes no arguments and returns the
overall figures for the status bar::

    {"items": int, "holes": int, "coverage": [{"measure": str, "covered": int, "total": int, "percent": float}]}

``safereq.writeReport`` takes no arguments, writes ``<root>/.safereq/report/index.html`` and returns the
same plus ``"path"`` and ``"uri"`` of the page, which the editor opens in a browser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .command_names import COVERAGE

if TYPE_CHECKING:
    from .server import SafereqServer

REPORT_DIR = (".safereq", "report")


def _coverage(ls: SafereqServer):
    from ..exchange.records import collect
    from ..report.coverage import compute

    return compute(collect(ls.session.workspace))


def _summary(coverage: Any) -> dict[str, Any]:
    return {
        "items": len(coverage.records),
        "holes": len(coverage.holes),
        "coverage": [{"measure": r.measure, "covered": r.covered, "total": r.total, "percent": r.percent}
                     for r in coverage.overall],
    }


def run(ls: SafereqServer, command: str, args: list[Any]) -> dict[str, Any]:
    from .errors import invalid

    if args:
        raise invalid(f"{command} takes no arguments")
    coverage = _coverage(ls)
    if command == COVERAGE:
        return _summary(coverage)
    from ..report.html.page import render

    folder = ls.session.root.joinpath(*REPORT_DIR)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / "index.html"
        target.write_text(render(coverage, f"Traceability report: {ls.session.root.name}"), encoding="utf-8")
    except OSError as exc:
        raise invalid(f"cannot write the report into {folder}: {exc.strerror or exc}") from None
    return {**_summary(coverage), "path": str(target), "uri": target.as_uri()}
