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


def hostile_titles() -> list[str]:
    """Item titles that broke a writer (dot, openpyxl) or may: backslashes that dot reads as escapes (one at
    the end swallowed the closing quote), quotes and markup, a title past dot's 16 KB string limit, and every
    C0 control character but NUL and the line breaks (a heading ends at those), DEL and a C1 one."""
    controls = "".join(chr(c) for c in range(1, 32) if chr(c) not in "\n\r")  # NUL: a binary file
    return [
        "Stop the car \\", "Odd \\\\\\", "Label \\N and \\l and \\G", 'Quote " in it', '<b>bold</b> & <i>',
        "<", "x" * 20_000, f"Controls {controls} here", "DEL \x7f and C1 \x85 end", "\ufeffBOM and \ufffe",
    ]


def titles_workspace(folder: Path) -> None:
    """One safety goal per hostile title, each with a requirement derived from it (so each gets a graph)."""
    parts = ["# Hostile titles\n\n"]
    for i, title in enumerate(hostile_titles(), 1):
        parts.append(f"## SG-{i}: {title}\n\nThe vehicle shall stop.\n\n- ASIL: B\n\n"
                     f"## FSR-{i}: {title}\n\nThe ECU shall stop.\n\n- ASIL: B\n- Derived from: SG-{i}\n\n")
    (folder / "titles.md").write_text("".join(parts), encoding="utf-8", newline="\n")


def _report(fmt: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        titles_workspace(folder)
        return ["report", "titles.md", "-o", "out", "--format", fmt]
    return make


def _fragment_bomb(folder: Path) -> list[str]:
    (folder / "brake.json.gz").write_bytes(gzip_bomb(600 * MB))  # 600 KB on disk
    return ["merge", "brake.json.gz"]


def _reqifz_bomb(folder: Path) -> list[str]:
    zip_bomb(folder / "supplier.reqifz", 600 * MB)
    return ["import", "supplier.reqifz", "-o", "out"]


CASES: list[Case] = [
    Case("gzip-fragment-bomb", _fragment_bomb, 2, ("brake.json.gz unpacks to more than 512 MB", "not read")),
    Case("reqifz-bomb", _reqifz_bomb, 2, ("supplier.reqifz unpacks to more than 512 MB", "not read")),
    Case("report-html-hostile-titles", _report("html"), 0, ("wrote out/index.html",)),
]
