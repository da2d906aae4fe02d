"""``safereq check`` with a persistent cache (ruff's model): unchanged documents are not checked again.

Two kinds of entry, both in a :class:`~.disk_cache.DiskCache`:

- per document, keyed by its path, the digest of its bytes and the engine key (safereq's version and code,
  the rules' configuration): its item- and document-scope findings and the digest of its *facts*, what
  workspace-scope rules may read of it (items' IDs, kinds, headings, attributes and links, HARA rows, with
  their positions: the contract in docs/dev/architecture.md, the same shapes the editor's incremental path
  compares);
- per workspace, keyed by the engine key and every document's path and facts digest: the workspace-scope
  findings.

A re-run of unchanged files reads the files, hashes them and loads the entries; after an edit that leaves
the facts alone (a statement reworded) only the edited document is parsed and checked. When facts changed
the documents are parsed again (pickling a parsed document costs more than parsing it: 1.3 s against
0.8 s for 20,000 requirements) and the workspace-scope rules run, but no unchanged document's items are
checked again. With a recorded review the linked rules (which compare statements with the review) run on
every check, and the workspace entry is not used. Findings come out in the order :meth:`Checker.check`
gives, so a cached run prints byte for byte what an uncached one prints.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from ... import __version__
from ...data import rules_dir
from ...model.document import Document
from ...workspace import Workspace
from ..config import Config
from ..findings import Finding
from .checker import Checker
from .disk_cache import DiskCache, open_cache, user_cache_dir, user_key
from .parallel import COMPACT, Source, local_check, parse_and_check

FORMAT = 1  # of the entries' contents; part of every key


def _digest(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()


@cache
def code_fingerprint() -> str:
    """safereq's version and the size and time of every module and rule file: an edited rule or a new
    release never reads the findings of another. Once per process (the configuration's cache and the
    engine key both ask; ~300 files stated)."""
    package = Path(__file__).resolve().parents[2]
    stats = []
    for root in (package, rules_dir()):
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".yaml", ".yml", ".json", ".txt", ".md")):
                    st = os.stat(os.path.join(folder, name))
                    stats.append((os.path.relpath(os.path.join(folder, name), root), st.st_size, st.st_mtime_ns))
    return _digest(__version__, FORMAT, stats)


def engine_key(checker: Checker) -> str:
    """What decides findings besides the documents: the code, the configuration and the severities."""
    return _digest(code_fingerprint(), repr(checker.config), sorted((r, s.value) for r, s in checker.severities.items()))


def facts_digest(doc: Document) -> str:
    """What workspace-scope rules may read of ``doc``, positions included (so their findings need no move).

    Those rules read no statement text (the contract, held by tests/checks/test_engine_contracts.py), so
    this is the document's text with every statement segment cut out, plus what the rules do read of a
    statement: where it lies, the item's language, and where it ends when the item has no attributes (where
    asil/missing reports). Cheaper than the items' shapes by an order of magnitude.
    """
    lines = doc.text.split("\n")
    cuts: dict[int, list[tuple[int, int]]] = {}
    items = []
    for item in doc.items:
        statement = item.statement
        segments = statement.segments
        if not segments:
            items.append((item.line, item.language))
            continue
        shift = statement.anchor.shift
        for line, col, text in segments:
            cuts.setdefault(line + shift, []).append((col, col + len(text)))
        first, last = segments[0], segments[-1]
        end = None if item.attributes else last[1] + len(last[2])
        items.append((item.line, item.language, first[0] + shift, first[1], last[0] + shift, end))
    for number, spans in cuts.items():
        if 0 <= number < len(lines):
            text, out, at = lines[number], [], 0
            for start, stop in sorted(spans):
                out.append(text[at:start])
                at = stop
            out.append(text[at:])
            lines[number] = "\x00".join(out)
    # The items serialised by marshal (format 2, which has no back-references, so the bytes depend on the
    # values alone), the lines hashed as one string (they hold no newline, so joining them keeps them
    # apart): the repr of the list of items, and before it the repr of 7 MB of lines, were most of the time.
    digest = hashlib.blake2b(marshal.dumps((doc.path, doc.language, doc.line_count, items), 2), digest_size=20)
    digest.update(b"\n")
    digest.update("\n".join(lines).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def check_with_cache(sources: Sequence[Source], ws: Workspace, checker: Checker, jobs: int,
                     cache: DiskCache, uncacheable: Callable[[Source], bool] | None = None) -> list[Finding]:
    """``checker.check`` of ``sources`` loaded into ``ws``, reusing and refreshing the entries of ``cache``.

    ``ws`` holds every document when the workspace-scope rules ran, and none when their entry was used:
    callers that need the documents (fixes, coverage) parse them. When ``uncacheable`` says so of a document
    without an entry, the run is an uncached one (:func:`parse_and_check`, nothing read or written): entries
    are written only by runs where it said so of none, so a document that has one need not be asked.
    """
    key = engine_key(checker)
    names = {s.path: _digest("doc", key, s.path, s.digest) for s in sources}
    local: dict[str, list[Finding]] = {}
    facts: dict[str, str] = {}
    for s in sources:
        entry = cache.get(names[s.path])
        if _valid_doc_entry(entry):
            local[s.path], facts[s.path] = entry[0], entry[1]
    todo = [s for s in sources if s.path not in local]
    if uncacheable is not None and any(map(uncacheable, todo)):
        return parse_and_check(sources, ws, checker, jobs)
    linked = checker.review is not None and checker.review.recorded
    if todo and len(todo) * 2 <= len(sources) and not linked:
        # A few edited documents: check them on their own; the workspace entry may still hold (their facts
        # unchanged), and then nothing else is parsed. The order of documents in ``ws`` stays that of a run
        # without a cache (a rule may report the first of two definitions).
        scratch = Workspace(ws.vocabulary)
        found = local_check(todo, scratch, checker, jobs)
        for s in todo:
            local[s.path], facts[s.path] = found[s.path], facts_digest(scratch.documents[s.path])
            cache.put(names[s.path], (local[s.path], facts[s.path]))
        todo = []
    ws_name = _digest("workspace", key, sorted(facts.items())) if not todo else ""
    workspace = cache.get(ws_name) if ws_name and not linked else None
    if _valid_findings(workspace):
        findings = _merged(local, workspace)
    else:
        findings = parse_and_check(sources, ws, checker, jobs, known=local)
        mine: set[int] = set()
        for s in sources:
            doc = ws.documents[s.path]
            if s.path not in local:
                local[s.path], facts[s.path] = checker.local_findings(ws, [s.path])[s.path], facts_digest(doc)
                cache.put(names[s.path], (local[s.path], facts[s.path]))
            mine.update(map(id, local[s.path]))
        if not linked:
            ws_name = _digest("workspace", key, sorted(facts.items()))
            cache.put(ws_name, [f for f in findings if id(f) not in mine])
    cache.prune(set(names.values()) | {ws_name})
    return findings


def load_config_cached(path: Path, load: Callable[[Path], Config]) -> Config:
    """``load(path)``, remembered per user by the file's bytes and safereq's code: a re-run with the same
    configuration file neither parses its TOML nor imports pydantic to validate it. Only a configuration that
    holds no pydantic settings ([index], [llm], [corpora]) is kept; an invalid one is never kept (it raises)."""
    key = user_key()
    try:
        data = path.read_bytes()
    except OSError:
        return load(path)  # the loader says why
    if key is None:
        return load(path)
    cache = DiskCache(user_cache_dir() / "check-configs", key)
    name = _digest("config", code_fingerprint(), str(path.resolve()), data)
    hit = cache.get(name)
    if isinstance(hit, Config) and hit.source == path:
        return hit
    config = load(path)
    if config.index_settings is None and config.llm_settings is None and config.corpora_settings is None:
        cache.put(name, config)
        cache.prune({name})
    return config


def open_check_cache(folder: Path) -> DiskCache | None:
    """The check cache in ``folder`` (None when the user has no key), pickling findings compactly."""
    return open_cache(folder, COMPACT)


def _merged(local: dict[str, list[Finding]], workspace: list[Finding]) -> list[Finding]:
    """Every path's local and workspace findings, sorted as :meth:`Checker.check` sorts them."""
    by_path: dict[str, list[Finding]] = {}
    for f in workspace:
        by_path.setdefault(f.path, []).append(f)
    out: list[Finding] = []
    for path in sorted(local):
        out.extend(sorted(local[path] + by_path.get(path, []), key=Finding.sort_key))
    return out


def _valid_doc_entry(entry: Any) -> bool:
    return (isinstance(entry, tuple) and len(entry) == 2 and _valid_findings(entry[0])
            and isinstance(entry[1], str))


def _valid_findings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(f, Finding) for f in value)
