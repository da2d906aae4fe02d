"""``safereq merge FRAGMENT...``: check many repositories as one from the fragments their CI jobs wrote.

Each repository's job runs ``safereq check --fragment OUT``; this step reads every fragment, takes their
item and document findings as they are and runs the rules that need all repositories (links between them,
ASIL inheritance across them, duplicate IDs, coverage) once. Output formats and exit status as
``safereq check``: 0 no errors, 1 errors found, 2 a usage, fragment or configuration problem. See
docs/multi-repo.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .check import add_report_options


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "merge", help="check the fragments of many repositories as one workspace",
        description="Read fragments written by `safereq check --fragment`, and report the findings of the "
                    "repositories checked as one workspace. Paths are shown as NAME/PATH, NAME being each "
                    "fragment's name. Exit status: 0 no errors, 1 errors found, 2 usage or fragment error.",
    )
    p.add_argument("fragments", nargs="+", metavar="FRAGMENT", help="fragment files (JSON, or gzipped *.gz)")
    add_report_options(p)
    p.add_argument("--config", metavar="FILE", help="the configuration for the rules run over all repositories "
                                                   "(default: searched from the current folder)")
    p.add_argument("-q", "--quiet", action="store_true", help="print findings only: no summary")
    p.set_defaults(handler=run, fast_exit=True)


def run(args: argparse.Namespace) -> int:
    from ..fragment.format import FragmentError
    from .errors import guarded

    return guarded(_run, args, FragmentError)



def _run(args: argparse.Namespace) -> int:
    from ..checks import all_rule_infos
    from ..checks.config import load_config, load_config_file
    from ..checks.engine import Checker
    from ..checks.findings import Severity
    from ..fragment.format import FragmentError, read
    from ..fragment.merge import merge
    from ..model.vocabulary import load_vocabulary
    from ..workspace import Workspace
    from ..workspace.memory import gc_paused
    from .check import _emit, _render

    if args.config:
        if not Path(args.config).is_file():
            raise FragmentError(f"{args.config}: configuration file not found")
        config = load_config_file(Path(args.config))
    else:
        config = load_config(Path.cwd())
    with gc_paused():  # reading fragments and parsing their documents makes no cycles for the collector
        fragments = [read(Path(p)) for p in args.fragments]
        checker = Checker(config)
        merged = merge(fragments, checker, Workspace(load_vocabulary(config.kinds) if config.kinds else None))
        args.retained = merged
    severities = {rid: checker.severities.get(rid) for rid in checker.rules}
    _emit(_render(args.format, merged.findings, all_rule_infos(), severities, Path.cwd()), args.output)
    if not args.quiet:
        from ..report.text import summary

        print(f"safereq: merged {len(fragments)} fragments: " + summary(merged.findings, merged.documents),
              file=sys.stderr)
    return 1 if any(f.severity == Severity.ERROR for f in merged.findings) else 0
