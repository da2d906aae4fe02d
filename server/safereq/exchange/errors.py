"""What an import reports: a file that cannot be read at all, and what could not be mapped."""

from __future__ import annotations

from typing import NamedTuple


class InputError(Exception):
    """The input file is not what its format says (malformed XML, not a needs.json, ...): one line, exit 2."""


class ImportProblem(NamedTuple):
    """Something of the input that safereq could not map; ``where`` names the item or element."""

    where: str
    message: str
