"""Derive and rebut against the written rubric (eval/rubric.md), beside the old template filler, in one run.

Usage (from the repository root; no model, no index needed — the clause catalogue is used when there is no
index, pass --index-dir to use one):

    .venv/bin/python eval/agent/derive_eval.py [--index-dir DIR] [--show N] [--json] [--no-baseline]

The development sets are public requirement sets written by others (eval/agent/devsets.py); they are
converted into workspaces under ~/.cache/safereq/derive-eval (never committed). For every item both
``derive`` and ``rebut`` run offline; every suggestion is judged by the rubric's automatic checks. The
baseline is safereq at git revision BASELINE_REV (the template filler before derive and rebut read the
item), run on the same workspaces from a `git archive` of that revision in a subprocess, and judged by the
same checks.

Printed per task and set: items, suggestions, share of suggestions passing every criterion, share of items
with at least one passing suggestion, and the share failing each criterion.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
BASELINE_REV = "61a8dbd"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "safereq" / "derive-eval"
CRITERIA = ("one-shall", "asil", "specific", "no-placeholder", "domain", "no-finding", "citation")

# Vocabulary that belongs to one domain only (criterion 5): found in a suggestion for an item of another
# domain, it is a mismatch.
TECH_DRIVER = re.compile(r"\b(?:CAN|SPI|ADC|PWM|DIO|GPT|I2C|UART|LIN|device|software|motor|gate|LED)\s+drivers?\b",
                         re.IGNORECASE)  # a software or hardware driver, not the person driving
VEHICLE_ONLY = re.compile(r"\b(driver|vehicle|steering|lane|construction zone|sun glare|heavy rain|"
                          r"pedestrian|human-machine interface|controllable by the driver)\b", re.IGNORECASE)
SOFTWARE_ONLY = re.compile(r"\b(caller|lock timeout|memory pool|deadlock|software watchdog|calling sequence|"
                           r"stored state|compiler defect)\b", re.IGNORECASE)
SIGNAL_HEADS = r"(?:request|signal|measurement|value|image|speed|angle|position|torque|current|voltage|pressure|readings?)"
GENERAL_TITLE_WORDS = {"fault", "faults", "time", "interval", "requirements", "requirement", "recommendations",
                       "safety", "system", "general", "specification", "of", "the", "and", "for", "to", "in", "a",
                       "with", "on", "between", "due"}
UNCITABLE = {"scope", "normative references", "terms and definitions", "requirements for compliance", "general",
             "objectives", "work products"}


# -- running the assistant (this checkout or the baseline) --------------------------------------------------
def emit(cache: Path, index_dir: str | None) -> list[dict]:
    """Run derive and rebut over every item of the cached sets with whatever safereq is on sys.path."""
    from safereq.agent.item.context import workspace_view
    from safereq.agent.retrieval.knowledge import open_source
    from safereq.agent.tasks.pipeline import AgentRequest, Assistant
    from safereq.workspace import Workspace

    source, _ = open_source(Path(index_dir) if index_dir else ROOT / ".safereq" / "index")
    assistant = Assistant(source)
    out = []
    for doc in sorted(cache.glob("*.md")):
        ws = Workspace()
        ws.update(str(doc), doc.read_text(encoding="utf-8"))
        for item in ws.items():
            view = workspace_view(ws, item)
            for task in ("derive", "rebut"):
                t0 = time.perf_counter()
                result = assistant.run(AgentRequest(task, view))
                out.append({"set": doc.stem, "item": item.id, "task": task, "seconds": time.perf_counter() - t0,
                            **result.to_json()})
    return out


def baseline(cache: Path, index_dir: str | None, rev: str) -> list[dict]:
    """``emit`` run by safereq at ``rev`` (its server/, rules/ and catalogue from `git archive`)."""
    with tempfile.TemporaryDirectory(prefix="safereq-baseline-") as tmp:
        archive = Path(tmp) / "rev.tar"
        made = subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), rev, "server", "rules",
                               "corpora/catalogue"], capture_output=True, text=True)
        if made.returncode != 0:
            raise SystemExit(f"cannot read revision {rev} (use --no-baseline to skip it): {made.stderr.strip()}")
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "server")}
        args = [sys.executable, str(Path(__file__)), "--emit", str(cache)] + (["--index-dir", index_dir] if index_dir else [])
        run = subprocess.run(args, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"baseline at {rev} failed (use --no-baseline to skip it):\n{run.stderr[-2000:]}")
        return json.loads(run.stdout)


# -- the rubric ---------------------------------------------------------------------------------------------
def _catalogue() -> dict[tuple[str, str], tuple[str, str]]:
    import yaml

    out = {}
    for f in (ROOT / "corpora" / "catalogue").glob("*.yaml"):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        for c in data.get("clauses", []):
            out[(data["document"], str(c["clause"]))] = (str(c.get("title", "")), str(c.get("summary", "")))
    return out


def _stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z][a-z-]+", text.lower()) if w not in GENERAL_TITLE_WORDS and len(w) > 2}


def _cited_about(citation: dict, text: str, catalogue) -> bool:
    title, summary = catalogue.get((citation["document"], citation["clause"]), (citation.get("title", ""), ""))
    if title.lower() in UNCITABLE:
        return False
    words = _stems(text)
    t = _stems(re.sub(r"\(.*?\)", "", title))
    if t and len(t & words) / len(t) >= 0.6:
        return True
    return len(_stems(summary) & words) >= 3


def judge(record: dict, item, catalogue) -> list[dict]:
    """Each suggestion of ``record`` with the criteria it fails (``item`` is the development item)."""
    from safereq.agent.writing.compose import asils_acceptable
    from safereq.agent.trust.selfcheck import Draft, findings
    from safereq.checks.analysis.modal_verbs import modal_verbs

    suggestions = record["suggestions"]
    lang = "zh" if re.search(r"[\u4e00-\u9fff]", item.statement) else "en"
    subject = re.match(r"(?:the\s+)?(.+?)\s+(?:shall|must)\b", item.statement, re.IGNORECASE)
    element = (item.allocated_to or (subject.group(1) if subject and len(subject.group(1).split()) <= 4 else "")).lower()
    signals = {m.group(0).lower() for m in re.finditer(r"(?:[A-Za-z][\w-]*\s+){1,2}" + SIGNAL_HEADS + r"\b", item.statement)}
    signals = {" ".join(s.split()[-2:]) for s in signals}
    derive = record["task"] == "derive"
    own = {}
    if derive and suggestions:
        own = findings([Draft(s["id"], s.get("title", "") or s["id"], s["statement"], s.get("asil", ""))
                        for s in suggestions], item.id, item.title, item.asil)
    asil_ok = asils_acceptable([s.get("asil", "") for s in suggestions], item.asil) if derive else True
    out = []
    for s in suggestions:
        text = s["statement"]
        full = " ".join(str(s.get(k, "")) for k in ("title", "statement", "pattern", "category", "rationale", "mitigation"))
        fails = []
        if derive:
            verbs = [v for v in modal_verbs(text, lang) if v.modal]
            if not (len(verbs) == 1 and verbs[0].role == "binding"):
                fails.append("one-shall")
            if not asil_ok:
                fails.append("asil")
        low = text.lower()
        if not (item.id.lower() in low or (element and element in low) or any(sig in low for sig in signals)):
            fails.append("specific")
        placeholder = "{" in text or "}" in text or re.search(r"\b(?:TBD|TBC|XXX)\b", text) \
            or (element and re.search(r"\binput signals\b|\bthe system\b", low) and "system" not in element)
        if placeholder:
            fails.append("no-placeholder")
        if (item.domain == "software" and VEHICLE_ONLY.search(TECH_DRIVER.sub("", text))) or \
                (item.domain in ("vehicle", "hardware", "uav") and SOFTWARE_ONLY.search(text)):
            fails.append("domain")
        if derive and own.get(s["id"]):
            fails.append("no-finding")
        cites = s.get("citations", [])
        if not cites or not all(c.get("verified") for c in cites) or not all(_cited_about(c, full, catalogue) for c in cites):
            fails.append("citation")
        out.append({"text": text, "fails": fails, "citations": [f"{c['document']} {c['clause']}" for c in cites]})
    return out


def summarise(records: list[dict], items: dict, catalogue) -> dict:
    table: dict = {}
    for r in records:
        item = items[(r["set"], r["item"])]
        judged = judge(r, item, catalogue)
        row = table.setdefault((r["task"], r["set"]), {"items": 0, "with_pass": 0, "suggestions": 0, "passing": 0,
                                                       "fails": {c: 0 for c in CRITERIA}, "seconds": 0.0,
                                                       "samples": []})
        row["items"] += 1
        row["seconds"] += r.get("seconds", 0.0)
        row["suggestions"] += len(judged)
        passing = [j for j in judged if not j["fails"]]
        row["passing"] += len(passing)
        row["with_pass"] += bool(passing)
        for j in judged:
            for c in j["fails"]:
                row["fails"][c] += 1
            row["samples"].append((r["item"], j))
    return table


def _print(name: str, table: dict) -> None:
    print(f"\n{name}")
    print(f"{'task':7} {'set':13} {'items':>5} {'sugg':>5} {'pass':>6} {'items≥1':>8}  failing: " + " ".join(CRITERIA))
    for task in ("derive", "rebut"):
        tot = {"items": 0, "suggestions": 0, "passing": 0, "with_pass": 0, "fails": {c: 0 for c in CRITERIA}}
        for (t, s), row in sorted(table.items()):
            if t != task:
                continue
            for k in ("items", "suggestions", "passing", "with_pass"):
                tot[k] += row[k]
            for c in CRITERIA:
                tot["fails"][c] += row["fails"][c]
            _row(task, s, row)
        _row(task, "ALL", tot)


def _row(task: str, name: str, row: dict) -> None:
    n = row["suggestions"] or 1
    fails = " ".join(f"{row['fails'][c] / n:>5.0%}" for c in CRITERIA)
    print(f"{task:7} {name:13} {row['items']:5d} {row['suggestions']:5d} {row['passing'] / n:6.0%} "
          f"{row['with_pass'] / (row['items'] or 1):8.0%}  {fails}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--index-dir", help="knowledge-base index (default: ./.safereq/index, else the catalogue)")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print N judged suggestions per task and set")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--no-baseline", action="store_true", help="skip the baseline run")
    ap.add_argument("--baseline-rev", default=BASELINE_REV, help=f"git revision of the baseline (default {BASELINE_REV})")
    ap.add_argument("--emit", metavar="CACHE", help=argparse.SUPPRESS)  # internal: run the assistant, print JSON
    args = ap.parse_args()
    if args.emit:
        print(json.dumps(emit(Path(args.emit), args.index_dir)))
        return 0

    import devsets

    sets = devsets.build(CACHE)
    items = {(name, it.id): it for name, (_, its) in sets.items() for it in its}
    catalogue = _catalogue()
    print("development sets: " + ", ".join(f"{n} ({len(its)} items)" for n, (_, its) in sets.items()))
    t0 = time.perf_counter()
    current = summarise(emit(CACHE, args.index_dir), items, catalogue)
    took = time.perf_counter() - t0
    base = None if args.no_baseline else summarise(baseline(CACHE, args.index_dir, args.baseline_rev), items, catalogue)
    if args.json:
        def plain(table):
            return {f"{t}/{s}": {k: v for k, v in row.items() if k != "samples"} for (t, s), row in table.items()}
        print(json.dumps({"current": plain(current), "baseline": plain(base) if base else None}, indent=2))
        return 0
    _print(f"safereq (this checkout), {took:.0f} s", current)
    if base is not None:
        _print(f"baseline: the template filler at {args.baseline_rev}", base)
    if args.show:
        for (task, name), row in sorted(current.items()):
            print(f"\n--- {task} / {name}")
            for item_id, j in row["samples"][:args.show]:
                print(f"[{item_id}] {'PASS' if not j['fails'] else 'FAIL ' + ','.join(j['fails'])}: {j['text']}")
                print(f"    cites {'; '.join(j['citations']) or '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
