"""``safereq import``: turn a ReqIF, ReqIFz or sphinx-needs ``needs.json`` file into safereq Markdown.

One document per specification (ReqIF) or per document/need type (needs.json) is written into the output
folder; what cannot be mapped is listed on standard error (and kept in the documents where it has a
place), never dropped silently. Existing files are not overwritten unless ``--force`` is given. Exit status
0, or 2 for a usage problem or an input file that is not what it claims to be.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import", help="import ReqIF, ReqIFz or needs.json as safereq Markdown",
        description="Write safereq Markdown documents from a ReqIF (.reqif), ReqIFz (.reqifz) or sphinx-needs "
                    "needs.json file. See docs/exchange.md for the mapping.",
    )
    p.add_argument("file", metavar="FILE", help="the .reqif, .reqifz or needs.json file")
    p.add_argument("-o", "--output", metavar="DIR", default=".", help="folder to write the documents to (default: .)")
    p.add_argument("--format", choices=("auto", "reqif", "reqifz", "needs-json"), default="auto",
                   help="the input format (default: from the file name and content)")
    p.add_argument("--needs-version", metavar="V", default=None,
                   help="the needs.json version to import (default: its current_version)")
    p.add_argument("--force", action="store_true", help="overwrite documents that exist")
    p.add_argument("-q", "--quiet", action="store_true", help="do not list what could not be mapped")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..exchange.errors import InputError
    from .errors import guarded

    return guarded(_run, args, InputError)



def detect(path: Path, data: bytes) -> str:
    """The input format from the suffix, else from the first bytes."""
    suffix = path.suffix.lower()
    if suffix == ".reqifz" or data[:2] == b"PK":
        return "reqifz"
    if suffix in (".reqif", ".xml") or data.lstrip()[:1] == b"<":
        return "reqif"
    return "needs-json"


def _run(args: argparse.Namespace) -> int:
    from ..exchange.errors import InputError
    from ..exchange.markdown import file_name, render_document
    from ..exchange.readback import readback

    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{args.file}: cannot read: {exc.strerror or exc}") from None
    fmt = detect(path, data) if args.format == "auto" else args.format
    if fmt == "needs-json":
        from ..exchange.needs_json import parse

        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError(f"{args.file}: not UTF-8 text; a needs.json file is UTF-8 JSON") from None
        documents, problems = parse(text, args.file, args.needs_version)
    else:
        from ..exchange.reqif_import import parse_file

        documents, problems = parse_file(path, archive=fmt == "reqifz")
    out_dir = Path(args.output)
    written: list[tuple[Path, str]] = []
    names: set[str] = set()
    for doc in documents:
        if not doc.records:
            continue  # a specification without items (a safereq export of a README): reported by the reader
        name = file_name(doc.path)
        stem, n = name[:-3], 2
        while name.casefold() in names:
            name, n = f"{stem}-{n}.md", n + 1
        names.add(name.casefold())
        text = render_document(doc)
        problems += readback(doc, text)
        written.append((out_dir / name, text))
    _refuse_links(out_dir, [target for target, _text in written])
    # A document already there with the same text is not overwritten (an interrupted run, run again).
    pending = [(target, text) for target, text in written if not _same(target, text)]
    existing = [str(target) for target, _text in pending if os.path.lexists(target)]
    if existing and not args.force:
        raise InputError(f"would overwrite {', '.join(existing)}; give --force or another -o DIR")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for target, text in pending:
            _write_atomically(target, text)
    except OSError as exc:
        raise InputError(f"cannot write into {out_dir}: {exc.strerror or exc}") from None
    if not args.quiet:
        for problem in problems:
            print(f"safereq: {args.file}: {_printable(problem.where)}: {_printable(problem.message)}", file=sys.stderr)
    items = sum(len(d.records) for d in documents)
    print(f"safereq: imported {items} items into {len(written)} documents in {out_dir}"
          + (f"; {len(problems)} things not mapped as such (listed above)" if problems and not args.quiet else ""),
          file=sys.stderr)
    return 0


def _printable(text: str) -> str:
    """A message for the terminal: control characters of the imported file shown as escapes, not obeyed."""
    return "".join(ch if ch.isprintable() or ch == " " else ascii(ch)[1:-1] for ch in text)


def _refuse_links(out_dir: Path, targets: list[Path]) -> None:
    """Refuse to write through a symbolic link: a link in the output folder (``imported/fsr.md`` →
    ``~/.bashrc``) would make the import write outside the folder named, ``--force`` or not."""
    from ..exchange.errors import InputError

    for target in targets:
        if target.is_symlink():
            raise InputError(f"{target} is a symbolic link; safereq import writes only files inside {out_dir}, "
                             "never through a link (remove it or give another -o DIR)")


def _same(target: Path, text: str) -> bool:
    try:
        return not target.is_symlink() and target.is_file() and target.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def _write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``target`` and rename it into place: an interrupted import
    leaves either the whole document or none (never an empty one that blocks the next run), and the rename
    replaces a name, never follows a link that appears meanwhile. A temporary file of the same document
    that a killed import left behind is removed first."""
    import tempfile

    for stale in target.parent.glob(f".{glob.escape(target.name)}.*.safereq-tmp"):  # left by a killed import
        with contextlib.suppress(OSError):
            stale.unlink()
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".safereq-tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
