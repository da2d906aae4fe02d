"""Where the checks spend their CPU time, rule by rule: cold check and re-checks after one-line edits.

    /work/main/.venv/bin/python benchmarks/profile_checks.py [--runs 3] [--edits 30] [--top 25] [--json FILE]

Generates the core benchmark's workspaces (benchmarks/core/generate.py: 200 documents of 100 requirements,
and one 2,000-requirement document) in a temporary folder and runs each measurement in a fresh child
process, ``--runs`` times; every figure printed is the best (lowest) of the runs, since on a shared machine
other work only ever adds time. All figures are CPU time (``time.process_time``).

- cold check of the 200-document workspace: the engine's total (``Checker.check``, garbage collector paused
  as ``safereq check`` pauses it) and, in another child, the same work split by rule. Timing each of
  ~25,000 items x ~35 rules would cost more than many rules do (a CPU clock read is ~1 us), so the split
  replays the engine's work rule by rule: each item-scope function over every item, each document-scope
  function over every document, each workspace rule once, sharing one ``CheckContext`` as the engine does.
  Work the rules share is timed on its own row before them when this version of the checks has it (the
  statement analysis of the text rules, the trace graph of the workspace rules); otherwise it is charged
  to the first rule that asks for it, as in a real run;
- re-checks after an edit within a line and after an edit that inserts a line, in the 2,000-requirement
  document and in one document of the large workspace (``Workspace.update`` + ``Checker.check``, median over
  ``--edits`` edits). Here every check function of the real engine is wrapped and timed (exclusive time:
  the trace graph's assembly and the ``derivation_cycles`` walk are shown on their own rows); the row
  ``(engine)`` is the rest of ``Checker.check``: cache look-ups, signatures, sorting.

Rules registered with an item part (``registry.item_part``) show it as ``rule [item]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "core"))

import generate  # noqa: E402  (benchmarks/core/generate.py)

EDIT_LINE = "Note: the reaction time includes the bus latency."
TOTALS = ("check total", "update + check")  # rows printed last, after the breakdown


# -- in the child --------------------------------------------------------------------------------------
class Clock:
    """Exclusive CPU time per label: time spent in a nested timed call is charged to the inner label."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = defaultdict(float)
        self._stack: list[list] = []  # [label, start]

    def timed(self, label: str, fn):
        def run(*args):
            now = time.process_time()
            if self._stack:
                top = self._stack[-1]
                self.totals[top[0]] += now - top[1]
            frame = [label, now]
            self._stack.append(frame)
            try:
                result = fn(*args)
                if not isinstance(result, (list, tuple, dict, set, frozenset)) and hasattr(result, "__next__"):
                    result = list(result)  # a generator does its work when consumed
                return result
            finally:
                end = time.process_time()
                self.totals[label] += end - frame[1]
                self._stack.pop()
                if self._stack:
                    self._stack[-1][1] = end
        return run

    def take(self) -> dict[str, float]:
        out = dict(self.totals)
        self.totals.clear()
        return out


def _parts(check):
    """(label, scope, function) of each part of a registered rule."""
    out = [(check.rule, check.scope, check.fn)]
    item_fn = getattr(check, "item_fn", None)
    if item_fn is not None:
        out.append((f"{check.rule} [item]", "item", item_fn))
    return out


def _load(folder: Path):
    from safereq.checks import registry
    from safereq.workspace import Workspace
    from safereq.workspace.loader import load

    registry.checks()  # imports outside the timed region
    gc.disable()
    try:
        c0 = time.process_time()
        ws = Workspace()
        for source in load([folder], cwd=folder).sources:
            ws.update(source.path, source.text)
        parse = time.process_time() - c0
    finally:
        gc.enable()
    return ws, parse


def child_cold_total(folder: Path) -> dict:
    from safereq.checks.engine import Checker

    ws, parse = _load(folder)
    gc.collect()
    gc.disable()
    try:
        c0 = time.process_time()
        findings = Checker().check(ws)
        total = time.process_time() - c0
    finally:
        gc.enable()
    return {"parse": parse, "check": total, "findings": len(findings)}


def child_cold_rules(folder: Path) -> dict:
    """The cold check's work replayed rule by rule (see the module docstring)."""
    from safereq.checks.engine import Checker
    from safereq.checks.registry import checks

    ws, _parse = _load(folder)
    checker = Checker()
    ctx = checker._context(ws)
    active = [c for rid, c in checks().items() if rid in checker.severities]
    parts = [p for c in active for p in _parts(c)]
    docs = [ws.documents[p] for p in sorted(ws.documents)]
    items = [item for doc in docs for item in doc.items]
    times: dict[str, float] = {}
    gc.collect()
    gc.disable()
    try:
        for scope in ("item", "document", "workspace"):
            shared = _shared_work(scope, ctx, items)
            if shared is not None:  # timed on its own rather than charged to the first rule that needs it
                c0 = time.process_time()
                shared()
                times[f"({scope}: {shared.__doc__})"] = time.process_time() - c0
            for label, part_scope, fn in parts:
                if part_scope != scope:
                    continue
                c0 = time.process_time()
                if scope == "item":
                    for item in items:
                        list(fn(ctx, item))
                elif scope == "document":
                    for doc in docs:
                        list(fn(ctx, doc))
                else:
                    list(fn(ctx))
                times[label] = time.process_time() - c0
    finally:
        gc.enable()
    return {"rules": times}


def _shared_work(scope: str, ctx, items):
    """Work that several rules of ``scope`` share (cached for the run), if this version of the checks has it:
    the statement analysis of the text rules, the trace graph of the workspace rules."""
    if scope == "item":
        try:
            from safereq.checks.analysis import analysed
        except ImportError:
            return None

        def run() -> None:
            """statement analysis"""
            for item in items:
                analysed(ctx, item)
        return run
    if scope == "workspace":
        from safereq.workspace.graph import trace_graph

        def run() -> None:
            """trace graph"""
            trace_graph(ctx.workspace)
        return run
    return None


def _statement_line(lines: list[str], fraction: float) -> int:
    """A requirement statement line about ``fraction`` of the way into the document (as benchmarks/run.py)."""
    k = int(len(lines) * fraction)
    while not (lines[k].startswith("The ") and lines[k - 1] == ""):
        k += 1
    return k


def _instrument(clock: Clock) -> None:
    """Wrap every registered check function, and the trace graph's assembly, with the clock."""
    from dataclasses import fields, replace

    from safereq.checks import registry
    from safereq.workspace import graph

    table = registry.checks()
    for rid, check in list(table.items()):
        changes = {"fn": clock.timed(rid, check.fn)}
        if "item_fn" in {f.name for f in fields(check)} and check.item_fn is not None:
            changes["item_fn"] = clock.timed(f"{rid} [item]", check.item_fn)
        table[rid] = replace(check, **changes)
    for name in ("trace_graph", "derivation_cycles"):
        original = getattr(graph, name)
        wrapped = clock.timed(f"({name})", original)
        for module_name, module in list(sys.modules.items()):
            if module_name.startswith("safereq.") and module is not None:
                if getattr(module, name, None) is original:
                    setattr(module, name, wrapped)


def child_edits(folder: Path, edits: int) -> dict:
    """Per-rule times of in-line and line-inserting edits of the largest document under ``folder``."""
    clock = Clock()
    _instrument(clock)
    from safereq.checks.engine import Checker

    ws, _parse = _load(folder)
    checker = Checker()
    checker.check(ws)
    path = max(ws.documents, key=lambda d: len(ws.documents[d].items))
    original = ws.documents[path].text
    lines = original.split("\n")
    k = _statement_line(lines, 0.5)
    out: dict = {"document": os.path.relpath(path, folder), "items": len(ws.documents[path].items)}
    for kind in ("in_line", "insert_line"):
        variant = list(lines)
        if kind == "insert_line":
            variant.insert(k + 1, EDIT_LINE)
        else:
            variant[k] = variant[k].replace(" shall ", " shall reliably ", 1)
        texts = ["\n".join(variant), original]
        samples: list[dict[str, float]] = []
        gc.collect()
        clock.take()
        for step in range(edits * (2 if kind == "insert_line" else 1)):
            c0 = time.process_time()
            ws.update(path, texts[step % 2])
            c1 = time.process_time()
            checker.check(ws)
            c2 = time.process_time()
            labels = clock.take()
            if kind == "insert_line" and step % 2:
                continue  # the removal that restores the document is not timed
            labels["(update: parse + index)"] = c1 - c0
            labels["(engine)"] = (c2 - c1) - sum(labels.values()) + labels["(update: parse + index)"]
            labels["check total"] = c2 - c1
            labels["update + check"] = c2 - c0
            samples.append(labels)
        ws.update(path, original)
        checker.check(ws)
        keys = {key for s in samples for key in s}
        out[kind] = {key: statistics.median(s.get(key, 0.0) for s in samples) for key in keys}
    return out


# -- in the parent -------------------------------------------------------------------------------------
def _child(mode: str, folder: Path, edits: int) -> dict:
    argv = [sys.executable, __file__, "--child", mode, str(folder), "--edits", str(edits)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _best(samples: list[dict[str, float]]) -> dict[str, float]:
    keys = {k for s in samples for k in s}
    return {k: min(s.get(k, 0.0) for s in samples) for k in keys}


def _table(title: str, figures: dict[str, float], unit: float, suffix: str, top: int) -> None:
    print(f"\n{title}")
    totals = [k for k in TOTALS if k in figures]
    rows = sorted((k for k in figures if k not in totals), key=lambda k: -figures[k])
    for key in rows[:top]:
        print(f"  {key:<44} {figures[key] * unit:9.2f} {suffix}")
    rest = rows[top:]
    if rest:
        print(f"  {f'({len(rest)} more)':<44} {sum(figures[k] for k in rest) * unit:9.2f} {suffix}")
    for key in sorted(totals):
        print(f"  {key:<44} {figures[key] * unit:9.2f} {suffix}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3, help="child processes per measurement (best of; default 3)")
    p.add_argument("--edits", type=int, default=30, help="edits per kind and run (median; default 30)")
    p.add_argument("--top", type=int, default=25, help="rows per table (default 25)")
    p.add_argument("--docs", type=int, default=200)
    p.add_argument("--per-doc", type=int, default=100)
    p.add_argument("--single", type=int, default=2000)
    p.add_argument("--only", default="cold,single,workspace",
                   help="measurements to make: cold, single (edits of the single document), workspace (edits of "
                        "one document of the large workspace); comma-separated, default all")
    p.add_argument("--json", type=Path, help="also write the figures as JSON")
    p.add_argument("--child", nargs=2, metavar=("MODE", "FOLDER"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        mode, folder = args.child[0], Path(args.child[1])
        result = {"cold-total": lambda: child_cold_total(folder), "cold-rules": lambda: child_cold_rules(folder),
                  "edits": lambda: child_edits(folder, args.edits)}[mode]()
        print(json.dumps(result))
        return 0

    results: dict = {"command": " ".join([sys.executable, *sys.argv]), "loadavg_start": os.getloadavg()}
    with tempfile.TemporaryDirectory(prefix="safereq-profile-") as tmp:
        ws_dir, one_dir = Path(tmp) / "workspace", Path(tmp) / "single"
        generate.write(generate.workspace(args.docs, args.per_doc), ws_dir)
        generate.write({"requirements.md": generate.single_document(args.single)}, one_dir)
        only = set(args.only.split(","))
        if "cold" in only:
            totals = [_child("cold-total", ws_dir, 0) for _ in range(args.runs)]
            rules = [_child("cold-rules", ws_dir, 0)["rules"] for _ in range(args.runs)]
        single = [_child("edits", one_dir, args.edits) for _ in range(args.runs)] if "single" in only else []
        in_ws = [_child("edits", ws_dir, max(5, args.edits // 3)) for _ in range(args.runs)] if "workspace" in only else []
    n = args.docs * args.per_doc
    if "cold" in only:
        results["cold"] = {"parse_s": min(t["parse"] for t in totals), "check_s": min(t["check"] for t in totals),
                           "findings": totals[0]["findings"], "rules_s": _best(rules)}
        print(f"cold check, {n:,} requirements in {args.docs} documents ({results['cold']['findings']} findings), "
              f"best of {args.runs}: parse {results['cold']['parse_s']:.2f} s CPU, check {results['cold']['check_s']:.2f} s CPU")
        _table("cold check by rule (replayed rule by rule), CPU", results["cold"]["rules_s"], 1000, "ms", args.top)
    for label, runs in ((f"{args.single:,}-requirement document", single), (f"one document of {n:,}", in_ws)):
        if not runs:
            continue
        for kind in ("in_line", "insert_line"):
            best = _best([r[kind] for r in runs])
            results[f"edit {label} {kind}"] = best
            what = "within a line" if kind == "in_line" else "inserting a line"
            _table(f"edit {what}, {label} ({runs[0]['items']} items), median of edits, best of {args.runs}, CPU",
                   best, 1000, "ms", args.top)
    results["loadavg_end"] = os.getloadavg()
    print(f"\nload average at start/end: {results['loadavg_start'][0]:.2f} / {results['loadavg_end'][0]:.2f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
