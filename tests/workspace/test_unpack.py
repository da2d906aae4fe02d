"""Compressed input is bounded by what it unpacks to (issue 25, item 7): a 1 MB ``.json.gz`` fragment or
``.reqifz`` archive took about 2.1 GB of memory, because the limit was on the file's size. A bomb is refused
with a clear message while holding no more than a piece of it; good input is read as before."""

from __future__ import annotations

import gzip
import tracemalloc
import zipfile
import zlib

import pytest

from safereq.exchange.errors import InputError
from safereq.exchange.reqif_import import parse_file
from safereq.fragment import format as fragment_format
from safereq.workspace import unpack
from safereq.workspace.unpack import TooLargeUnpacked, check_zip, gunzip

MB = 1024 * 1024


def zeros_gzip(size: int) -> bytes:
    """``size`` zero bytes gzipped, made a megabyte at a time (the bomb is never whole in memory)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    piece = bytes(MB)
    return b"".join([*(packer.compress(piece) for _ in range(size // MB)), packer.flush()])


def peak_while(call) -> int:
    """The most Python memory allocated while ``call()`` ran (it may raise)."""
    tracemalloc.start()
    try:
        try:
            call()
        except (TooLargeUnpacked, InputError, fragment_format.FragmentError):
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_gunzip_reads_good_input_as_gzip_does():
    text = b"The brake controller shall stop. " * 10_000
    assert gunzip(gzip.compress(text)) == gzip.decompress(gzip.compress(text)) == text
    assert gunzip(gzip.compress(text) + gzip.compress(b"!")) == text + b"!"  # two members, as gzip allows
    assert gunzip(gzip.compress(b"")) == b""
    for damaged in (gzip.compress(text)[:-12], gzip.compress(text)[:40]):
        with pytest.raises((EOFError, zlib.error)):
            gunzip(damaged)


def test_members_padding_and_incompressible_data_read_as_gzip_does():
    """Member boundaries inside and across the pieces fed to the decompressor, zero padding between members,
    thousands of empty members, and data that does not compress (whose leftovers, fed whole, were copied once
    per megabyte out)."""
    import os

    parts = [os.urandom(n) for n in (10, 70_000, 1, 200_000)]
    data = b"".join(gzip.compress(p) for p in parts) + b"\0" * 3 + gzip.compress(b"") * 5_000
    assert gunzip(data) == gzip.decompress(data) == b"".join(parts)
    noise = os.urandom(4 * MB)
    assert gunzip(gzip.compress(noise, compresslevel=1)) == noise


def test_a_gzip_bomb_is_refused_holding_only_a_piece_of_it():
    bomb = zeros_gzip(64 * MB)  # 64 KB that unpack to 64 MB
    with pytest.raises(TooLargeUnpacked, match=r"^the bomb unpacks to more than 16 MB \(the limit for unpacked "
                                                r"input\); not read$"):
        gunzip(bomb, 16 * MB, what="the bomb")
    assert peak_while(lambda: gunzip(bomb, 16 * MB)) < 4 * MB  # gzip.decompress: 64 MB
    assert gunzip(bomb, 64 * MB) == bytes(64 * MB)  # exactly at the limit: read


def test_a_gzipped_fragment_that_unpacks_past_the_limit_is_a_fragment_error(tmp_path, monkeypatch):
    monkeypatch.setattr(fragment_format, "MAX_BYTES", 16 * MB)
    path = tmp_path / "brake.json.gz"
    path.write_bytes(zeros_gzip(64 * MB))
    with pytest.raises(fragment_format.FragmentError, match=r"brake\.json\.gz unpacks to more than 16 MB"):
        fragment_format.read(path)
    assert peak_while(lambda: fragment_format.read(path)) < 4 * MB
    path.write_bytes(gzip.compress(b'{"format": "safereq-fragment"')[:-9])
    with pytest.raises(fragment_format.FragmentError, match="damaged gzip"):
        fragment_format.read(path)


def zip_bomb(path, sizes: dict[str, int]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, size in sizes.items():
            with archive.open(name, "w") as member:
                for _ in range(size // MB):
                    member.write(bytes(MB))


def test_an_archive_is_measured_by_all_its_members(tmp_path):
    path = tmp_path / "a.zip"
    zip_bomb(path, {"a.reqif": 10 * MB, "b.bin": 10 * MB})  # 20 MB together
    check_zip(path, 20 * MB)
    with pytest.raises(TooLargeUnpacked, match=r"a\.zip unpacks to more than 19 MB .*reached in 'b\.bin'"):
        check_zip(path, 19 * MB)


def test_a_member_that_unpacks_past_its_stated_size_is_cut_there_by_zipfile(tmp_path):
    """Why the archive's stated sizes may be trusted: a forged small size does not let more through."""
    path = tmp_path / "forged.zip"
    zip_bomb(path, {"a.reqif": 2 * MB})
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # the local and the directory entry
        at = data.find(signature) + offset
        data[at:at + 4] = (1000).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    check_zip(path, 1000)
    got = 0
    with zipfile.ZipFile(path) as archive, archive.open("a.reqif") as member:
        with pytest.raises(zipfile.BadZipFile, match="CRC"):
            while piece := member.read(100):
                got += len(piece)
    assert got <= 1000  # of the 2 MB the data inflates to


def test_a_reqifz_bomb_is_refused_before_the_reqif_library_unpacks_it(tmp_path, monkeypatch):
    monkeypatch.setattr(unpack, "MAX_UNPACKED_BYTES", 16 * MB)
    path = tmp_path / "bomb.reqifz"
    zip_bomb(path, {"spec.reqif": 64 * MB})
    with pytest.raises(InputError, match=r"bomb\.reqifz unpacks to more than 16 MB .*'spec\.reqif'\); not read"):
        parse_file(path)
    assert peak_while(lambda: parse_file(path)) < 4 * MB  # the library alone: 64 MB read, then decoded
