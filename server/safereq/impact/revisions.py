"""Requirement documents as they were at a git revision, read through the ``git`` command.

Why the command and not a library: every CI image and developer machine that has a repository has git, it
reads shallow clones, worktrees, packed and partial repositories exactly as the user's own commands do, and
two calls (``ls-tree`` for the names and object ids, one ``cat-file --batch`` for every blob, asked for by
object id so that no file name, not even one holding a newline, can shift its line protocol) read a 20,000-requirement
workspace in a fraction of a second. Files are decoded as the loader decodes files on disk (UTF-8 only,
byte-order mark and CRLF line ends removed), and the same folders are skipped, so a document reads the same
from a revision as from the working tree.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..workspace.loader import (SKIPPED_DIRS, Excluder, LoadProblem, SourceFile, decode_source, display_path,
                                is_markdown)

GIT_TIMEOUT = 120


class RevisionError(Exception):
    """A revision or repository problem, said in one line (not a repository, unknown revision, no git)."""


@dataclass(frozen=True)
class Repository:
    root: Path

    def git(self, *args: str, input: bytes | None = None) -> bytes:
        try:
            done = subprocess.run(["git", "-C", str(self.root), *args], input=input, capture_output=True,
                                  timeout=GIT_TIMEOUT, check=False)
        except FileNotFoundError:
            raise RevisionError("git is not installed (it is needed to read revisions)") from None
        except subprocess.TimeoutExpired:
            raise RevisionError(f"git {args[0]} took longer than {GIT_TIMEOUT} s") from None
        if done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise RevisionError(message[-1] if message else f"git {args[0]} failed")
        return done.stdout

    def resolve(self, rev: str) -> str:
        """The commit ``rev`` names; a clear message when it is unknown (e.g. not fetched in a shallow clone)."""
        if rev.startswith("-"):
            raise RevisionError(f"not a revision: {rev!r}")
        try:
            return self.git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}").decode().strip()
        except RevisionError:
            shallow = (self.root / ".git" / "shallow").exists() or self.git(
                "rev-parse", "--is-shallow-repository").strip() == b"true"
            hint = (" (this is a shallow clone: fetch it first, e.g. `git fetch --depth=1 origin <branch>`)"
                    if shallow else "")
            raise RevisionError(f"unknown revision {rev!r}{hint}") from None


    def changed(self, old: str, new: str | None, specs: list[str]) -> set[str]:
        """Repository-relative paths under ``specs`` whose content differs between ``old`` and ``new`` (None:
        the working tree, untracked files included): only their items can have changed."""
        revs = [self.resolve(old)] + ([self.resolve(new)] if new is not None else [])
        out = self.git("diff", "--name-only", "-z", "--no-renames", *revs, "--", *specs)
        names = {n for n in out.decode("utf-8", "surrogateescape").split("\0") if n}
        if new is None:
            untracked = self.git("ls-files", "-z", "--others", "--exclude-standard", "--", *specs)
            names |= {n for n in untracked.decode("utf-8", "surrogateescape").split("\0") if n}
        return names

    def specs(self, paths: Iterable[Path]) -> list[str]:
        """``paths`` as pathspecs relative to the repository root."""
        out = []
        for p in paths:
            absolute = Path(os.path.abspath(p))
            try:
                rel = absolute.relative_to(self.root)
            except ValueError:
                raise RevisionError(f"{p} is outside the repository {self.root}") from None
            out.append(rel.as_posix() or ".")
        return out


def repository(start: Path) -> Repository:
    """The repository that contains ``start``."""
    probe = start if start.is_dir() else start.parent
    try:
        done = subprocess.run(["git", "-C", str(probe), "rev-parse", "--show-toplevel"], capture_output=True,
                              timeout=GIT_TIMEOUT, check=False)
    except FileNotFoundError:
        raise RevisionError("git is not installed (it is needed to read revisions)") from None
    if done.returncode != 0:
        raise RevisionError(f"{start} is not inside a git repository")
    return Repository(Path(done.stdout.decode().strip()))


def _skipped(rel: PurePosixPath) -> bool:
    return any(part.startswith(".") or part in SKIPPED_DIRS for part in rel.parts[:-1])


def read_revision(repo: Repository, rev: str, paths: Iterable[Path], *, excluder: Excluder | None = None,
                  max_bytes: int, cwd: Path, only: set[str] | None = None) -> tuple[list[SourceFile], list[LoadProblem]]:
    """Every Markdown document under ``paths`` at ``rev`` (or only those of the repository-relative paths
    ``only``), named as the working tree's loader names them."""
    commit = repo.resolve(rev)
    specs = repo.specs(paths)
    # Each entry is "<mode> <type> <object id>\t<path>\0": the blobs are then asked for by object id, which
    # cannot hold a newline, so a path that holds one cannot shift the line protocol of ``cat-file --batch``.
    entries: list[tuple[str, str]] = []
    for entry in repo.git("ls-tree", "-r", "-z", commit, "--", *specs).decode(
            "utf-8", "surrogateescape").split("\0"):
        if not entry:
            continue
        meta, _, name = entry.partition("\t")
        entries.append((name, meta))
    if only is not None:
        entries = [(n, m) for n, m in entries if n in only]
    chosen: list[tuple[PurePosixPath, str]] = []
    for name, meta in entries:
        rel = PurePosixPath(name)
        if not is_markdown(Path(name)) or _skipped(rel):
            continue
        if excluder and excluder.excluded(repo.root / rel):
            continue
        fields = meta.split()
        chosen.append((rel, fields[2] if len(fields) == 3 and fields[1] == "blob" else ""))
    sources: list[SourceFile] = []
    problems: list[LoadProblem] = []
    wanted = [oid for _, oid in chosen if oid]
    out = repo.git("cat-file", "--batch", input="".join(f"{oid}\n" for oid in wanted).encode("ascii")) if wanted else b""
    pos = 0
    for rel, oid in chosen:
        fs_path = repo.root / rel
        shown = display_path(fs_path, cwd)
        if not oid:
            problems.append(LoadProblem(shown, "io/unreadable", f"not a file at {rev}"))
            continue
        header_end = out.index(b"\n", pos)
        header = out[pos:header_end].split()
        pos = header_end + 1
        if len(header) < 3 or header[0].decode("ascii", "replace") != oid or header[1] != b"blob":
            raise RevisionError(f"git cat-file answered out of order for {rel.as_posix()!r} at {rev}")
        size = int(header[2])
        data = out[pos:pos + size]
        pos += size + 1
        if size > max_bytes:
            problems.append(LoadProblem(shown, "io/too-large", f"larger than the document limit at {rev}; not read"))
            continue
        result = decode_source(shown, fs_path, data)
        (problems if isinstance(result, LoadProblem) else sources).append(result)
    sources.sort(key=lambda s: s.path)
    return sources, problems
