"""``safereq ask "question"``: answer a question from the knowledge base, with verified citations.

Offline the answer is extractive (the best-matching sentences of the clauses found); with an endpoint
configured the model writes it from the same evidence. See :mod:`safereq.agent.tasks.runner` and docs/agent.md.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ask", help="answer a question from the indexed standards, with verified citations",
                       description="Answer a question from the indexed standards and corpora; every citation is "
                                   "checked against the indexed clause text.")
    p.add_argument("question", help='the question, e.g. "how is an ASIL D requirement decomposed?"')
    from ..agent.tasks.runner import add_options

    add_options(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..agent.tasks.runner import run as run_task

    return run_task(args, "ask")
