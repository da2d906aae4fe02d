"""Replacing a file so that a reader sees the old one or the new one, never half of one, and never writing
through a symbolic link (issue 25, item 12).

The new content goes to a temporary file beside the target (``.<name>.<random>.safereq-tmp``), flushed to
disk, then renamed over it. A rename replaces a symbolic link at the target rather than the file it points
to, so ``report -o DIR`` cannot be led outside DIR by a link planted there.

A process killed between creating its temporary file and the rename (kill -9 during ``review --all`` or
``check --fix``) leaves that file behind. The writer holds an exclusive ``flock`` on its temporary file
from creating it until the rename, and the kernel drops the lock when the process dies, so the next process
that writes into the folder removes the files of that exact pattern that no writer holds. A writer that lost the
race (its file was removed between creating and locking it) makes a new one.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no locks, so stale files are left for the user
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".safereq-tmp"
# Our temporary files: "." + the target's name + "." + mkstemp's eight random characters + SUFFIX.
_OURS = re.compile(r"\..+\.[a-z0-9_]{8}" + re.escape(SUFFIX))
_cleaned: set[str] = set()  # folders this process has cleaned already


def write_atomically(target: Path, data: bytes, *, like: os.stat_result | None = None) -> None:
    """Replace ``target`` with ``data`` atomically. The new file takes the mode (and, where allowed, the
    owner) of ``like``, else the mode the umask gives a new file, not mkstemp's private 0600: safereq's files
    (documents, the review file, fragments, reports) are shared and committed."""
    target = Path(target)
    _clean_once(target.parent)
    fd, tmp = _locked_temporary(target)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            if like is not None:
                os.chmod(tmp, stat.S_IMODE(like.st_mode))
                try:
                    os.chown(tmp, like.st_uid, like.st_gid)
                except OSError:
                    pass  # not permitted for other users' files when not root; the mode is what matters
            else:
                mask = os.umask(0)
                os.umask(mask)
                os.chmod(tmp, 0o666 & ~mask)
            os.replace(tmp, target)  # while the lock is held: no cleaner takes it for stale
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _locked_temporary(target: Path) -> tuple[int, str]:
    """A new temporary file beside ``target``, locked, and still at its name once locked."""
    while True:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=SUFFIX)
        if fcntl is None:
            return fd, tmp
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.stat(tmp).st_ino == os.fstat(fd).st_ino:
                return fd, tmp
        except FileNotFoundError:
            pass
        os.close(fd)  # a cleaner removed it before it was locked: make another


def _clean_once(folder: Path) -> None:
    """Remove the stale temporary files of ``folder`` on this process's first write there (a ``--fix`` of
    thousands of documents in one folder lists it once, not once per document)."""
    key = os.path.realpath(folder)
    if key not in _cleaned:
        _cleaned.add(key)
        remove_stale(folder)


def remove_stale(folder: Path) -> list[Path]:
    """Remove the temporary files of earlier writes in ``folder`` that no live writer holds; returns them.
    Only names of exactly our pattern are looked at; a link or anything but a regular file is left."""
    if fcntl is None:
        return []
    removed = []
    try:
        names = [n for n in os.listdir(folder) if n.endswith(SUFFIX) and _OURS.fullmatch(n)]
    except OSError:
        return []
    for name in names:
        path = Path(folder) / name
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue  # gone already, or a link: not ours
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a writer holds it
            os.unlink(path)
            removed.append(path)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed
