"""``safereq search "query"``: ranked clauses with scores, as text or JSON.

``--queries FILE`` runs one query per line (``-`` = stdin) and prints one JSON array per line, loading the
model and opening the index once, which is what evaluation scripts and the agent's batch mode want.
"""

from __future__ import annotations

import argparse
import sys

from .index import DAMAGED, _config, add_index_options, store_failed


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("search", help="search the knowledge base; prints ranked clauses with scores",
                       description="Hybrid (full-text + vector) search over the indexed standards and corpora. "
                                   "Every result names its document, clause, title, page and exact text.")
    p.add_argument("query", nargs="?", help="what to look for (any language the model knows, e.g. English, 中文)")
    p.add_argument("--limit", type=int, default=5, metavar="N", help="how many results (default 5)")
    p.add_argument("--json", action="store_true", help="print a JSON array of results")
    p.add_argument("--queries", metavar="FILE", help="one query per line ('-' for stdin); one JSON array per line")
    p.add_argument("--document", metavar="ID", help='only this document or standard, e.g. "ISO 26262-9" or "ISO 26262"')
    p.add_argument("--part", metavar="N", help="only this part of a multi-part standard")
    p.add_argument("--clause", metavar="PREFIX", help="only this clause and the clauses below it, e.g. 5.4")
    p.add_argument("--mode", choices=["hybrid", "fts", "vector"], default="hybrid", help="ranking (default hybrid)")
    p.add_argument("--rerank", action="store_true", help="re-score the top candidates (clause references, titles)")
    add_index_options(p)
    p.set_defaults(handler=run)


def _print_text(hits) -> None:
    import textwrap

    if not hits:
        print("no results")
        return
    for i, h in enumerate(hits, start=1):
        page = f"  (p. {h.page})" if h.page else ""
        print(f"{i:>2}. {h.score:6.3f}  {h.citation}  {h.title if h.clause else ''}{page}".rstrip())
        snippet = " ".join(h.text.split())
        print(textwrap.indent(textwrap.shorten(snippet, 300, placeholder=" …"), "      "))


def run(args: argparse.Namespace) -> int:
    import json

    from ..knowledge.store_schema import StoreError

    if not args.query and not args.queries:
        print("safereq search: give a query or --queries FILE", file=sys.stderr)
        return 2
    if args.limit < 1:
        print("safereq search: --limit must be at least 1", file=sys.stderr)
        return 2
    config = _config(args, "search")
    args.index_location = config.index_dir
    from ..knowledge import open_knowledge_base

    try:
        kb = open_knowledge_base(config=config)
    except StoreError as exc:
        return store_failed(args, "search", exc)
    opts = dict(limit=args.limit, document=args.document, part=args.part, clause_prefix=args.clause,
                mode=args.mode, rerank=args.rerank)
    try:
        _note_pending_vectors(kb)
        if args.queries:
            stream = sys.stdin if args.queries == "-" else open(args.queries, encoding="utf-8")  # noqa: SIM115
            with stream:
                for line in stream:
                    query = line.strip()
                    hits = kb.search(query, **opts) if query else []
                    print(json.dumps([h.to_json() for h in hits], ensure_ascii=False), flush=True)
            return 0
        hits = kb.search(args.query, **opts)
    except StoreError as exc:
        return store_failed(args, "search", exc)
    except OSError as exc:
        print(f"safereq search: cannot read {args.queries}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except (ValueError, RuntimeError) as exc:  # RuntimeError: LanceDB failed reading (damaged after opening)
        from ..knowledge.integrity import REPAIR_HINT, short

        print(f"safereq search: {short(exc)}" + ("" if isinstance(exc, ValueError) else f"; {REPAIR_HINT}"),
              file=sys.stderr)
        return 2 if isinstance(exc, ValueError) else DAMAGED
    if args.json:
        print(json.dumps([h.to_json() for h in hits], ensure_ascii=False, indent=2))
    else:
        _print_text(hits)
    return 0


def _note_pending_vectors(kb) -> None:
    """Say on stderr when part of the index has no vectors yet (text indexed first): results lean on full text."""
    try:
        pending, total = kb.store.pending_count(), kb.store.count()
    except (OSError, RuntimeError):
        return  # the search itself reports a damaged index
    if pending:
        print(f"safereq search: vectors pending for {pending} of {total} chunks; those are found by full-text "
              "search only until 'safereq index' finishes", file=sys.stderr)
