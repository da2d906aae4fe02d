"""The MCP server on a 20,000-requirement workspace: start-up and tool-call latency, beside ``safereq --version``.

    /work/main/.venv/bin/python benchmarks/mcp/run.py [--runs 5] [--calls 15] [--docs 200] [--per-doc 100]

Generates the workspace of benchmarks/run.py (benchmarks/core/generate.py) in a temporary git repository,
then, through the SDK's own client over stdio, as an agent's client would:

- ``safereq --version`` (process start to exit), the floor of any command; importing the ``mcp`` SDK alone;
  and ``safereq check`` of the same workspace (the server loads and checks the same way before it answers);
- start-up: spawning ``safereq mcp`` until the first tool call is answered (the workspace is loaded and
  checked before the server answers), median of ``--runs`` fresh servers;
- each tool's latency in one running server, median of ``--calls`` calls (varied arguments), among them a
  call after a one-line edit on disk (the server sees it, re-parses that section, re-checks, answers). Each
  round ends with such an edit, so the round's first coverage call recomputes (only the changed document's
  records are rebuilt) and the next ones reuse the kept answer.
  The assistant's tools (suggest_links, derive_requirements, suggest_rebuttals) are left out: their time is
  the assistant's, measured by benchmarks/agent/run.py (the first link suggestion on a large workspace embeds
  every candidate item once, as ``safereq links`` does).

Prints a table and writes JSON (default benchmarks/results/mcp.json). Wall times; the load average is
recorded, since the machine may be shared. Speed is watched here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "core"))

import generate  # noqa: E402  (benchmarks/core/generate.py)

TARGET_CALL_S = 1.0  # issue 24: a tool call "well under a second" after start-up


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO / "server"), "SAFEREQ_INDEX": str(tmp / "no-index"),
            "SAFEREQ_LLM_BASE_URL": "", "SAFEREQ_LLM_MODEL": ""}


def process_runs(runs: int, tmp: Path, argv: list[str], ok: tuple[int, ...] = (0,)) -> list[float]:
    """Wall times of ``runs`` fresh processes of ``argv``."""
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, env=_env(tmp))
        out.append(time.perf_counter() - started)
        assert done.returncode in ok, done.stderr[-2000:]
    return out


def _params(ws: Path, tmp: Path):
    from mcp.client.stdio import StdioServerParameters

    return StdioServerParameters(command=sys.executable, args=["-m", "safereq", "mcp", "--offline", str(ws)],
                                 cwd=str(ws), env={k: v for k, v in _env(tmp).items() if k != "PYTHONSTARTUP"})


async def startup(ws: Path, tmp: Path) -> float:
    from mcp import Client

    started = time.perf_counter()
    async with Client(_params(ws, tmp), read_timeout_seconds=600) as client:
        result = await client.call_tool("find_items", {"id": "SG-1"})
        assert not result.is_error, result.content[0].text
        return time.perf_counter() - started


async def calls(ws: Path, tmp: Path, n: int) -> dict[str, list[float]]:
    from mcp import Client

    docs = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("tsr-*.md"))
    doc = docs[len(docs) // 2]
    async with Client(_params(ws, tmp), read_timeout_seconds=600) as client:
        found = await client.call_tool("find_items", {"kind": "TSR", "limit": 200})
        ids = [i["id"] for i in found.structured_content["items"]]
        plan = {
            "find_items (text)": lambda k: ("find_items", {"text": f"fault {k}", "limit": 50}),
            "find_items (kind+ASIL)": lambda k: ("find_items", {"kind": "TSR", "asil": "C", "offset": k * 50}),
            "get_item": lambda k: ("get_item", {"id": ids[k % len(ids)]}),
            "check (a document)": lambda k: ("check", {"path": doc}),
            "check (workspace, errors)": lambda k: ("check", {"min_severity": "error", "offset": k}),
            "coverage, after an edit": lambda k: ("coverage", {"offset": k * 50}),
            "coverage, unchanged": lambda k: ("coverage", {"offset": k * 50 + 25}),
            "suspect_links, after an edit": lambda k: ("suspect_links", {}),
            "search_knowledge": lambda k: ("search_knowledge", {"query": ["ASIL decomposition", "safe state",
                                                                          "fault tolerant time interval"][k % 3]}),
        }
        out: dict[str, list[float]] = {name: [] for name in plan}
        out["edit on disk, then get_item"] = []
        for k in range(n):
            for name, make in plan.items():
                tool, args = make(k)
                started = time.perf_counter()
                result = await client.call_tool(tool, args)
                out[name].append(time.perf_counter() - started)
                assert not result.is_error, (name, result.content[0].text)
            path = ws / doc
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace(" shall ", f" shall (edit {k}) ", 1), encoding="utf-8")
            started = time.perf_counter()
            result = await client.call_tool("get_item", {"id": ids[0]})
            out["edit on disk, then get_item"].append(time.perf_counter() - started)
            assert not result.is_error
        return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--calls", type=int, default=15)
    ap.add_argument("--docs", type=int, default=200)
    ap.add_argument("--per-doc", type=int, default=100)
    ap.add_argument("--json", default=str(REPO / "benchmarks" / "results" / "mcp.json"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        ws = tmp / "ws"
        ws.mkdir()
        size = generate.write(generate.workspace(args.docs, args.per_doc), ws)
        for cmd in (["init", "-q"], ["add", "-A"], ["-c", "user.name=b", "-c", "user.email=b@x", "commit", "-qm", "ws"]):
            subprocess.run(["git", "-C", str(ws), *cmd], check=True, capture_output=True)
        version = process_runs(args.runs, tmp, [sys.executable, "-m", "safereq", "--version"])
        sdk = process_runs(args.runs, tmp, [sys.executable, "-c", "import mcp.server.mcpserver"])
        check = process_runs(args.runs, tmp, [sys.executable, "-m", "safereq", "check", "-q", str(ws)], ok=(0, 1))
        starts = [asyncio.run(startup(ws, tmp)) for _ in range(args.runs)]
        latency = asyncio.run(calls(ws, tmp, args.calls))
    rows = {"safereq --version": version, "python: import the mcp SDK": sdk, "safereq check (same workspace)": check,
            "start-up to first answer": starts, **latency}
    results = {"data": {"documents": args.docs, "requirements": args.docs * args.per_doc, "bytes": size},
               "load_average": os.getloadavg(), "cpus": os.cpu_count(),
               "median_s": {k: round(statistics.median(v), 4) for k, v in rows.items()},
               "min_s": {k: round(min(v), 4) for k, v in rows.items()},
               "samples": {k: len(v) for k, v in rows.items()}, "target_call_s": TARGET_CALL_S}
    width = max(map(len, rows))
    print(f"{args.docs * args.per_doc:,} requirements in {args.docs} documents ({size / 1e6:.1f} MB); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'':<{width}}  median     min   n")
    for name, values in rows.items():
        print(f"{name:<{width}}  {statistics.median(values):6.3f}s {min(values):6.3f}s {len(values):>3}")
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
