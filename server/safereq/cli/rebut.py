"""``safereq rebut FILE#ID``: suggest rebuttals (defeaters) of a claim or requirement, each with a citation.

Offline unless an OpenAI-compatible endpoint is configured; see :mod:`safereq.agent.tasks.runner` and docs/agent.md.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rebut", help="suggest rebuttals (defeaters) of a claim or requirement, each with a citation",
                       description="suggest rebuttals (defeaters) of a claim or requirement, each with a citation. FILE#ID names the item, e.g. examples/functional-safety-concept.md#FSR-1.")
    p.add_argument("target", metavar="FILE#ID", help="the document and the item ID")
    from ..agent.tasks.runner import add_options

    add_options(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..agent.tasks.runner import run as run_task

    return run_task(args, "rebut")
