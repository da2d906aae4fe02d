"""A generated corpus of hostile inputs to the command line (issue 25): each case makes its files in a fresh
folder and names the command to run on them, the exit status it must end with, and words the answer must
hold. Nothing here is copied from a file found elsewhere: every input is built by the code below, so the
corpus is reproduced exactly and grows by adding a case.

A case passes when the command gives its clear message (or its ordinary result) and no traceback, no
"internal error" and no hang (``tests/robustness/test_hostile_commands.py``).
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MB = 1024 * 1024


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[Path], list[str]]  # builds the inputs in the folder; returns the command's arguments
    status: int  # the exit status the command must end with
    says: tuple[str, ...] = ()  # words its standard error (or output) must hold

    def __str__(self) -> str:
        return self.name


def gzip_bomb(size: int) -> bytes:
    """``size`` zero bytes as gzip members of one megabyte each: made at once, and unpacked only by reading
    all of it (a gzip reader must go on to the next member)."""
    member = zlib.compressobj(9, zlib.DEFLATED, 31)
    one = member.compress(bytes(MB)) + member.flush()
    return one * (size // MB)


def zip_bomb(path: Path, size: int, name: str = "spec.reqif", fill: bytes = b" ") -> None:
    """An archive of one member that unpacks to ``size`` bytes of ``fill`` (deflated, a megabyte at a time)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        with archive.open(name, "w", force_zip64=True) as member:
            piece = fill * MB
            for _ in range(size // MB):
                member.write(piece)


def _fragment_bomb(folder: Path) -> list[str]:
    (folder / "brake.json.gz").write_bytes(gzip_bomb(600 * MB))  # 600 KB on disk
    return ["merge", "brake.json.gz"]


def _reqifz_bomb(folder: Path) -> list[str]:
    zip_bomb(folder / "supplier.reqifz", 600 * MB)
    return ["import", "supplier.reqifz", "-o", "out"]


CASES: list[Case] = [
    Case("gzip-fragment-bomb", _fragment_bomb, 2, ("brake.json.gz unpacks to more than 512 MB", "not read")),
    Case("reqifz-bomb", _reqifz_bomb, 2, ("supplier.reqifz unpacks to more than 512 MB", "not read")),
]
