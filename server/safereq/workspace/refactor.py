"""Workspace-wide edits on item IDs: every place an ID occurs, and renaming it everywhere at once.

An ID occurs where it is defined (an item heading, a HARA row's ID cell) and wherever it is linked
(``Derived from``, ``Verified by``, ``Hazard``, a HARA safety-goal cell). Mentions in free prose are not
links and are left alone, as the document conventions say.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.edits import Edit
from ..model.ids import is_item_id
from ..model.ranges import Span
from .workspace import Workspace


class RenameError(ValueError):
    """A rename that cannot be done, with a message meant for the user."""


@dataclass(frozen=True, slots=True)
class Occurrence:
    path: str
    span: Span
    definition: bool


def occurrences(ws: Workspace, item_id: str) -> list[Occurrence]:
    """Every definition and link of ``item_id``, sorted by place."""
    found = [Occurrence(it.path, it.id_span, True) for it in ws.definitions(item_id)]
    found += [Occurrence(path, row.cells["id"].span, True) for path, row in ws.hara_rows(item_id)]
    found += [Occurrence(ref.path, ref.link.span, False) for ref in ws.references(item_id)]
    unique = {(o.path, o.span): o for o in found}
    return sorted(unique.values(), key=lambda o: (o.path, o.span))


def rename_edits(ws: Workspace, old_id: str, new_id: str) -> list[Edit]:
    """The edits that rename ``old_id`` to ``new_id`` across the workspace; :class:`RenameError` when invalid."""
    new_id = new_id.strip()
    if not is_item_id(new_id):
        raise RenameError(
            f"'{new_id}' is not an item ID: use upper-case letters and digits joined by '-', '_' or '.', "
            "starting with a letter and containing a digit (e.g. FSR-PER-012)"
        )
    if new_id == old_id:
        return []
    if ws.is_defined(new_id):
        where = ws.item(new_id)
        place = f" (in {where.path}, line {where.line + 1})" if where else ""
        raise RenameError(f"{new_id} is already defined{place}; IDs must be unique across the workspace")
    found = occurrences(ws, old_id)
    if not found:
        raise RenameError(f"{old_id} is neither defined nor linked anywhere in the workspace")
    return [Edit(o.path, o.span, new_id) for o in found]
