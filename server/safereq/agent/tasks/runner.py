"""What ``safereq derive|links|rebut|ask`` share: options, loading the item's workspace, running, printing.

``FILE#ID`` names the item; the workspace is every Markdown document under the folder of the configuration
that applies to FILE (``safereq.toml`` / ``[tool.safereq]``), or FILE's own folder when there is none, so
parents, children and existing IDs are known. The index is ``--index-dir``, else ``[tool.safereq.index]
path``, else ``$SAFEREQ_INDEX`` or ``./.safereq/index``; without an index the clause catalogue is used. An
LLM is used only when a base URL and model are configured (flags, ``[tool.safereq.llm]``,
``SAFEREQ_LLM_BASE_URL``/``SAFEREQ_LLM_MODEL``) and ``--offline`` is not given.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ...knowledge.location import IndexLocation


class UsageError(Exception):
    """A problem with the command line or its inputs, reported without a traceback (exit status 2)."""


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print the suggestions as JSON")
    p.add_argument("--verbose", action="store_true", help="also print the agent's steps (plan, routing, loop)")
    p.add_argument("--index-dir", metavar="DIR", help="knowledge-base index (default: $SAFEREQ_INDEX or ./.safereq/index)")
    p.add_argument("--offline", action="store_true", help="never call an LLM, even when one is configured")
    p.add_argument("--llm-base-url", metavar="URL", help="OpenAI-compatible endpoint (default: $SAFEREQ_LLM_BASE_URL)")
    p.add_argument("--llm-model", metavar="NAME", help="model name (default: $SAFEREQ_LLM_MODEL)")
    p.add_argument("--max-hops", type=int, default=8, metavar="N", help="hop budget of the evidence loop (default 8)")


def _config(start: Path):
    """The configuration for ``start``; a broken one is reported and replaced by defaults (the checks, not
    the assistant, are what a rule-setting error concerns)."""
    from ...checks.config import Config, ConfigError, load_config

    try:
        return load_config(start)
    except ConfigError as exc:
        print(f"safereq: warning: {exc}; using the default configuration", file=sys.stderr)
        return Config()


def index_dir_for(index_dir: str | None, config, workspace: Path | None = None) -> IndexLocation:
    """The index to read: ``index_dir`` when given, else the configuration's, else the default (in
    ``workspace``, by default the working directory)."""
    from ...knowledge.location import index_location
    from ...knowledge.paths import default_index_dir

    if index_dir:
        return index_location(index_dir)
    raw = config.index.path
    if raw and config.source is not None:
        return index_location(str(raw), base=config.source.parent)
    return default_index_dir(workspace)


def load_item(target: str):
    """The workspace around ``FILE#ID`` and the item; raises :class:`UsageError` with a clear message."""
    from ...model.vocabulary import load_vocabulary
    from ...workspace import Workspace
    from ...workspace.loader import Excluder, load

    file, sep, item_id = target.rpartition("#")
    if not sep or not file or not item_id:
        raise UsageError(f"expected FILE#ID (e.g. examples/functional-safety-concept.md#FSR-1), got {target!r}")
    path = Path(file)
    if not path.is_file():
        raise UsageError(f"{file}: no such file")
    config = _config(path.resolve().parent)
    root = config.source.parent if config.source else path.resolve().parent
    loaded = load([root], excluder=Excluder(config.exclude, root))
    ws = Workspace(load_vocabulary(config.kinds) if config.kinds else None)
    for source in loaded.sources:
        ws.update(str(Path(source.fs_path).resolve()), source.text)
    key = str(path.resolve())
    if key not in ws.documents:
        from ...workspace.loader import read_source

        one = read_source(path)
        if not hasattr(one, "text"):
            raise UsageError(f"{file}: {one.message}")
        ws.update(key, one.text)
    item = next((it for it in ws.definitions(item_id) if it.path == key), None)
    if item is None:
        raise UsageError(f"{item_id} is not defined in {file}")
    return ws, item, config


def run(args: argparse.Namespace, task: str) -> int:
    try:
        return _run(args, task)
    except UsageError as exc:
        print(f"safereq {task}: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace, task: str) -> int:
    from ..item.context import not_modal_words, workspace_view

    if args.max_hops < 0:
        raise UsageError("--max-hops must be 0 or more")
    if task == "ask":
        from ...workspace import Workspace

        config = _config(Path.cwd())
        view = workspace_view(Workspace(), None)
        question = args.question.strip()
        if not question:
            raise UsageError("give a question")
    else:
        ws, item, config = load_item(args.target)
        view = workspace_view(ws, item, not_modal_words(config))
        question = ""
    from ..writing.generate import Cancelled

    try:
        result = suggest(task, view, config, question, index_dir=args.index_dir, offline=args.offline,
                         base_url=args.llm_base_url, model=args.llm_model, max_hops=args.max_hops)
    except Cancelled:
        print(f"safereq {task}: interrupted", file=sys.stderr)
        return 130
    from ..proposing.render import text_report

    if args.json:
        print(json.dumps(result.to_json(with_trace=args.verbose), ensure_ascii=False, indent=2))
    else:
        print(text_report(result))
        if args.verbose:
            print("\n".join(f"step: {t}" for t in result.trace))
    return 0


def suggest(task: str, view, config, question: str = "", *, index_dir: str | None = None, offline: bool = False,
            base_url: str | None = None, model: str | None = None, max_hops: int = 8, knowledge=None):
    """The assistant's answer to ``task`` (derive, links, rebut, ask) on the item of ``view``: what the CLI
    prints and the MCP server returns, so both give the same suggestions. ``knowledge`` is an opened
    (source, note) pair to reuse (a long-running server opens the index once), else the index of
    ``index_dir`` / the configuration is opened. The LLM is used only when a base URL and model are
    configured and ``offline`` is false; nothing is written."""
    from ..writing.generate import LLMSettings
    from .pipeline import AgentRequest, Assistant

    llm = LLMSettings() if offline else LLMSettings.resolve(config.llm.values(), base_url=base_url, model=model)
    source, note = knowledge if knowledge is not None else open_knowledge(index_dir, config)
    return Assistant(source, llm, note).run(AgentRequest(task, view, question, max_hops=max_hops))


def open_knowledge(index_dir: str | None, config, workspace: Path | None = None):
    """The assistant's knowledge source and a note on what it is (the index, else the clause catalogue)."""
    os.environ.setdefault("LANCE_LOG", "error")
    from ..retrieval.knowledge import open_source

    return open_source(index_dir_for(index_dir, config, workspace))
