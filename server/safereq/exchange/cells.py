"""Spreadsheet cells that cannot be executed: text from requirement documents is never a formula.

A title such as ``=HYPERLINK("http://…","click")`` or ``@SUM(…)`` becomes a live formula when a spreadsheet
opens a CSV file or an xlsx cell typed as a formula ("CSV injection"). CSV cells that start with a
character a spreadsheet reads as a formula (``=``, ``+``, ``-``, ``@``, tab, carriage return) get a leading
apostrophe, the mark spreadsheets read as "this is text" (OWASP's advice); xlsx cells are typed as strings
(:func:`as_text_cells`), so their text is kept exactly.
"""

from __future__ import annotations

from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(value: Any) -> Any:
    """A CSV cell value that no spreadsheet evaluates: text starting like a formula gets a leading ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def as_text_cells(cells: Any) -> None:
    """Type every openpyxl cell of ``cells`` that openpyxl took for a formula (text starting with ``=``) as
    a string, so the workbook holds the text, not a formula."""
    for cell in cells:
        if cell.data_type == "f":
            cell.data_type = "s"
