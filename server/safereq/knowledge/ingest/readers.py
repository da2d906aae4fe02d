"""Reading source files into pages of text, refusing hostile input with a clear message.

A source is Markdown, plain text or a PDF with a text layer. Pages matter because citations show them: a PDF
has real pages; a text file made with ``pdftotext`` keeps form feeds between pages, which we honour; Markdown
has no pages. Anything binary, oversized, encrypted or without a text layer raises :class:`IngestError`
whose message is meant for the user, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

MAX_TEXT_BYTES = 50_000_000
MAX_PDF_BYTES = 300_000_000
MAX_PDF_PAGES = 5_000

TEXT_SUFFIXES = {".txt", ".text"}
MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown"}
PDF_SUFFIXES = {".pdf"}
CATALOGUE_SUFFIXES = {".yaml", ".yml"}
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | MARKDOWN_SUFFIXES | PDF_SUFFIXES | CATALOGUE_SUFFIXES


class IngestError(Exception):
    """A file that cannot be indexed; ``str(err)`` is a message for the user."""


@dataclass(frozen=True, slots=True)
class SourceText:
    """The text of one file: ``pages[i]`` is page i+1 (one page for Markdown and plain text without form feeds)."""

    kind: str  # "markdown" | "text" | "pdf" | "catalogue"
    pages: tuple[str, ...]
    has_pages: bool


def source_kind(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix in TEXT_SUFFIXES:
        return "text"
    if suffix in PDF_SUFFIXES:
        return "pdf"
    if suffix in CATALOGUE_SUFFIXES:
        return "catalogue"
    return None


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 (with or without BOM), else Windows-1252; refuse data that looks binary."""
    head = data[:65536]
    if b"\x00" in head:
        raise IngestError(f"{name}: looks like a binary file (NUL bytes); not indexed")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
        log.info("%s: not UTF-8; read as Windows-1252", name)
    sample = text[:65536]
    if sample:
        controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\n\r\t\f")
        if controls / len(sample) > 0.01 or sample.count("\ufffd") / len(sample) > 0.05:
            raise IngestError(f"{name}: looks like a binary file (control characters); not indexed")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_source(path: Path, data: bytes | None = None,
                on_page: Callable[[int, int], None] | None = None) -> SourceText:
    """Read ``path`` (or its already-read bytes) as pages of text; ``on_page(done, total)`` before each PDF page."""
    kind = source_kind(path)
    if kind is None:
        raise IngestError(f"{path}: unsupported file type {path.suffix or '(none)'}; "
                          "index Markdown, plain text or PDF")
    if data is None:
        try:
            size = path.stat().st_size
            limit = MAX_PDF_BYTES if kind == "pdf" else MAX_TEXT_BYTES
            if size > limit:
                raise IngestError(f"{path}: {size // 1_000_000} MB is over the {limit // 1_000_000} MB limit; not indexed")
            data = path.read_bytes()
        except OSError as exc:
            raise IngestError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if kind == "pdf":
        return _read_pdf(path, data, on_page)
    text = decode_text(data, str(path))
    if kind == "text" and "\f" in text:
        pages = tuple(text.split("\f"))
        if pages and not pages[-1].strip():
            pages = pages[:-1]
        return SourceText(kind, pages, True)
    return SourceText(kind, (text,), False)


def _read_pdf(path: Path, data: bytes, on_page: Callable[[int, int], None] | None = None) -> SourceText:
    """The text layer of every page, via pypdf (pure Python, so it installs everywhere)."""
    import io

    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise IngestError(f"{path}: not a PDF file (no %PDF header)")
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        from pypdf import PdfReader
        from pypdf.errors import PyPdfError
    except ImportError:  # pragma: no cover - pypdf is a declared dependency
        raise IngestError("PDF support needs the 'pypdf' package") from None
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except Exception:  # noqa: BLE001 - pypdf raises many types for broken crypto
                ok = 0
            if not ok:
                raise IngestError(f"{path}: the PDF is encrypted; save an unencrypted copy to index it")
        count = len(reader.pages)
    except IngestError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError,
            NotImplementedError, OSError) as exc:
        raise IngestError(f"{path}: malformed PDF ({exc.__class__.__name__}: {str(exc)[:120]})") from None
    if count > MAX_PDF_PAGES:
        raise IngestError(f"{path}: {count} pages is over the {MAX_PDF_PAGES}-page limit; not indexed")
    pages: list[str] = []
    failed = 0
    for i in range(count):
        if on_page is not None:
            on_page(i, count)
        try:
            pages.append(reader.pages[i].extract_text() or "")
        except Exception:  # noqa: BLE001 - one broken page must not lose the document
            failed += 1
            pages.append("")
    if failed:
        log.warning("%s: %d of %d pages could not be read and were left out", path, failed, count)
    if not any(p.strip() for p in pages):
        raise IngestError(f"{path}: the PDF has no text layer (a scan?); run OCR on it first")
    return SourceText("pdf", tuple(pages), True)
