"""``safereq rules``: list every rule with its default severity, or print one rule's documentation."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="list the rules, or show the documentation of one rule",
                       description="List every rule with its default severity and summary, or print the "
                                   "documentation page of one rule (what it does, why, example, fix).")
    p.add_argument("rule", nargs="?", help="a rule id such as modal/weak-verb")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..checks import all_rule_infos

    infos = all_rule_infos()
    if args.rule:
        info = infos.get(args.rule)
        if info is None:
            from rapidfuzz import process

            guess = process.extractOne(args.rule, list(infos))
            hint = f"; did you mean '{guess[0]}'?" if guess and guess[1] > 70 else ""
            print(f"safereq: unknown rule '{args.rule}'{hint}", file=sys.stderr)
            return 2
        sys.stdout.write(info.docs_text())
        return 0
    if args.json:
        import json

        print(json.dumps([{"id": i.id, "severity": i.severity.label, "enabled": i.enabled,
                           "fixable": i.fixable, "summary": i.summary} for i in infos.values()], indent=2))
        return 0
    width = max(len(r) for r in infos)
    for info in infos.values():
        state = info.severity.label if info.enabled else "off"
        fix = "fix" if info.fixable else "   "
        print(f"{info.id:<{width}}  {state:<7} {fix}  {info.summary}")
    return 0
