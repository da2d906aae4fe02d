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


def _index_dir(args: argparse.Namespace, config) -> IndexLocation:
    from ...knowledge.location import index_location
    from ...knowledge.paths import default_index_dir

    if args.index_dir:
        return index_location(args.index_dir)
    raw = config.index.path
    if raw and config.source is not None:
        return index_location(str(raw), base=config.source.parent)
    return default_index_dir()


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
    os.environ.setdefault("LANCE_LOG", "error")
    from ..writing.generate import Cancelled, LLMSettings
    from ..retrieval.knowledge import open_source
    from .pipeline import AgentRequest, Assistant
    from ..proposing.render import text_report

    llm = LLMSettings() if args.offline else LLMSettings.resolve(
        config.llm.values(), base_url=args.llm_base_url, model=args.llm_model)
    source, note = open_source(_index_dir(args, config))
    assistant = Assistant(source, llm, note)
    try:
        result = assistant.run(AgentRequest(task, view, question, max_hops=args.max_hops))
    except Cancelled:
        print(f"safereq {task}: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(result.to_json(with_trace=args.verbose), ensure_ascii=False, indent=2))
    else:
        print(text_report(result))
        if args.verbose:
            print("\n".join(f"step: {t}" for t in result.trace))
    return 0
