"""Derive and rebut on requirement sets nobody tuned for: a blind judge packet, this version beside the previous.

Usage (from the repository root; no model, no index needed — the clause catalogue is used):

    .venv/bin/python eval/agent/derive_eval.py [--per-set N] [--seed S] [--out DIR] [--prev-tree DIR]
                                               [--sets oft,portal,...] [--no-prev] [--show K]
    .venv/bin/python eval/agent/derive_eval.py --verdicts verdicts.md --key key.json   # score a judge's verdicts

The sets are public requirement sets from domains the shipped corpora do not cover (eval/agent/judge_sets.py
names the sources); they are read from /work/.mirror at run time and converted into workspaces under
``~/.cache/safereq/judge-eval`` (never committed); a missing source is skipped. For each set N items are
sampled (items with a parent first, then items whose siblings have children, which show the team's own way of
deriving); each item's own children are removed from its workspace, so nothing can copy them.

``safereq derive`` and ``safereq rebut`` run offline on every sampled item with this checkout and with the
previous version (main at PREV_REV, a ``git worktree`` at --prev-tree, made if missing), each in a subprocess
with its own ``PYTHONPATH``. The suggestions of both are shuffled together and labelled S1, S2, … in
``packet.md`` (Markdown: per item its statement, kind, parent and siblings context, then the suggestions with
their citations); ``key.json`` maps each label to its version, task, set and item. A judge applies
eval/rubric.md to the packet without the key; ``--verdicts FILE --key KEY`` joins the verdicts back and prints,
per version, task and set group, the shares kept as written and kept at all, and the citations' ratings.
A verdict line names its label (S12) and one of "keep" (as written), "edit" (keep after edits), "drop" (or
the long forms; "acceptable" / "not acceptable" for answers), then any "relevant", "tangential", "wrong" for
its citations, in any punctuation.

Printed, per version and set (the held-out set separately), the figures no judgement is needed for:

- items with something offered (derive, rebut);
- refining suggestions that keep every limit (number with unit), negation and condition of their item;
- citations whose clause title is one ``rules/patterns/domains.yaml`` lists as uncitable (must be 0);
- ``safereq ask``: out-of-index questions answered "nothing in the index" (eval/agent/questions.yaml).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PREV_REV = "06829b3"  # main before the ventilator set and the ninth judge (aa7bf9c for judges 4-8, 0cc4045 for 1-3)
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "safereq" / "judge-eval"
PYTHON = sys.executable

_LIMIT = re.compile(r"(?<![\w.])[<>≤≥±]?\s*\d+(?:[.,]\d+)?\s*(?:%|ms|s|秒|小时|分钟|毫秒|µs|us|min|h|Hz|kHz|MHz|V|mV|A|mA|W|kW|"
                    r"cm|mm|m|km|°|dBA|dB|kg|g|km/h|m/s|KiB|MiB|GiB|KB|MB|GB)?(?![\w])")
_NEGATION = re.compile(r"\b(?:not|never|no|without|SHALL NOT|shall not)\b|不得|不应|禁止|不|无", re.IGNORECASE)


# -- running one version ---------------------------------------------------------------------------------
def emit(jobs_path: Path) -> None:
    """Run every job (task, target or question) with whatever safereq is first on sys.path; JSON lines out."""
    from safereq.cli.main import main
    for job in json.loads(jobs_path.read_text(encoding="utf-8")):
        args = [job["task"], job["target"], "--json", "--offline"]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
            try:
                rc = main(args)
            except SystemExit as exc:  # argparse or a command's own exit
                rc = exc.code
        try:
            result = json.loads(buf.getvalue() or "{}")
        except json.JSONDecodeError:
            result = {"error": buf.getvalue()[-400:]}
        print(json.dumps({"job": job, "rc": rc, "result": result}, ensure_ascii=False), flush=True)


def run_version(server: Path, jobs: list[dict], work: Path, name: str) -> list[dict]:
    jobs_path = work / f"jobs-{name}.json"
    jobs_path.write_text(json.dumps(jobs, ensure_ascii=False), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(server))
    env.pop("SAFEREQ_LLM_BASE_URL", None)
    proc = subprocess.run(["nice", "-n", "10", PYTHON, str(Path(__file__).resolve()), "--emit", str(jobs_path)],
                          env=env, capture_output=True, text=True, cwd=work)
    if proc.returncode != 0:
        raise SystemExit(f"{name} failed: {proc.stderr[-2000:]}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def prev_tree(path: Path | None, rev: str = PREV_REV) -> Path:
    """The previous version's worktree (``/tmp/prev-<rev>`` unless given), made with ``git worktree`` if missing."""
    path = path or Path("/tmp") / f"prev-{rev}"
    if not (path / "server" / "safereq").exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-f", "--detach", str(path), rev], check=True,
                       capture_output=True)
    return path


# -- sampling ----------------------------------------------------------------------------------------------
def sample(js, per_set: int, rng: random.Random) -> list:
    items = [r for _, reqs in js.docs.values() for r in reqs]
    children: dict[str, list] = {}
    for r in items:
        for p in r.parents:
            children.setdefault(p, []).append(r)
    pool = [r for r in items if r.id.split("-")[0] in js.sample_kinds]

    def score(r) -> tuple[int, int]:
        sib_with_children = sum(1 for p in r.parents for s in children.get(p, []) if s.id != r.id and children.get(s.id))
        return (1 if r.parents else 0) + (1 if sib_with_children else 0), rng.random()

    pool.sort(key=score, reverse=True)
    return pool[:per_set]


def item_workspace(set_dir: Path, js, item, into: Path) -> Path:
    """A copy of the set's workspace without the item's own children (so they cannot be copied)."""
    from judge_sets import write_workspace
    own = {r.id for _, reqs in js.docs.values() for r in reqs if item.id in r.parents}
    docs = {name: (heading, [r for r in reqs if r.id not in own]) for name, (heading, reqs) in js.docs.items()}
    if into.exists():
        shutil.rmtree(into)
    write_workspace(into, docs, js.kinds, js.source)
    for md in set_dir.glob("*.md"):
        head = md.read_text(encoding="utf-8").split("\n", 3)
        if head[0] == "---":
            target = into / md.name
            target.write_text("\n".join(head[:3]) + "\n" + target.read_text(encoding="utf-8"), encoding="utf-8")
    doc = next(name for name, (_, reqs) in docs.items() if any(r.id == item.id for r in reqs))
    return into / f"{doc}.md"


# -- the packet ------------------------------------------------------------------------------------------
def suggestion_text(task: str, s: dict) -> str:
    if task == "cites":
        lines = [""]
    elif task == "derive":
        lines = [f"**{s.get('id', '')}: {s.get('title', '')}** — {s.get('statement', '')}"]
        extra = [f"ASIL {s['asil']}" if s.get("asil") else "", f"derived from {', '.join(s.get('derived_from', []))}"]
        lines.append("  (" + "; ".join(e for e in extra if e) + ")")
    else:
        lines = [f"**{s.get('category', '')}** — {s.get('statement', '')}"]
        if s.get("mitigation"):
            lines.append(f"  Mitigation: {s['mitigation']}")
    for c in s.get("citations", []):  # as the version's own command line shows it
        label = f"{c.get('document', '')}:{c.get('year', '')} §{c.get('clause', '')} {c.get('title', '')}".strip()
        if "summary" in c:
            lines.append(f"  - cites {label} (summary by safereq, not the standard's words): {c['summary']}")
        else:
            mark = "verified" if c.get("verified") else "UNVERIFIED"
            lines.append(f'  - cites {label} ({mark}): "{c.get("quote", "")}"')
    return "\n".join(lines)


def context_lines(js, item) -> list[str]:
    by_id = {r.id: r for _, reqs in js.docs.values() for r in reqs}
    children: dict[str, list] = {}
    for r in by_id.values():
        for p in r.parents:
            children.setdefault(p, []).append(r)
    out = []
    for p in item.parents:
        if p in by_id:
            out.append(f"- Parent {p}: {by_id[p].statement}")
    sibs = [s for p in item.parents for s in children.get(p, []) if s.id != item.id]
    shown = 0
    for s in sorted(sibs, key=lambda s: -len(children.get(s.id, []))):
        if shown >= 2:
            break
        kids = children.get(s.id, [])
        if not kids:
            continue
        shown += 1
        out.append(f"- Sibling {s.id}: {s.statement}")
        out += [f"  - its child {k.id}: {k.statement}" for k in kids[:3]]
    return out


def write_packet(out: Path, entries: list[dict], rng: random.Random, show: int) -> dict:
    lines = ["# Judge packet: derived requirements and rebuttals", "",
             "Each item below comes from a public requirement set. Its suggestions were made by two versions of",
             "the assistant, shuffled and labelled S1, S2, …; which version made which is not shown. Judge each",
             "suggestion with eval/rubric.md (keep as written / keep after edits / drop; each citation relevant /",
             "tangential / wrong). An item without suggestions had both versions abstain. At most "
             f"{show} suggestion(s) per version, task and item are shown, picked at random.", ""]
    key: dict[str, dict] = {}
    n = 0
    for e in entries:
        lines += [f"## {e['set']} · {e['item']}: {e['title']}", "", f"Kind: {e['kind']} ({e['nature']})", "",
                  f"Statement: {e['statement']}", ""]
        if e["context"]:
            lines += ["Context:", *e["context"], ""]
        for task in ("derive", "rebut"):
            pool = [(v, s) for v in e["outputs"] for s in rng.sample(e["outputs"][v].get(task, []),
                                                                     min(show, len(e["outputs"][v].get(task, []))))]
            rng.shuffle(pool)
            lines.append(f"### {'Derived requirements' if task == 'derive' else 'Rebuttals'}")
            lines.append("")
            if not pool:
                lines += ["(none offered)", ""]
            for version, s in pool:
                n += 1
                label = f"S{n}"
                key[label] = {"version": version, "task": task, "set": e["set"], "item": e["item"]}
                lines += [f"{label}. {suggestion_text(task, s)}", ""]
    out.mkdir(parents=True, exist_ok=True)
    (out / "packet.md").write_text("\n".join(lines), encoding="utf-8")
    (out / "key.json").write_text(json.dumps(key, indent=1), encoding="utf-8")
    return key


def write_ask_packet(out: Path, asks: dict[str, list[dict]], rng: random.Random) -> dict:
    """``packet-ask.md``: each question with the answers of both versions, shuffled and labelled A1, A2, …"""
    by_q: dict[str, list[tuple[str, dict]]] = {}
    for version, results in asks.items():
        for r in results:
            by_q.setdefault(r["job"]["target"], []).append((version, r["result"]))
    lines = ["# Judge packet: answers to questions (`safereq ask`)", "",
             "Each question was asked of two versions; the answers are shuffled and labelled A1, A2, …. Judge each "
             "with eval/rubric.md (acceptable or not; each citation relevant / tangential / wrong).", ""]
    key: dict[str, dict] = {}
    n = 0
    for q, answers in by_q.items():
        rng.shuffle(answers)
        lines += [f"## {q}", ""]
        for version, res in answers:
            n += 1
            label = f"A{n}"
            key[label] = {"version": version, "question": q}
            sugg = res.get("suggestions", [])
            if sugg:
                lines.append(f"{label}. {sugg[0].get('statement', '')}")
                lines += [suggestion_text("cites", {"citations": sugg[0].get("citations", [])}).split("\n", 1)[-1]]
            else:
                lines.append(f"{label}. (no answer) " + " ".join(x for x in res.get("notes", []) if not x.startswith("source:")))
            lines.append("")
    (out / "packet-ask.md").write_text("\n".join(lines), encoding="utf-8")
    (out / "key-ask.json").write_text(json.dumps(key, indent=1), encoding="utf-8")
    return key


# -- automatic figures -------------------------------------------------------------------------------------
def _uncitable() -> set[str]:
    text = (ROOT / "rules" / "patterns" / "domains.yaml").read_text(encoding="utf-8")
    m = re.search(r"uncitable-titles:\s*\[(.*?)\]", text, re.DOTALL)
    return {t.strip().lower() for t in m.group(1).split(",")} if m else set()


def kept(statement: str, suggestion: str) -> bool:
    """Every limit (number, with its unit) and negation of the item occurs in the suggestion."""
    for m in _LIMIT.finditer(statement):
        number = re.search(r"\d+(?:[.,]\d+)?", m.group(0)).group(0)
        if m.group(0).strip() and number not in suggestion:
            return False
    item_neg = {w.lower() for w in _NEGATION.findall(statement)}
    sugg_neg = {w.lower() for w in _NEGATION.findall(suggestion)}
    return not (item_neg and not sugg_neg)


def figures(entries: list[dict], versions: list[str]) -> dict:
    uncitable = _uncitable()
    out = {}
    for v in versions:
        row = {"items": len(entries)}
        for task in ("derive", "rebut"):
            offered = [e for e in entries if e["outputs"].get(v, {}).get(task)]
            row[f"{task}_items_offered"] = len(offered)
            row[f"{task}_suggestions"] = sum(len(e["outputs"][v].get(task, [])) for e in entries if v in e["outputs"])
        row["items_offered_any"] = sum(1 for e in entries if e["outputs"].get(v, {}).get("derive")
                                       or e["outputs"].get(v, {}).get("rebut"))
        # a split part carries only its own share of the item's limits: the parts together must keep them all
        refining = []
        for e in entries:
            if not (_LIMIT.search(e["statement"]) or _NEGATION.search(e["statement"])):
                continue
            derived = e["outputs"].get(v, {}).get("derive", [])
            parts = " ".join(s.get("statement", "") for s in derived if s.get("pattern") == "split")
            refining += [(e, s.get("statement", "")) for s in derived if s.get("pattern") != "split"]
            if parts:
                refining.append((e, parts))
        row["refining_with_limits"] = len(refining)
        row["refining_limits_kept"] = sum(1 for e, text in refining if kept(e["statement"], text))
        cites = [c for e in entries for t in ("derive", "rebut") for s in e["outputs"].get(v, {}).get(t, [])
                 for c in s.get("citations", [])]
        row["citations"] = len(cites)
        row["citations_uncitable"] = sum(1 for c in cites if c.get("title", "").strip().lower() in uncitable)
        row["citations_marked_verified"] = sum(1 for c in cites if c.get("verified"))
        out[v] = row
    return out


def ask_figures(results: list[dict]) -> dict:
    uncitable = _uncitable()
    row = {"questions": 0, "out_of_index": 0, "out_abstained": 0, "in_index": 0, "in_answered": 0,
           "uncitable_cited": 0, "cut_off": 0}
    for r in results:
        q = r["job"]
        res = r["result"]
        sugg = res.get("suggestions", [])
        answered = bool(sugg) and not res.get("abstained")
        row["questions"] += 1
        if q["expect"] == "none":
            row["out_of_index"] += 1
            row["out_abstained"] += 0 if answered else 1
        else:
            row["in_index"] += 1
            row["in_answered"] += 1 if answered else 0
        for s in sugg:
            row["uncitable_cited"] += sum(1 for c in s.get("citations", []) if c.get("title", "").lower() in uncitable)
            text = s.get("statement", "").rstrip()
            row["cut_off"] += 1 if text and not re.search(r"[.。!?！？)）»”\"]$", text) else 0
    return row


_VERDICT = re.compile(r"keep as written|keep after edits|after edits|with edits|not acceptable|acceptable|"
                      r"\bkeep\b|\bedit\b|\bdrop\b", re.IGNORECASE)
_RATING = re.compile(r"\b(relevant|tangential|wrong)\b", re.IGNORECASE)


def score_verdicts(verdicts: Path, key_path: Path) -> dict:
    """The judge's verdicts joined with the key: per version, task and tuned/held-out group."""
    key = json.loads(key_path.read_text(encoding="utf-8"))
    held = set(__import__("judge_sets").HELD_OUT)
    out: dict[str, dict] = {}
    for line in verdicts.read_text(encoding="utf-8").splitlines():
        label = re.match(r"\s*(?:[-*] )?([SA]\d+)\b", line)  # a verdict line starts with its label
        verdict = _VERDICT.search(line[label.end():]) if label else None
        if not label or not verdict or label.group(1) not in key:
            continue
        k = key[label.group(1)]
        group = "held_out" if k.get("set") in held else "tuned"
        row = out.setdefault(f"{k['version']}/{k.get('task', 'ask')}/{group}",
                             {"judged": 0, "as_written": 0, "kept": 0, "relevant": 0, "tangential": 0, "wrong": 0})
        v = verdict.group(0).lower()
        row["judged"] += 1
        row["as_written"] += v in ("keep as written", "keep", "acceptable")  # "acceptable": an answer
        row["kept"] += v not in ("drop", "not acceptable")
        rest = line[verdict.end():]
        cites = re.search(r"cites?:([^|]*)", rest, re.IGNORECASE)  # "| cites: relevant, wrong |" when fielded
        for r in _RATING.findall(cites.group(1) if cites else rest):
            row[r.lower()] += 1
    for row in out.values():
        row["as_written_pct"] = round(100 * row["as_written"] / row["judged"]) if row["judged"] else 0
        row["kept_pct"] = round(100 * row["kept"] / row["judged"]) if row["judged"] else 0
        rated = row["relevant"] + row["tangential"] + row["wrong"]
        row["relevant_pct"] = round(100 * row["relevant"] / rated) if rated else None
    return out


def load_questions() -> list[dict]:
    path = HERE / "questions.yaml"
    if not path.exists():
        return []
    import yaml
    return yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--emit", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--per-set", type=int, default=5)
    ap.add_argument("--show", type=int, default=1, help="suggestions per version, task and item in the packet")
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--sets", default="")
    ap.add_argument("--out", type=Path, default=Path("/work/wt/judge"))
    ap.add_argument("--prev-tree", type=Path, default=None, help="the previous version's worktree (/tmp/prev-REV)")
    ap.add_argument("--prev-rev", default=PREV_REV, help=f"the previous version's commit ({PREV_REV})")
    ap.add_argument("--no-prev", action="store_true")
    ap.add_argument("--verdicts", type=Path, help="score a judge's verdicts against --key instead of running")
    ap.add_argument("--key", type=Path, default=Path("/work/wt/judge/key.json"))
    args = ap.parse_args(argv)
    if args.emit:
        emit(args.emit)
        return 0
    sys.path.insert(0, str(HERE))
    if args.verdicts:
        print(json.dumps(score_verdicts(args.verdicts, args.key), indent=1))
        return 0
    import judge_sets
    names = tuple(args.sets.split(",")) if args.sets else judge_sets.TUNED + judge_sets.HELD_OUT
    built = judge_sets.build(CACHE / "sets", names)
    rng = random.Random(args.seed)
    entries, jobs = [], []
    for name, (folder, js) in built.items():
        for item in sample(js, args.per_set, rng):
            path = item_workspace(folder, js, item, CACHE / "items" / f"{name}-{item.id}")
            kind = item.id.split("-")[0]
            entries.append({"set": name, "item": item.id, "title": item.title, "statement": item.statement,
                            "kind": kind, "nature": js.nature.get(kind, ""), "context": context_lines(js, item),
                            "held_out": name in judge_sets.HELD_OUT, "outputs": {}})
            jobs += [{"task": t, "target": f"{path}#{item.id}", "key": f"{name}/{item.id}"} for t in ("derive", "rebut")]
    questions = load_questions()
    qjobs = [{"task": "ask", "target": q["q"], "key": f"ask/{i}", "expect": q["expect"]} for i, q in enumerate(questions)]
    versions = {"this": ROOT / "server"}
    if not args.no_prev:
        versions["prev"] = prev_tree(args.prev_tree, args.prev_rev) / "server"
    work = CACHE / "runs"
    work.mkdir(parents=True, exist_ok=True)
    by_key = {f"{e['set']}/{e['item']}": e for e in entries}
    asks = {}
    for vname, server in versions.items():
        results = run_version(server, jobs + qjobs, work, vname)
        for r in results:
            job = r["job"]
            if job["task"] == "ask":
                asks.setdefault(vname, []).append(r)
                continue
            e = by_key[job["key"]]
            e["outputs"].setdefault(vname, {})[job["task"]] = r["result"].get("suggestions", [])
            e.setdefault("notes", {}).setdefault(vname, {})[job["task"]] = r["result"].get("notes", [])
    key = write_packet(args.out, entries, random.Random(args.seed + 1), args.show)
    if asks:
        write_ask_packet(args.out, asks, random.Random(args.seed + 2))
    (CACHE / "entries.json").write_text(json.dumps(entries, ensure_ascii=False, indent=1), encoding="utf-8")
    report = {"sets": {n: js.source for n, (_, js) in built.items()},
              "tuned": figures([e for e in entries if not e["held_out"]], list(versions)),
              "held_out": figures([e for e in entries if e["held_out"]], list(versions)),
              "ask": {v: ask_figures(r) for v, r in asks.items()},
              "packet": {"items": len(entries), "suggestions": len(key), "path": str(args.out / "packet.md")}}
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
