"""The bytes and chunks of one file to index, shared by the indexer and the no-op check (:mod:`..freshness`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from . import Chunk, IngestError, chunk_source
from .catalogue_chunks import catalogue_chunks


class FileJob(Protocol):
    """What chunking needs of an index job (``indexer.Job``)."""

    @property
    def path(self) -> Path: ...
    @property
    def kind(self) -> str: ...
    @property
    def document(self) -> str | None: ...
    @property
    def year(self) -> str | None: ...
    @property
    def title(self) -> str | None: ...
    @property
    def root_label(self) -> str | None: ...


def chunk_job(job: FileJob, data: bytes, on_page: Callable[[int, int], None] | None = None) -> tuple[list[Chunk], int]:
    """The chunks of one job's file and its page count (0 when it has no pages); ``on_page`` see chunk_source."""
    if job.kind == "catalogue":
        _meta, chunks = catalogue_chunks(job.path)
        return chunks, 0
    parsed = chunk_source(job.path, data, document=job.document, year=job.year, title=job.title,
                          root_label=job.root_label, on_page=on_page)
    return parsed.chunks, parsed.pages


def read_bytes(path: Path) -> bytes:
    """The file's bytes; :class:`IngestError` with a message when it is over the size limit or unreadable."""
    from .readers import MAX_PDF_BYTES, MAX_TEXT_BYTES

    try:
        size = path.stat().st_size
        limit = MAX_PDF_BYTES if path.suffix.lower() == ".pdf" else MAX_TEXT_BYTES
        if size > limit:
            raise IngestError(f"{path}: {size // 1_000_000} MB is over the {limit // 1_000_000} MB limit; not indexed")
        return path.read_bytes()
    except OSError as exc:
        raise IngestError(f"{path}: cannot read ({exc.strerror or exc})") from None
