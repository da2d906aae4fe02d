"""A folder of signed cache entries: what ``safereq check`` keeps between runs (see :mod:`.cached`).

Why signed pickles: the entries hold findings (dataclasses, spans, enums), and pickle reads them back in a
fraction of what building them costs; but unpickling runs code named by the data, and a cache folder in a
shared checkout is writable by others. So every entry carries an HMAC-SHA256 over its name and bytes, keyed
by a secret of the user's own (``check-cache.key`` in ``$SAFEREQ_CACHE_DIR``, else the user's cache folder,
mode 0600), and nothing is unpickled before its HMAC is verified. An entry that cannot be trusted — another
user's, another version's (its name changes with the version), truncated, corrupt — is ignored, and the
check computes and writes it again. Writes go to a temporary file and are renamed into place, so two runs at
once never see half an entry; at worst both write the same one.
"""

from __future__ import annotations

import copyreg
import hashlib
import hmac
import io
import logging
import os
import pickle
import secrets
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import fields
from operator import attrgetter
from pathlib import Path
from typing import Any

_log = logging.getLogger(__name__)

MAGIC = b"safereq-check-cache 1\n"
_MAC = 32  # bytes of HMAC-SHA256
KEY_FILE = "check-cache.key"


MAX_ENTRY = 256 * 1024 * 1024  # bytes: a bigger "entry" is not one of ours


def read_regular(path: Path, limit: int = MAX_ENTRY) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, else None: a FIFO, a device
    or a link to one planted in a shared cache folder must not hang or flood the check."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def user_cache_dir() -> Path:
    """The user's own cache folder: ``$SAFEREQ_CACHE_DIR``, else ``$XDG_CACHE_HOME/safereq`` or ~/.cache/safereq."""
    base = os.environ.get("SAFEREQ_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "safereq")
    return Path(base)


def user_key(folder: Path | None = None) -> bytes | None:
    """The user's signing key, made on first use; None when it can be neither read nor made (no cache then)."""
    path = (folder or user_cache_dir()) / KEY_FILE
    key = read_regular(path, 4096)
    if key is not None and len(key) >= 32:
        return key
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_name(f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
        try:
            os.link(tmp, path)  # atomic and never replaces: of two runs making a key at once, one key wins
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
        key = read_regular(path, 4096)
        return key if key is not None and len(key) >= 32 else None
    except OSError as exc:
        _log.debug("no check cache: cannot make the key %s: %s", path, exc)
        return None


def dataclass_reducers(classes: Iterable[type]) -> dict[type, Callable[[Any], tuple]]:
    """Pickle reducers that rebuild each (frozen, slotted) dataclass by calling it with its fields: pickle's
    own way for slotted classes calls ``dataclasses.fields`` per object, and findings are thousands."""
    table: dict[type, Callable[[Any], tuple]] = {}
    for cls in classes:
        get = attrgetter(*[f.name for f in fields(cls)])
        table[cls] = (lambda get, cls: lambda obj: (cls, get(obj)))(get, cls)
    return table


def dumps(value: Any, reducers: dict[type, Callable[[Any], tuple]]) -> bytes:
    """``value`` pickled with ``reducers`` on top of the default ones."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, **reducers}
    pickler.dump(value)
    return out.getvalue()


class DiskCache:
    """Entries by name (hex digests) under ``folder``, signed with ``key``; every failure is a miss.

    ``reducers`` (class -> reduce function, see :func:`dataclass_reducers`) change how values are pickled.
    """

    def __init__(self, folder: Path, key: bytes, reducers: dict[type, Callable[[Any], tuple]] | None = None) -> None:
        self.folder = folder
        self._key = key
        self._reducers = reducers or {}
        self.written = 0

    def _path(self, name: str) -> Path:
        # One flat folder: a cold check writes ~200 entries, and making a sub-folder per first two digits
        # (150 of them) doubled the file system's share of writing them (0.25 -> 0.13 s of CPU for 202
        # entries on this machine's ext4). Entries of that layout are still pruned (``prune``).
        return self.folder / name

    def _mac(self, name: str, data: bytes | memoryview) -> bytes:
        mac = hmac.new(self._key, name.encode() + b"\0", hashlib.sha256)
        mac.update(data)
        return mac.digest()

    def get(self, name: str) -> Any | None:
        """The value stored under ``name``, or None when there is none that can be trusted."""
        blob = read_regular(self._path(name))
        if blob is None:
            return None
        head = len(MAGIC)
        if len(blob) < head + _MAC or not blob.startswith(MAGIC):
            return None
        data = memoryview(blob)[head + _MAC:]
        if not hmac.compare_digest(blob[head:head + _MAC], self._mac(name, data)):
            _log.debug("check cache entry %s is not signed by this user's key; ignored", name)
            return None
        try:
            return pickle.loads(data)  # signed by this user's key: written by safereq for this user
        except Exception:  # noqa: BLE001 - e.g. a class that changed shape: rebuilt like any miss
            return None

    def put(self, name: str, value: Any) -> None:
        """Store ``value`` under ``name`` (atomically); a folder that cannot be written only costs speed."""
        data = dumps(value, self._reducers)
        path = self._path(name)
        tmp = path.with_name(f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            try:
                fh = open(tmp, "wb")  # noqa: SIM115 (closed below)
            except FileNotFoundError:  # the folder is made on the first write, not looked for on every one
                self.folder.mkdir(parents=True, exist_ok=True)
                fh = open(tmp, "wb")  # noqa: SIM115
            with fh:
                fh.write(MAGIC)
                fh.write(self._mac(name, data))
                fh.write(data)
            os.replace(tmp, path)
            self.written += 1
        except OSError as exc:
            _log.debug("cannot write check cache entry %s: %s", path, exc)
            try:
                tmp.unlink()
            except OSError:
                pass

    def prune(self, keep: set[str], slack: int = 2, age: float = 86_400.0) -> int:
        """Once there are more than ``slack`` times as many entries as ``keep`` names, remove those not in
        ``keep`` written more than ``age`` seconds ago (old versions of edited files; a check of a few files
        leaves the entries of today's check of all of them); how many were removed. Another run's entry
        removed here is only a miss later."""
        try:
            names = []
            with os.scandir(self.folder) as entries:  # the entry's type from the listing: no stat per entry
                for entry in entries:
                    if len(entry.name) == 2 and entry.is_dir():  # a sub-folder of the earlier layout
                        names.extend(Path(entry.path).iterdir())
                    elif _is_entry_name(entry.name):
                        names.append(Path(entry.path))
        except OSError:
            return 0
        if len(names) <= slack * len(keep) + 64:
            return 0
        removed = 0
        now = time.time()
        for p in names:
            if p.name not in keep:
                try:
                    if now - p.stat().st_mtime > age:
                        p.unlink()
                        removed += 1
                except OSError:
                    pass
        return removed


def _is_entry_name(name: str) -> bool:
    """Whether a file name is an entry's (hex digits), not the folder's .gitignore or a temporary file."""
    return bool(name) and all(c in "0123456789abcdef" for c in name)


def open_cache(folder: Path, reducers: dict[type, Callable[[Any], tuple]] | None = None) -> DiskCache | None:
    """The cache in ``folder`` (made, with a .gitignore, when missing); None when there is no user key."""
    key = user_key()
    if key is None:
        return None
    try:
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
            (folder / ".gitignore").write_text("# safereq check cache (safe to delete)\n*\n", encoding="utf-8")
    except OSError as exc:
        _log.debug("no check cache: cannot make %s: %s", folder, exc)
        return None
    return DiskCache(folder, key, reducers)
