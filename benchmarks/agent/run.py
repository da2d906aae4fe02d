"""Assistant latency without a model: ``safereq links`` and ``safereq derive`` beside ``safereq --version``.

    .venv/bin/python benchmarks/agent/run.py [--runs 7] [--index-dir DIR] [--items 250] [--json]

Each command runs ``--runs`` times, interleaved (version, links, derive, version, ...) so that every
figure meets the same machine load, through the real CLI in a fresh process, as a user types it: offline
(``--offline``), on the small workspace in eval/agent/alc/ (safety goals and FSRs from the NHTSA ALC
report). Without ``--index-dir`` the assistant works from the clause catalogue (no index built); with it,
over that LanceDB index as well. ``--items N`` runs `links` on a workspace of N items instead (copies of the
NHTSA ALC workspace, eval/data/nhtsa-alc, under new IDs with their links, cut at N items). Prints medians and minima of wall time and the CPU time of the child
processes, the load average, and the target of issue 11 (links and derive at most 1.5 s wall).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WORKSPACE = REPO / "eval" / "agent" / "alc"
NHTSA = REPO / "eval" / "data" / "nhtsa-alc"
TARGET_S = 1.5
_ID = re.compile(r"\b(SG|FSR|ASR)-(\d+)")


def large_workspace(n: int, out: Path) -> Path:
    """A workspace of ``n`` items: copies of the NHTSA ALC documents, copy k's IDs shifted by 100·k."""
    (out / "safereq.toml").write_text((NHTSA / "safereq.toml").read_text(encoding="utf-8"), encoding="utf-8")
    docs = sorted(NHTSA.glob("*.md"))
    count, copy = 0, 0
    while count < n:
        for doc in docs:
            head, *blocks = _ID.sub(lambda m: f"{m.group(1)}-{int(m.group(2)) + 100 * copy}",
                                    doc.read_text(encoding="utf-8")).split("\n## ")
            kept = blocks[:max(0, n - count)]
            count += len(kept)
            if kept:
                (out / f"{doc.stem}-{copy}.md").write_text("\n## ".join([head, *kept]), encoding="utf-8")
        copy += 1
    return out / "functional-safety-requirements-0.md"


def commands(index_dir: str, big: Path | None) -> dict[str, list[str]]:
    exe = [str(Path(sys.executable).with_name("safereq"))]
    common = ["--offline", "--index-dir", index_dir]
    if big is not None:
        return {"safereq --version": [*exe, "--version"],
                "safereq links FSR-1.6 (large workspace)": [*exe, "links", f"{big}#FSR-1.6", *common]}
    return {
        "safereq --version": [*exe, "--version"],
        "safereq links FSR-212": [*exe, "links", str(WORKSPACE / "functional-safety-concept.md#FSR-212"), *common],
        "safereq derive FSR-213": [*exe, "derive", str(WORKSPACE / "functional-safety-concept.md#FSR-213"), *common],
    }


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU of the child) of one run; fails loudly if the command fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO,
                   env={**os.environ, "SAFEREQ_LLM_BASE_URL": "", "SAFEREQ_LLM_MODEL": ""})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--index-dir", help="a built index (default: none, the clause catalogue)")
    ap.add_argument("--items", type=int, help="run links on a workspace of this many items")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as empty:
        index_dir = args.index_dir or str(Path(empty) / "no-index")
        big = large_workspace(args.items, Path(empty)) if args.items else None
        cmds = commands(index_dir, big)
        for cmd in cmds.values():  # one unmeasured run each: bytecode caches, page cache
            timed(cmd)
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in cmds}
        for _ in range(args.runs):
            for name, cmd in cmds.items():
                samples[name].append(timed(cmd))
    load = os.getloadavg()
    rows = {name: {"wall_median_s": statistics.median(w for w, _ in s), "wall_min_s": min(w for w, _ in s),
                   "cpu_median_s": statistics.median(c for _, c in s)} for name, s in samples.items()}
    result = {"runs": args.runs, "items": args.items or "eval/agent/alc", "source": "index " + args.index_dir if args.index_dir else "clause catalogue",
              "load_average": [round(x, 2) for x in load], "commands": rows, "target_wall_s": TARGET_S}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{args.runs} runs each, interleaved; workspace: {result['items']} items; source: {result['source']}; "
          f"load average {load[0]:.1f} {load[1]:.1f}")
    print("| command | wall median | wall min | CPU median | target |\n|---|---|---|---|---|")
    for name, r in rows.items():
        target = "" if "version" in name else (f"≤ {TARGET_S} s: " + ("met" if r["wall_median_s"] <= TARGET_S else "MISSED"))
        print(f"| `{name}` | {r['wall_median_s']:.2f} s | {r['wall_min_s']:.2f} s | {r['cpu_median_s']:.2f} s | {target} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
