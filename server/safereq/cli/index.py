"""``safereq index [PATH...]``: build or update the knowledge base; ``--status`` lists what is indexed.

With no PATH it indexes the shipped corpora (MIL-STD-882E, NHTSA ALC report, Voyage OAS, the clause
catalogue). With PATHs it indexes those files/folders (Markdown, text, PDF), e.g. a licensed standard the
user owns; that text stays in the local index folder.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


DAMAGED = 3  # exit code: the index is damaged (the message says whether 'safereq index' or --rebuild repairs it)
# Other store faults have their own codes (4 incomplete, 5 store unreachable, 6 no bucket, 7 credentials
# refused): see safereq.knowledge.faults and docs/cli.md.


def add_index_options(p: argparse.ArgumentParser) -> None:
    """Options shared by ``index`` and ``search``: where the index is and which embedder built it."""
    p.add_argument("--index-dir", metavar="DIR",
                   help="index folder or object-store URI, e.g. s3://bucket/prefix (credentials from the "
                        "environment; default: $SAFEREQ_INDEX or ./.safereq/index)")
    p.add_argument("--embedder", choices=["e5", "openai", "none"],
                   help="embedding backend (default: $SAFEREQ_EMBEDDER or e5, the bundled multilingual model)")
    p.add_argument("--embed-url", metavar="URL", help="OpenAI-compatible base URL for --embedder openai")
    p.add_argument("--embed-model", metavar="NAME", help="model name for --embedder openai")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("index", help="index the shipped corpora or your own standards for search and citations",
                       description="Index Markdown, text and PDF files into the local knowledge base. With no "
                                   "PATH, index the corpora shipped with safereq. Unchanged files are skipped.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to index")
    p.add_argument("--status", action="store_true", help="list the indexed files and when they were indexed")
    p.add_argument("--document", metavar="ID",
                   help='name the document in the given file, e.g. "ISO 26262-6:2018" (default: detected)')
    p.add_argument("--force", action="store_true", help="re-index files even when unchanged")
    p.add_argument("--rebuild", action="store_true",
                   help="throw the index away and build it again (the cure for a damaged index)")
    p.add_argument("--text-only", action="store_true",
                   help="stop once full-text search works; the next 'safereq index' fills in the vectors")
    p.add_argument("--json", action="store_true", help="print the report (or --status) as JSON")
    add_index_options(p)
    p.set_defaults(handler=run)


def _config(args: argparse.Namespace, command: str = "index"):
    """The knowledge settings of this run; exits with a message when the index location cannot be used."""
    from ..knowledge.config import KnowledgeConfig
    from ..knowledge.location import LocationError

    try:
        return KnowledgeConfig.resolve(args.index_dir, embedder=args.embedder, url=args.embed_url,
                                       model=args.embed_model)
    except LocationError as exc:
        print(f"safereq {command}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _progress_bar():
    """A one-line progress bar on stderr when it is a terminal; silent otherwise."""
    if not sys.stderr.isatty():
        return None
    import shutil

    def draw(event) -> None:
        if event.phase == "done":
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            return
        width = max(10, min(40, shutil.get_terminal_size((80, 20)).columns - 50))
        counted = {"index": "files", "page": "pages", "vectors": "vectors"}
        filled = int(event.fraction * width) if event.phase in counted else width
        label = f"{event.done}/{event.total} {counted[event.phase]}" if event.phase in counted else event.phase
        sys.stderr.write(f"\r\033[K[{'#' * filled}{'.' * (width - filled)}] {label}  {event.message[:40]}")
        sys.stderr.flush()
    return draw


def run(args: argparse.Namespace) -> int:
    from ..knowledge.embeddings import EmbeddingError
    from ..knowledge.indexer import IndexError_
    from ..knowledge.manifest import ManifestError

    config = _config(args)
    args.index_location = config.index_dir
    if args.status:
        return _status(config, args.json, args)
    from ..knowledge.faults import redact
    from ..knowledge.indexer import index_paths
    from ..knowledge.store_schema import StoreError

    try:
        report = index_paths(config, [Path(p) for p in args.paths], document=args.document,
                             progress=_progress_bar(), force=args.force, vectors=not args.text_only,
                             rebuild=args.rebuild)
    except StoreError as exc:
        return store_failed(args, "index", exc)
    except (IndexError_, ManifestError, EmbeddingError, ValueError) as exc:
        print(f"safereq index: {redact(str(exc), config.index_dir)}", file=sys.stderr)
        return 2
    if report.repaired:
        print(f"safereq index: {report.repaired}", file=sys.stderr)
    if args.json:
        import json

        print(json.dumps({"index": str(config.index_dir), "indexed": report.indexed, "skipped": report.skipped,
                          "empty": report.empty, "removed": report.removed,
                          "failed": [{"source": s, "error": e} for s, e in report.failed],
                          "chunks": report.chunks_written, "embedded": report.embedded,
                          "reused": report.embed_cache_hits, "pages": report.pages,
                          "seconds": round(report.seconds, 2), "text_seconds": round(report.text_seconds, 2),
                          "vector_seconds": round(report.vector_seconds, 2),
                          "vectors_pending": report.vectors_pending}, indent=2))
    else:
        print(f"indexed {len(report.indexed)} file(s): {report.chunks_written} chunks "
              f"({report.embedded} embedded, {report.embed_cache_hits} reused); "
              f"{len(report.skipped)} unchanged, "
              + (f"{len(report.empty)} without text, " if report.empty else "")
              + f"{len(report.removed)} removed, {len(report.failed)} failed "
              f"in {report.seconds:.1f} s -> {config.index_dir}")
        if report.embedded or report.vectors_pending:
            print(f"  full-text search ready after {report.text_seconds:.1f} s; vectors "
                  + (f"pending for {report.vectors_pending} chunks (run safereq index again to fill them in)"
                     if report.vectors_pending else f"filled in {report.vector_seconds:.1f} s"))
        for source, error in report.failed:
            print(f"  failed: {error}" if source in error else f"  failed: {source}: {error}", file=sys.stderr)
    return 1 if report.failed else 0


def store_failed(args: argparse.Namespace, command: str, exc: BaseException) -> int:
    """Say a store error in one line (redacted) and return its exit code; a command whose store did not answer
    leaves without waiting for the store client's threads (``fast_exit``)."""
    from ..knowledge.faults import StoreUnreachable, exit_code, redact

    print(f"safereq {command}: {redact(str(exc), getattr(args, 'index_location', None))}", file=sys.stderr)
    if isinstance(exc, StoreUnreachable):
        args.fast_exit = True
    return exit_code(exc)


def _status(config, as_json: bool, args: argparse.Namespace) -> int:
    from ..knowledge.faults import IndexMissing
    from ..knowledge.integrity import health_error, inspect
    from ..knowledge.reader import TableReader
    from ..knowledge.store_schema import StoreError

    try:
        health = inspect(config.index_dir)
        if health.state == "missing":
            raise IndexMissing(f"no index at {config.index_dir}; run 'safereq index' first")
        problem = health_error(config.index_dir, health)
        if problem is not None:
            raise problem
        store = TableReader(config.index_dir)  # the read path: no LanceDB import for a listing
        files = store.files()
        model, dim = store.model()
        version = store.dataset.version
    except StoreError as exc:
        return store_failed(args, "index", exc)
    local = isinstance(config.index_dir, Path)  # an object store is not listed just to add up sizes
    size = sum(p.stat().st_size for p in config.index_dir.rglob("*") if p.is_file()) if local else None
    if as_json:
        import json

        print(json.dumps({"index": str(config.index_dir), "model": model, "dimension": dim, "version": version,
                          "bytes": size, "files": [{"source": f.source, "document": f.document,
                                                    "chunks": f.chunks, "indexed_at": f.indexed_at,
                                                    "sha256": f.content_hash} for f in files]}, indent=2))
        return 0
    print(f"index {config.index_dir}: {sum(f.chunks for f in files)} chunks from {len(files)} file(s), "
          f"model {model} ({dim}-d), version {version}" + (f", {size / 1e6:.1f} MB" if size is not None else ""))
    width = max((len(f.source) for f in files), default=10)
    for f in files:
        print(f"  {f.source:<{width}}  {f.document:<16} {f.chunks:>5} chunks  {f.indexed_at}  {f.content_hash[:12]}")
    return 0
