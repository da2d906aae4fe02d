"""The assistant with a real model against the assistant offline, on the same items (too slow for CI).

    bash ../shared/llm/setup.sh      # or any OpenAI-compatible endpoint
    .venv/bin/python eval/agent/llm_vs_offline.py --llm-base-url http://127.0.0.1:8088/v1 --llm-model gemma-3-270m \
        [--index-dir .safereq/index] [--deadline 120] [--items FSR-101,FSR-213] [--json OUT]

Runs derive, links and rebut for each item of the NHTSA ALC workspace (eval/agent/alc/) and two questions
for ask, once with the model and once offline, in the same process, and prints per task and mode: how many
suggestions, whether the model's attempt fell back to offline (and why), abstentions (no suggestion), the
share of suggestions passing the automatic rubric checks below, and wall time.

Automatic rubric (a subset of eval/agent's written rubric that a program can judge):

- derive: exactly one binding modal verb (as the checks read it), an ASIL that is the item's or a valid
  decomposition of it, no modal or wording finding of safereq's own checks, "Derived from" the item, and at
  least one verified citation;
- rebut: a statement and at least one verified citation;
- links: the target is a candidate item (parent/child) or a clause the index holds (cites);
- ask: at least one verified citation.

Every reported citation stands by construction (verified against indexed text, or a catalogue clause's summary),
so "cited" means "has a citation that stands".
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WORKSPACE = REPO / "eval" / "agent" / "alc"
ITEMS = ["FSR-101", "FSR-212", "FSR-213"]
QUESTIONS = ["What is the fault tolerant time interval?", "How is an ASIL D requirement decomposed?"]


def load(item_id: str):
    from safereq.agent.item.context import workspace_view
    from safereq.agent.tasks.runner import load_item

    ws, item, _ = load_item(f"{WORKSPACE / 'functional-safety-concept.md'}#{item_id}")
    return workspace_view(ws, item)


def rubric(task: str, s, view, source) -> bool:
    from safereq.agent.trust.admit import binding_modal_ok, statement_findings
    from safereq.agent.writing.compose import asils_acceptable
    from safereq.agent.tasks.linking import link_candidates

    cited = any(c.stands for c in getattr(s, "citations", []))  # verified, or a catalogue summary
    if task == "derive":
        ctx = view.item
        return (binding_modal_ok(s.statement, ctx.language) and asils_acceptable([s.asil], ctx.asil)
                and not statement_findings(s.title, s.statement, ctx.language) and s.derived_from == [ctx.id] and cited)
    if task == "rebut":
        return bool(s.statement.strip()) and cited
    if task == "links":
        if s.relation == "cites":
            return cited
        parents, children = link_candidates(view)
        return s.target in {i.id for i in (parents if s.relation == "parent" else children)}
    return cited


def run_one(assistant, task: str, view, question: str, source) -> dict:
    from safereq.agent.tasks.pipeline import AgentRequest

    started = time.perf_counter()
    result = assistant.run(AgentRequest(task, view, question))
    wall = time.perf_counter() - started
    passed = sum(rubric(task, s, view, source) for s in result.suggestions)
    return {"mode": result.mode, "fallback": result.fallback, "suggestions": len(result.suggestions),
            "rubric_pass": passed, "wall_s": round(wall, 2), "tokens": result.tokens,
            "texts": [getattr(s, "statement", "") or getattr(s, "target", "") or getattr(s, "text", "")
                      for s in result.suggestions][:3], "notes": result.notes[:8]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llm-base-url", default=os.environ.get("SAFEREQ_LLM_BASE_URL", ""))
    ap.add_argument("--llm-model", default=os.environ.get("SAFEREQ_LLM_MODEL", ""))
    ap.add_argument("--index-dir", help="a built index (default: the clause catalogue)")
    ap.add_argument("--deadline", type=float, default=120.0, help="the task deadline in seconds (default 120)")
    ap.add_argument("--timeout", type=float, default=60.0, help="per-call timeout in seconds (default 60)")
    ap.add_argument("--items", default=",".join(ITEMS))
    ap.add_argument("--tasks", default="derive,links,rebut,ask")
    ap.add_argument("--json", metavar="OUT", help="also write the per-run records as JSON")
    args = ap.parse_args()
    if not (args.llm_base_url and args.llm_model):
        ap.error("give --llm-base-url and --llm-model (or SAFEREQ_LLM_BASE_URL / SAFEREQ_LLM_MODEL)")
    os.environ.setdefault("LANCE_LOG", "error")
    import logging

    logging.basicConfig(level=logging.ERROR)
    from safereq.agent.item.context import workspace_view
    from safereq.agent.writing.generate import LLMSettings
    from safereq.agent.retrieval.knowledge import open_source
    from safereq.agent.tasks.pipeline import Assistant
    from safereq.workspace import Workspace

    source, note = open_source(Path(args.index_dir) if args.index_dir else None)
    llm = LLMSettings(base_url=args.llm_base_url.rstrip("/"), model=args.llm_model, timeout=args.timeout,
                      deadline=args.deadline, max_retries=1)
    with_model, offline = Assistant(source, llm, note), Assistant(source, LLMSettings(), note)
    tasks = args.tasks.split(",")
    cases = [(t, i, "") for i in args.items.split(",") for t in tasks if t != "ask"]
    cases += [("ask", "", q) for q in QUESTIONS if "ask" in tasks]
    records = []
    for task, item, question in cases:
        view = load(item) if item else workspace_view(Workspace(), None)
        for label, assistant in (("model", with_model), ("offline", offline)):
            rec = {"task": task, "item": item or question, "run": label, **run_one(assistant, task, view, question, source)}
            records.append(rec)
            print(f"{task:6} {item or question[:30]:30} {label:7} mode={rec['mode']:7} n={rec['suggestions']} "
                  f"pass={rec['rubric_pass']} {rec['wall_s']:6.1f} s {('fallback: ' + rec['fallback'][:90]) if rec['fallback'] else ''}",
                  file=sys.stderr, flush=True)
    print(f"\nsource: {note}; model {args.llm_model} at {args.llm_base_url}; deadline {args.deadline:.0f} s\n")
    print("| task | run | runs | made by the model | fell back | abstained | suggestions | rubric pass | wall median | wall max |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for task in dict.fromkeys(t for t, _, _ in cases):
        for label in ("model", "offline"):
            rs = [r for r in records if r["task"] == task and r["run"] == label]
            n = sum(r["suggestions"] for r in rs)
            passed = sum(r["rubric_pass"] for r in rs)
            print(f"| {task} | {label} | {len(rs)} | {sum(r['mode'] == 'llm' for r in rs)} | "
                  f"{sum(bool(r['fallback']) for r in rs)} | {sum(r['suggestions'] == 0 for r in rs)} | {n} | "
                  f"{passed}/{n} | {statistics.median(r['wall_s'] for r in rs):.1f} s | {max(r['wall_s'] for r in rs):.1f} s |")
    reasons = [r["fallback"] for r in records if r["fallback"]]
    if reasons:
        print("\nfallback reasons:")
        for reason in dict.fromkeys(x.split(";")[0][:160] for x in reasons):
            print(f"- {reason}")
    if args.json:
        Path(args.json).write_text(json.dumps(records, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
