"""Compressed input with a bound on what it unpacks to, not on what it weighs (issue 25, item 7).

A gzip stream or a zip member can unpack to a thousand times its size: a 1 MB ``.json.gz`` fragment or
``.reqifz`` archive used to take about 2.1 GB of memory, because the size limit was checked on the file.
So what a compressed file unpacks to is known before anything is held. A gzip stream says nothing that can
be trusted, so it is streamed through the decompressor in small pieces that are counted and dropped, and
refused past the limit; only input within the limit is then unpacked for real (the price of never holding a
bomb is decompressing good input twice, at a few hundred MB a second). A zip archive's directory states each
member's size, and ``zipfile`` holds every member to it. The fragment loader and the ReqIFz import call this;
it knows nothing of either format.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path

# The most a compressed file may unpack to: the same as the largest uncompressed fragment read.
MAX_UNPACKED_BYTES = 512 * 1024 * 1024
# How much comes out of the decompressor at a time, and how much goes in.
_PIECE = 1024 * 1024
_FEED = 64 * 1024
_NOT_PADDING = re.compile(rb"[^\x00]")


class TooLargeUnpacked(Exception):
    """The input unpacks to more than its limit; the message says how much was seen and what the limit is."""


def _mb(size: int) -> str:
    return f"{size // 2**20} MB"


def gunzip(data: bytes, limit: int | None = None, *, what: str = "the file") -> bytes:
    """``data`` (one or more gzip members) decompressed, or TooLargeUnpacked when that is over ``limit`` bytes
    (default :data:`MAX_UNPACKED_BYTES`).

    Raises zlib.error or EOFError for data that is not complete gzip (as ``gzip.decompress`` would)."""
    limit = MAX_UNPACKED_BYTES if limit is None else limit
    if _inflate(data, limit + 1, None) > limit:
        raise TooLargeUnpacked(f"{what} unpacks to more than {_mb(limit)} (the limit for unpacked input); "
                               "not read")
    kept: list[bytes] = []
    _inflate(data, limit + 1, kept)
    return b"".join(kept)


def _inflate(data: bytes, stop: int, kept: list[bytes] | None) -> int:
    """Decompress ``data`` until its end or until ``stop`` bytes came out; returns how many did. The pieces
    are appended to ``kept`` when given, else dropped (measuring holds nothing).

    Input goes in at most :data:`_FEED` bytes at a time and output comes out at most :data:`_PIECE` at a
    time, so the decompressor's leftovers (its unconsumed tail, the data after a member) stay small: fed
    whole, a large incompressible file or thousands of tiny members would be copied once per piece."""
    view = memoryview(data)
    total = pos = 0
    inflater = None
    while total < stop:
        if inflater is None:
            found = _NOT_PADDING.search(data, pos)  # zero bytes may pad between members, as gzip allows
            if found is None:
                break
            pos = found.start()
            inflater = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer
        if inflater.unconsumed_tail:
            piece: bytes | memoryview = inflater.unconsumed_tail
        elif pos < len(view):
            piece = view[pos:pos + _FEED]
            pos += len(piece)
        else:
            raise EOFError("the compressed data ends before the end of the stream")
        chunk = inflater.decompress(piece, _PIECE)
        total += len(chunk)
        if kept is not None:
            kept.append(chunk)
        if inflater.eof:
            pos -= len(inflater.unused_data)  # the start of what follows this member (a suffix of what was fed)
            inflater = None
    return total


def check_zip(path: Path, limit: int | None = None, *, what: str | None = None) -> None:
    """Refuse (TooLargeUnpacked) a zip archive whose members unpack to more than ``limit`` bytes together
    (default :data:`MAX_UNPACKED_BYTES`).

    The sizes in the archive's directory are enough, and cost nothing to read: Python's ``zipfile``, which
    every reader of ours goes through, never yields more of a member than its stated size (a member that
    inflates further is cut there and fails its CRC check), so a forged small size cannot let a bomb through,
    and members that share their compressed data each count. Raises zipfile.BadZipFile for a damaged
    archive."""
    limit = MAX_UNPACKED_BYTES if limit is None else limit
    total = 0
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            total += info.file_size
            if total > limit:
                raise TooLargeUnpacked(f"{what or path} unpacks to more than {_mb(limit)} (the limit for "
                                       f"unpacked input; reached in {info.filename!r}); not read")
