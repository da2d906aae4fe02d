"""Change-impact benchmark: ``safereq diff`` of a 20,000-requirement workspace between two git revisions.

    .venv/bin/python benchmarks/impact/run.py [--runs 5] [--docs 200 --per-doc 100] [--json FILE]

Generates the core benchmarks' workspace (benchmarks/core/generate.py) in a temporary git repository,
commits it with a review file recorded by ``safereq review --all``, then makes a second commit that changes
about one item in a hundred the way a change request does (ASIL raised, statement reworded, an item renamed
with its links, a link moved) and measures, medians of ``--runs``, each through the real CLI:

- baseline: ``git diff --stat`` of the two commits and ``safereq --version`` (process start), in the same run;
- ``safereq diff HEAD~1 HEAD --format json`` (two revisions read from git);
- ``safereq diff`` against the working tree after the same change left uncommitted;
- ``safereq review`` (loading the workspace and finding suspect links).

Wall and CPU time (user + system of the command) are both given: on the shared machine the CPU time is the
better estimate of an idle run.

The issue's target is "a few seconds" for the diff of a 20,000-requirement workspace.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "core"))

import generate  # noqa: E402  (benchmarks/core/generate.py)

SAFEREQ = [sys.executable, "-m", "safereq"]
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org"}


CPU: dict[str, list[float]] = {}


def run(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> float:
    """Wall time of ``cmd``; its CPU time (user + system) is appended to ``CPU[last word of the label]``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, env=GIT_ENV)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    run.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)  # type: ignore[attr-defined]
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return took


def timed(name: str, figures: dict[str, list[float]], cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> None:
    figures.setdefault(name, []).append(run(cmd, cwd, ok))
    CPU.setdefault(name, []).append(run.cpu)  # type: ignore[attr-defined]


def change(root: Path, seed: int = 8) -> int:
    """Change about 1 % of the items: raise an ASIL, reword a statement, rename an item (and its links)."""
    rng = random.Random(seed)
    files = sorted(root.rglob("*.md"))
    changed = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        ids = re.findall(r"^#+ ((?:FSR|TSR)-[A-Z]+-\d+):", text, flags=re.M)
        if not ids:
            continue
        for item_id in rng.sample(ids, max(1, len(ids) // 100)):
            what = rng.choice(("asil", "statement", "rename"))
            head = re.search(rf"^#+ {re.escape(item_id)}:.*$", text, flags=re.M)
            if head is None:
                continue
            if what == "asil":
                body = text[head.end():]
                m = re.search(r"ASIL: ([A-D]|QM)\b", body)
                if m:
                    new = {"QM": "A", "A": "B", "B": "C", "C": "D", "D": "C"}[m.group(1)]
                    at = head.end() + m.start(1)
                    text = text[:at] + new + text[at + len(m.group(1)):]
            elif what == "statement":
                text = text[:head.end()] + "\n\nThe changed function shall report the fault within 5 ms." + text[head.end():]
            else:
                text = re.sub(rf"\b{re.escape(item_id)}\b", item_id + "9", text)
                for other in files:
                    if other != path:
                        o = other.read_text(encoding="utf-8")
                        if item_id in o:
                            other.write_text(re.sub(rf"\b{re.escape(item_id)}\b", item_id + "9", o), encoding="utf-8")
            changed += 1
        path.write_text(text, encoding="utf-8")
    return changed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--per-doc", type=int, default=100)
    ap.add_argument("--json", default=str(HERE.parent / "results" / "impact.json"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="safereq-impact-") as tmp:
        root = Path(tmp)
        files = generate.workspace(args.docs, args.per_doc)
        generate.write(files, root)
        n = len(files)
        (root / "safereq.toml").write_text("", encoding="utf-8")
        run(["git", "init", "-q", "-b", "main"], root)
        run(SAFEREQ + ["review", "--all"], root)
        run(["git", "add", "-A"], root)
        run(["git", "commit", "-q", "-m", "baseline"], root)
        changed = change(root)
        figures: dict[str, list[float]] = {}
        for _ in range(args.runs):
            timed("safereq --version", figures, SAFEREQ + ["--version"], root)
            timed("git diff --stat (uncommitted)", figures, ["git", "diff", "--stat"], root)
            timed("safereq diff (working tree)", figures, SAFEREQ + ["diff", "--format", "json"], root)
            timed("safereq review (report)", figures, SAFEREQ + ["review"], root, ok=(0, 1))
        run(["git", "commit", "-q", "-am", "change request"], root)
        for _ in range(args.runs):
            timed("git diff --stat HEAD~1 HEAD", figures, ["git", "diff", "--stat", "HEAD~1", "HEAD"], root)
            timed("safereq diff HEAD~1 HEAD", figures, SAFEREQ + ["diff", "HEAD~1", "HEAD", "--format", "json"], root)
        out = subprocess.run(SAFEREQ + ["diff", "HEAD~1", "HEAD", "--format", "json"], cwd=root, capture_output=True)
        report = json.loads(out.stdout)
    medians = {k: statistics.median(v) for k, v in figures.items()}
    cpu = {k: statistics.median(v) for k, v in CPU.items()}
    print(f"workspace: {n} files, {args.docs * args.per_doc} requirements; {changed} items changed")
    print(f"diff found: {len(report['changed'])} changed, {len(report['renamed'])} renamed, "
          f"{len(report['impact'])} downstream ({sum(not i['reviewed'] for i in report['impact'])} to review)")
    for name, value in medians.items():
        print(f"  {name:34s} {value * 1000:8.0f} ms wall {cpu[name] * 1000:8.0f} ms CPU  (median of {len(figures[name])})")
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps({
        "requirements": args.docs * args.per_doc, "files": n, "items_changed": changed,
        "found": {k: len(report[k]) for k in ("changed", "renamed", "added", "removed", "impact")},
        "median_s": medians, "median_cpu_s": cpu, "runs": figures, "load_average": os.getloadavg(),
    }, indent=2) + "\n")


if __name__ == "__main__":
    main()
