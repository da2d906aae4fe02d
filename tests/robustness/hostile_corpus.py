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
    after: Callable[[Path], None] | None = None  # asserts what the folder must hold afterwards

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
        '=HYPERLINK("https://example.com","click")',
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


def _small_workspace(folder: Path) -> Path:
    ws = folder / "ws"
    ws.mkdir()
    (ws / "goals.md").write_text("# Goals\n\n## SG-1: Goal\n\nThe vehicle should stop.\n\n- ASIL: D\n",
                                 encoding="utf-8")
    return ws


def _fragment_huge_integer(where: str) -> Callable[[Path], list[str]]:
    """A fragment written by safereq, then one number made 5,000 digits long (``where``: a span or the
    version), the way a damaged or hostile file would be."""
    def make(folder: Path) -> list[str]:
        import json
        import subprocess
        import sys

        ws = _small_workspace(folder)
        subprocess.run([sys.executable, "-m", "safereq", "check", str(ws), "--fragment", "f.json"], cwd=folder,
                       capture_output=True, check=False, timeout=300)
        raw = json.loads((folder / "f.json").read_text(encoding="utf-8"))
        big = "9" * 5000
        text = json.dumps(raw)
        text = text.replace('"span": [', f'"span": [{big}, ', 1) if where == "span" else \
            text.replace(f'"version": {raw["version"]}', f'"version": {big}', 1)
        (folder / "f.json").write_text(text, encoding="utf-8")
        return ["merge", "f.json"]
    return make


def _review_huge_integer(command: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        ws = _small_workspace(folder)
        (ws / "safereq-review.jsonl").write_text('{"format": "safereq-review", "version": 1}\n'
                                                 f'{{"link": "FSR-1>SG-1", "n": {"9" * 5000}}}\n', encoding="utf-8")
        return [*command.split(), "ws"] if command == "check" else [*command.split()]
    return make


def _links_in_the_report_folder(folder: Path) -> list[str]:
    """Every name the report writes is a link, in the output folder, to a file outside it."""
    titles_workspace(folder)
    (folder / "outside.txt").write_text("not the report's", encoding="utf-8")
    (folder / "out").mkdir()
    for name in ("index.html", "report.json", "coverage.csv", "holes.csv", "matrix.csv", "report.xlsx"):
        (folder / "out" / name).symlink_to(folder / "outside.txt")
    return ["report", "titles.md", "-o", "out"]


def _outside_unchanged(folder: Path) -> None:
    assert (folder / "outside.txt").read_text(encoding="utf-8") == "not the report's"
    assert not (folder / "out" / "index.html").is_symlink()


_HOLDER = """
import sys
from pathlib import Path
from safereq.workspace.atomic import _locked_temporary
fd, tmp = _locked_temporary(Path(sys.argv[1]))
print(tmp, flush=True)
sys.stdin.read()
"""


def _killed_review_writer(folder: Path) -> list[str]:
    """A writer of the review file killed with SIGKILL after it made its temporary file, before the rename."""
    import os
    import signal
    import subprocess
    import sys

    ws = _small_workspace(folder)
    child = subprocess.Popen([sys.executable, "-c", _HOLDER, str(ws / "safereq-review.jsonl")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert child.stdout is not None and child.stdin is not None
    assert Path(child.stdout.readline().strip()).exists()
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=120)
    child.stdin.close()
    child.stdout.close()
    return ["review", "--all", "ws"]


def _no_temporary_files(folder: Path) -> None:
    assert not [p for p in folder.rglob("*") if p.name.endswith(".safereq-tmp")]


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
    Case("report-xlsx-hostile-titles", _report("xlsx"), 0, ("wrote out/report.xlsx",)),
    Case("report-into-a-folder-of-links", _links_in_the_report_folder, 0, ("wrote out/index.html",),
         _outside_unchanged),
    Case("review-all-after-a-writer-was-killed", _killed_review_writer, 0, ("links reviewed",), _no_temporary_files),
    Case("fragment-span-of-5000-digits", _fragment_huge_integer("span"), 2,
         ("not a fragment safereq wrote: it holds an integer of 5000 digits",)),
    Case("fragment-version-of-5000-digits", _fragment_huge_integer("version"), 2,
         ("not a fragment safereq wrote: it holds an integer of 5000 digits",)),
    Case("review-line-of-5000-digits-check", _review_huge_integer("check"), 2,
         ("line 2 is not a line safereq wrote: it holds an integer of 5000 digits",)),
]
