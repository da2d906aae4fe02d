"""Find requirement documents on disk and read them safely, for the CLI and the language server alike.

Everything a user points the tool at is untrusted: a path may not exist, a ``.md`` file may be binary, be
encoded in something other than UTF-8, be a named pipe that would block a plain ``open``, be far too large
to be a document, or a symbolic link may lead back into its own parent. None of that may stop the other
files from being checked, so problems are returned as :class:`LoadProblem` values (``io/*`` codes, see
rules/checks/io.yaml) next to the files that could be read, never raised. Nothing here knows about LSP or
output formats.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..model.ranges import Span
from .atomic import write_atomically
from .memory import human as _human, too_big_to_check

MARKDOWN_SUFFIXES = (".md", ".markdown")
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
# Directories never walked into (besides every hidden one): dependencies, virtual environments, caches.
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages", "venv"})
_ENV_MARKERS = ("pyvenv.cfg", "conda-meta")
_BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class LoadProblem:
    """A path that could not be read as a document; ``code`` is an ``io/*`` rule id."""

    path: str
    code: str
    message: str
    span: Span = Span(0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A document read from disk: ``text`` as the parser sees it plus what is needed to write it back.

    ``text`` has a UTF-8 byte-order mark removed and LF line ends when every line ended in CRLF, or in a lone
    CR (``newline`` says which); ``encode`` restores both, so a fixed file keeps its conventions. A lone CR is a
    line break to every editor (and to LSP), so it must be one to the checks too, or a file saved with CR line
    ends would be one long line here and many lines in the editor. Line ends that mix a lone CR with others
    are made LF for checking and cannot be restored (``newline`` None): such a file is not fixed. A mix of
    CRLF and LF alone is kept as it is (the checks ignore a CR at the end of a line). ``digest`` identifies
    the bytes that were read, so a writer can refuse to overwrite a file that changed in the meantime.
    """

    path: str
    fs_path: Path
    text: str
    digest: str
    bom: bool = False
    newline: str | None = "\n"

    def encode(self, text: str) -> bytes:
        if self.newline is None:
            raise CannotKeepLineEnds(f"{self.path} mixes lone CR line ends with others; a fix would change them")
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return ((_BOM if self.bom else "") + text).encode("utf-8")


def digest_of(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def parse_size(text: str) -> int:
    """A size such as ``10MB``, ``512k`` or ``2000000`` in bytes (binary multiples); ValueError otherwise."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*", text, re.IGNORECASE)
    if not m:
        raise ValueError(f"invalid size {text!r} (use e.g. 10MB, 512KB or a number of bytes)")
    factor = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[m.group(2).lower()]
    size = int(float(m.group(1)) * factor)
    if size <= 0:
        raise ValueError(f"invalid size {text!r}: must be positive")
    return size


class Excluder:
    """``exclude`` globs from the configuration, matched against paths relative to the configuration's folder.

    ``*`` and ``?`` stay within one path segment, ``**`` spans any number of segments, ``[...]`` is a
    character class. A pattern without ``/`` matches a file or folder name at any depth (``drafts``,
    ``*.draft.md``); a pattern with ``/`` is anchored at the base folder (``docs/old/**``). A folder that
    matches is not walked into.
    """

    def __init__(self, patterns: Iterable[str], base: Path) -> None:
        self.base = base
        self._anchored: list[re.Pattern[str]] = []
        self._names: list[re.Pattern[str]] = []
        for pattern in patterns:
            pattern = pattern.strip().removeprefix("./")
            if not pattern:
                continue
            target = self._anchored if "/" in pattern.rstrip("/") else self._names
            target.append(re.compile(_glob_regex(pattern.rstrip("/"))))

    def __bool__(self) -> bool:
        return bool(self._anchored or self._names)

    def excluded(self, path: Path) -> bool:
        if not self:
            return False
        if any(p.fullmatch(path.name) for p in self._names):
            return True
        try:
            rel = path.absolute().relative_to(self.base.absolute()).as_posix()
        except ValueError:
            return False
        return any(p.fullmatch(rel) for p in self._anchored)


def _glob_regex(pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[" and (close := pattern.find("]", i + 2)) != -1:
            body = pattern[i + 1:close]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
            i = close + 1
            continue
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


@dataclass
class Discovery:
    """Files to read, in a deterministic order, and the paths that could not even be listed."""

    files: list[Path]
    problems: list[LoadProblem]


def display_path(path: Path, cwd: Path | None = None) -> str:
    """``path`` relative to the working directory when it is inside it, else absolute; ``/`` separated."""
    cwd = cwd or Path.cwd()
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(cwd).as_posix() or "."
    except ValueError:
        return absolute.as_posix()


def is_markdown(path: Path) -> bool:
    return path.suffix.lower() in MARKDOWN_SUFFIXES


def _skipped_dir(entry: os.DirEntry[str]) -> bool:
    name = entry.name
    if name.startswith(".") or name in SKIPPED_DIRS:
        return True
    # A Python or conda environment under any other name.
    return any(os.path.exists(os.path.join(entry.path, marker)) for marker in _ENV_MARKERS)


class _Walker:
    """Depth-first walk that follows directory symlinks but enters each real directory once."""

    def __init__(self, excluder: Excluder | None, cwd: Path) -> None:
        self.excluder = excluder
        self.cwd = cwd
        self.seen_files: set[tuple[int, int]] = set()
        self.seen_dirs: set[tuple[int, int]] = set()
        self.files: list[Path] = []
        self.problems: list[LoadProblem] = []

    def stat_failed(self, path: Path, exc: OSError, *, named: bool = False) -> None:
        """Report why ``path`` could not be examined; only a path the user named can be "not found"."""
        if exc.errno == errno.ELOOP:
            self._problem(path, "io/symlink-loop", "symbolic links lead in a circle; not followed")
        elif path.is_symlink():
            self._problem(path, "io/unreadable", f"broken symbolic link to '{_link_text(path)}'")
        elif named and (isinstance(exc, FileNotFoundError) or exc.errno == errno.ENOTDIR):
            self._problem(path, "io/not-found", "no such file or directory")
        else:
            self._problem(path, "io/unreadable", _reason(exc))

    def _problem(self, path: Path | str, code: str, message: str) -> None:
        self.problems.append(LoadProblem(display_path(Path(path), self.cwd), code, message))

    def add_file(self, path: Path, st: os.stat_result) -> None:
        key = (st.st_dev, st.st_ino)
        if key not in self.seen_files:  # the same file through two paths (symlink, overlapping arguments)
            self.seen_files.add(key)
            self.files.append(path)

    def walk(self, root: Path, st: os.stat_result) -> None:
        root_key = (st.st_dev, st.st_ino)
        if root_key in self.seen_dirs:
            return
        self.seen_dirs.add(root_key)
        # Each entry carries the real directories above it, to tell a loop from a second route to a folder.
        stack: list[tuple[Path, tuple[tuple[int, int], ...]]] = [(root, (root_key,))]
        while stack:
            folder, ancestors = stack.pop()
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                self._problem(folder, "io/unreadable", f"cannot list directory: {_reason(exc)}")
                continue
            subdirs: list[tuple[Path, tuple[tuple[int, int], ...]]] = []
            for entry in entries:
                path = Path(entry.path)
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if is_dir:
                    if _skipped_dir(entry) or (self.excluder and self.excluder.excluded(path)):
                        continue
                    try:
                        dst = entry.stat()
                    except OSError as exc:
                        self._problem(path, "io/unreadable", f"cannot read directory: {_reason(exc)}")
                        continue
                    key = (dst.st_dev, dst.st_ino)
                    if key in ancestors or (entry.is_symlink() and _contains(os.path.realpath(path), folder)):
                        self._problem(path, "io/symlink-loop", f"symbolic link to '{_link_text(path)}' leads back "
                                                               "into a folder that contains it; not followed")
                        continue
                    if key in self.seen_dirs:
                        continue
                    self.seen_dirs.add(key)
                    subdirs.append((path, ancestors + (key,)))
                    continue
                if entry.name.startswith(".") or not is_markdown(path):
                    continue
                if self.excluder and self.excluder.excluded(path):
                    continue
                try:
                    fst = entry.stat()
                except OSError as exc:
                    self.stat_failed(path, exc)
                    continue
                self.add_file(path, fst)
            stack.extend(reversed(subdirs))


def _contains(real_dir: str, folder: Path) -> bool:
    """True when ``folder`` (a path being walked) really lies inside ``real_dir`` or is it."""
    here = os.path.realpath(folder)
    return here == real_dir or here.startswith(real_dir.rstrip(os.sep) + os.sep)


def _link_text(path: Path) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return str(path)


def discover(paths: Iterable[Path | str], *, excluder: Excluder | None = None, cwd: Path | None = None) -> Discovery:
    """Markdown files under ``paths`` (files are taken as given; folders are walked).

    Walking skips hidden files and folders, ``node_modules``, virtual environments, caches and anything the
    ``excluder`` matches; a file named explicitly is always read, whatever its name.
    """
    walker = _Walker(excluder, cwd or Path.cwd())
    for raw in paths:
        path = Path(raw)
        try:
            st = path.stat()
        except OSError as exc:
            walker.stat_failed(path, exc, named=True)
            continue
        if stat.S_ISDIR(st.st_mode):
            walker.walk(path, st)
        else:
            walker.add_file(path, st)
    return Discovery(walker.files, walker.problems)


def read_source(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES, display: str | None = None,
                max_memory: int | None = None) -> SourceFile | LoadProblem:
    """Read one document, or say precisely why it cannot be checked.

    The file is opened non-blocking and checked to be a regular file before reading, so a named pipe or a
    device cannot hang the checker; at most ``max_bytes`` + 1 bytes are read, so a file that grows while it
    is read is still refused.
    """
    shown = display or display_path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        code = "io/not-found" if isinstance(exc, FileNotFoundError) else "io/unreadable"
        return LoadProblem(shown, code, _reason(exc))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            return LoadProblem(shown, "io/unreadable", f"cannot read: {kind}")
        if st.st_size > max_bytes:
            return LoadProblem(shown, "io/too-large", _too_large(st.st_size, max_bytes))
        if (reason := too_big_to_check(st.st_size, max_memory)) is not None:
            return LoadProblem(shown, "io/too-large", f"file is {_human(st.st_size)}: {reason}")
        chunks: list[bytes] = []
        remaining = max_bytes + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        return LoadProblem(shown, "io/unreadable", _reason(exc))
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        return LoadProblem(shown, "io/too-large", _too_large(len(data), max_bytes, grew=True))
    return decode_source(shown, path, data)


def decode_source(shown: str, path: Path, data: bytes) -> SourceFile | LoadProblem:
    """Decode the bytes of a document: UTF-8 only, no NUL bytes (which mark binary files)."""
    nul = data.find(b"\0")
    if nul != -1:
        return LoadProblem(shown, "io/binary", f"binary file (NUL byte at offset {nul}); only UTF-8 text is read",
                           _byte_span(data, nul))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start:exc.start + 4].hex(" ")
        return LoadProblem(shown, "io/encoding",
                           f"not valid UTF-8: byte {bad.split()[0]} at offset {exc.start} cannot be decoded "
                           "(save the file as UTF-8)", _byte_span(data, exc.start))
    bom = text.startswith(_BOM)
    if bom:
        text = text[1:]
    text, newline = _line_ends(text)
    return SourceFile(shown, path, text, digest_of(data), bom, newline)


def _line_ends(text: str) -> tuple[str, str | None]:
    """The text as the checks read it and the line end to write it back with (see :class:`SourceFile`)."""
    if "\r" not in text:
        return text, "\n"
    crlf, cr, lf = text.count("\r\n"), text.count("\r"), text.count("\n")
    if cr == crlf:  # no lone CR
        return (text.replace("\r\n", "\n"), "\r\n") if lf == crlf else (text, "\n")
    if lf == 0:
        return text.replace("\r", "\n"), "\r"
    return re.sub(r"\r\n?", "\n", text), None


def _byte_span(data: bytes, offset: int) -> Span:
    """The one-character span at byte ``offset``, in code-point columns (the prefix of its line decodes)."""
    line = data.count(b"\n", 0, offset)
    start = data.rfind(b"\n", 0, offset) + 1
    col = len(data[start:offset].decode("utf-8", errors="replace"))
    return Span(line, col, line, col + 1)


def _too_large(size: int, limit: int, grew: bool = False) -> str:
    how = "grew past" if grew else "is"
    return (f"file {how} {_human(size)}, more than the {_human(limit)} limit for a document; not checked "
            "(raise it with --max-file-size)")


def _reason(exc: OSError) -> str:
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, FileNotFoundError):
        return "no such file or directory"
    return exc.strerror.lower() if exc.strerror else str(exc)


@dataclass
class LoadResult:
    sources: list[SourceFile]
    problems: list[LoadProblem]

    @cached_property
    def by_path(self) -> dict[str, SourceFile]:
        return {s.path: s for s in self.sources}


def load(paths: Iterable[Path | str], *, excluder: Excluder | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
         cwd: Path | None = None, max_memory: int | None = None) -> LoadResult:
    """Discover and read every document under ``paths``; unreadable ones become problems, in path order."""
    cwd = cwd or Path.cwd()
    found = discover(paths, excluder=excluder, cwd=cwd)
    sources: list[SourceFile] = []
    problems = list(found.problems)
    for path in found.files:
        result = read_source(path, max_bytes=max_bytes, display=display_path(path, cwd), max_memory=max_memory)
        (problems if isinstance(result, LoadProblem) else sources).append(result)
    problems.sort(key=lambda p: (p.path, p.span))
    return LoadResult(sources, problems)


class ChangedOnDisk(Exception):
    """The file is no longer the one that was read, so writing a fix would overwrite someone's edit."""


class CannotKeepLineEnds(Exception):
    """The file's line ends cannot be written back as they were, so a fix would change more than it says."""


def write_source(source: SourceFile, text: str) -> SourceFile:
    """Replace the file ``source`` was read from with ``text``, atomically; return the new SourceFile.

    The new content goes to a temporary file in the same folder, which then replaces the original with
    ``os.replace``, so a reader sees either the old or the new file, never half of one. Permissions (and
    the owner, where allowed) are kept; a symbolic link is kept and its target is replaced. Raises
    :class:`ChangedOnDisk` when the bytes on disk differ from those read, :class:`CannotKeepLineEnds` when
    the file's mixed line ends could not be kept, and OSError when writing fails.
    """

    target = Path(os.path.realpath(source.fs_path))
    with open(target, "rb") as fh:
        if digest_of(fh.read()) != source.digest:
            raise ChangedOnDisk(f"{source.path} changed since it was read")
    data = source.encode(text)
    write_atomically(target, data, like=os.stat(target))
    return SourceFile(source.path, source.fs_path, text, digest_of(data), source.bom, source.newline)
