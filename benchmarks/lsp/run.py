"""Language-server benchmarks of safereq, against the targets of issue 3.

    /work/main/.venv/bin/python benchmarks/lsp/run.py [--rounds 9] [--edits 60] [--json FILE] [--skip-memory]

Measures, on documents from benchmarks/core/generate.py written to a temporary folder:

- start-up: spawn → InitializeResult for ``python -m safereq serve`` and, alternately in the same run, for a
  bare pygls server started the same way (benchmarks/lsp/bare_server.py); target: within 1.2× of it;
- one-line edit in a 2,000-requirement document → publishDiagnostics. *Server work* is measured in process
  (the real server object fed the real JSON messages, output serialised to a null writer): handling the
  didChange, syncing and checking (the core), converting and serialising the diagnostics (the LSP layer);
  target: under 10 ms at p95. The end-to-end latency seen by a client over stdio (debounce set to 0) is
  reported beside it. Two edits: within a line, and inserting a line (which moves every item below it);
- hover and completion on that document: server work in process and round trip over stdio;
- memory of a 20,000-requirement workspace (200 documents): resident set size of the server once loaded and
  checked, beside the bare pygls server's, with the load time.

Timing is never asserted in tests; this is where speed is watched. Prints a table and writes JSON
(default benchmarks/results/lsp.json). The machine load average is recorded: the figures are from a shared,
2-core machine and are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "core"))

from rpc import Client  # noqa: E402

import generate  # noqa: E402

PY = sys.executable
SAFEREQ = [PY, "-m", "safereq", "serve", "--log-level", "warning"]
BARE = [PY, str(HERE / "bare_server.py")]
TARGET_STARTUP_RATIO = 1.2
TARGET_EDIT_P95_MS = 10.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def summary(values_s: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values_s]
    return {"p50_ms": statistics.median(ms), "p95_ms": pct(ms, 0.95), "max_ms": max(ms), "n": len(ms)}


# -- start-up ----------------------------------------------------------------------------------------------
async def _spawn_to_initialize(cmd: list[str]) -> float:
    start = time.perf_counter()
    client = await Client.spawn(*cmd)
    await client.initialize(None)
    elapsed = time.perf_counter() - start
    await client.close()
    return elapsed


async def startup(rounds: int) -> dict[str, Any]:
    bare, ours = [], []
    for _ in range(rounds):  # alternate, so both see the same machine load
        bare.append(await _spawn_to_initialize(BARE))
        ours.append(await _spawn_to_initialize(SAFEREQ))
    b, o = statistics.median(bare), statistics.median(ours)
    return {"bare_pygls": summary(bare), "safereq": summary(ours), "ratio_of_medians": o / b,
            "target_ratio": TARGET_STARTUP_RATIO}


# -- in-process server ----------------------------------------------------------------------------------------
class NullWriter:
    """Stands in for stdout: counts bytes (so serialisation is measured) and notes when a response is written."""

    def __init__(self) -> None:
        self.bytes = 0
        self.waiting: tuple[int, asyncio.Future] | None = None

    def write(self, data: bytes) -> None:
        self.bytes += len(data)
        if self.waiting is not None:
            msg_id, future = self.waiting
            now = time.perf_counter()
            body = json.loads(data.split(b"\r\n\r\n", 1)[1])
            if body.get("id") == msg_id and not future.done():
                future.set_result(now)

    def close(self) -> None:
        pass


class InProcess:
    """The real server object, fed JSON exactly as the stdio reader would feed it."""

    def __init__(self) -> None:
        from safereq.lsp.server import create_server

        self.ls = create_server()
        self.writer = NullWriter()
        self.ls.protocol.set_writer(self.writer)
        self._id = 0
        self.core_s: list[float] = []
        self.flush_s: list[float] = []

    def feed(self, method: str, params: Any, request: bool = False) -> None:
        payload: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self._id += 1
            payload["id"] = self._id
        message = json.loads(json.dumps(payload), object_hook=self.ls.protocol.structure_message)
        self.ls.protocol.handle_message(message)

    async def start(self, root: Path) -> None:
        caps = {"general": {"positionEncodings": ["utf-16"]},
                "textDocument": {"publishDiagnostics": {"relatedInformation": True, "codeDescriptionSupport": True},
                                 "hover": {"contentFormat": ["markdown"]},
                                 "completion": {"completionItem": {"documentationFormat": ["markdown"]}}},
                "workspace": {"workspaceEdit": {"documentChanges": True}}}
        self.feed("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": caps,
                                 "workspaceFolders": [{"uri": root.as_uri(), "name": "bench"}]}, request=True)
        self.feed("initialized", {})
        while not (self.ls._session is not None and self.ls.session.loaded):
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # let the first, workspace-wide publication run
        session = self.ls.session
        original = session.findings

        def timed():
            t = time.perf_counter()
            try:
                return original()
            finally:
                self.core_s.append(time.perf_counter() - t)

        session.findings = timed  # type: ignore[method-assign]

    def change_and_publish(self, uri: str, version: int, rng: dict, text: str) -> float:
        """didChange, then the debounced publication run at once; returns the seconds of server work."""
        start = time.perf_counter()
        self.feed("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"range": rng, "text": text}]})
        self.ls.publisher.cancel()
        self.ls.publisher.flush()
        return time.perf_counter() - start

    async def request(self, method: str, params: Any) -> float:
        """Seconds from receiving the request to writing its response (async handlers included)."""
        future = asyncio.get_running_loop().create_future()
        self.writer.waiting = (self._id + 1, future)
        start = time.perf_counter()
        self.feed(method, params, request=True)
        done = await asyncio.wait_for(future, 60)
        self.writer.waiting = None
        return done - start


def _edit_sites(text: str) -> tuple[int, str, int]:
    """A statement line in the middle of the document: (line, word to toggle, its column)."""
    lines = text.split("\n")
    for i in range(len(lines) // 2, len(lines)):
        if " shall " in lines[i] and "implausible" in lines[i]:
            return i, "implausible", lines[i].index("implausible")
    raise RuntimeError("no statement line to edit")


def _edits(text: str, count: int):
    """Alternating edits: (range, new text) pairs that keep the document valid."""
    line, word, col = _edit_sites(text)
    other = "unexpected!"  # same length as "implausible"
    for k in range(count):
        old, new = (word, other) if k % 2 == 0 else (other, word)
        yield ({"start": {"line": line, "character": col}, "end": {"line": line, "character": col + len(old)}}, new)


def _insertions(text: str, count: int):
    """Alternately insert a line above the edit site and remove it again (everything below moves)."""
    line, _word, _col = _edit_sites(text)
    for k in range(count):
        if k % 2 == 0:
            yield ({"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "Note.\n")
        else:
            yield ({"start": {"line": line, "character": 0}, "end": {"line": line + 1, "character": 0}}, "")


def _positions(text: str) -> dict[str, dict[str, int]]:
    lines = text.split("\n")
    link = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("- Derived from: FSR-"))
    statement, _w, col = _edit_sites(text)
    asil = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("- ASIL: "))
    return {
        "hover_link": {"line": link, "character": 18},
        "hover_statement": {"line": statement, "character": col + 2},
        "complete_link": {"line": link, "character": len(lines[link])},
        "complete_asil": {"line": asil, "character": len(lines[asil])},
    }


async def in_process(root: Path, doc: Path, edits: int) -> dict[str, Any]:
    server = InProcess()
    await server.start(root)
    text = doc.read_text(encoding="utf-8")
    uri = doc.as_uri()
    server.feed("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1,
                                                          "text": text}})
    server.ls.publisher.cancel()
    server.ls.publisher.flush()
    out: dict[str, Any] = {}
    version = 1
    for name, gen in (("edit_in_line", _edits), ("edit_insert_line", _insertions)):
        server.core_s.clear()
        total: list[float] = []
        gc.collect()
        for rng, new in gen(text, edits):
            version += 1
            total.append(server.change_and_publish(uri, version, rng, new))
        core = list(server.core_s)
        lsp = [t - c for t, c in zip(total, core, strict=True)]
        out[name] = {"server_work": summary(total), "core_sync_and_check": summary(core), "lsp_layer": summary(lsp)}
    findings = server.ls.session.findings().get(str(doc), [])
    out["diagnostics_in_document"] = len(findings)
    pos = _positions(text)
    for name, method in (("hover_link", "textDocument/hover"), ("hover_statement", "textDocument/hover"),
                         ("complete_link", "textDocument/completion"), ("complete_asil", "textDocument/completion")):
        times = [await server.request(method, {"textDocument": {"uri": uri}, "position": pos[name]}) for _ in range(edits)]
        out[name] = summary(times)
    return out


# -- over stdio ------------------------------------------------------------------------------------------
async def _ready(client: Client) -> float:
    ready = client.expect("safereq/status", lambda p: p["state"] in ("ready", "error"))
    client.notify("initialized", {})
    return await asyncio.wait_for(ready, 600)


async def over_stdio(root: Path, doc: Path, edits: int) -> dict[str, Any]:
    client = await Client.spawn(*SAFEREQ, env={"SAFEREQ_LSP_DEBOUNCE_MS": "0"})
    await client.initialize(root.as_uri())
    await _ready(client)
    text = doc.read_text(encoding="utf-8")
    uri = doc.as_uri()
    first = client.expect("textDocument/publishDiagnostics", lambda p: p["uri"] == uri)
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1,
                                                            "text": text}})
    await asyncio.wait_for(first, 120)
    out: dict[str, Any] = {}
    version = 1
    for name, gen in (("edit_in_line", _edits), ("edit_insert_line", _insertions)):
        latencies = []
        for rng, new in gen(text, edits):
            version += 1
            arrived = client.expect("textDocument/publishDiagnostics",
                                    lambda p, v=version: p["uri"] == uri and p.get("version") == v)
            start = time.perf_counter()
            client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"range": rng, "text": new}]})
            latencies.append(await asyncio.wait_for(arrived, 120) - start)
        out[name] = summary(latencies)
    pos = _positions(text)
    for name, method in (("hover_link", "textDocument/hover"), ("complete_link", "textDocument/completion"),
                         ("complete_asil", "textDocument/completion")):
        times = []
        for _ in range(edits):
            start = time.perf_counter()
            arrived, _answer = await client.request(method, {"textDocument": {"uri": uri}, "position": pos[name]})
            times.append(arrived - start)
        out[name] = summary(times)
    await client.close()
    return out


async def memory(root: Path, requirements: int) -> dict[str, Any]:
    bare = await Client.spawn(*BARE)
    await bare.initialize(None)
    bare_rss = bare.rss_mib()
    await bare.close()
    client = await Client.spawn(*SAFEREQ)
    start = time.perf_counter()
    await client.initialize(root.as_uri())
    initialized = time.perf_counter()
    ready = await _ready(client)
    await client.request("workspace/symbol", {"query": "TSR"})  # answered after the first publication
    checked = time.perf_counter()
    rss, peak = client.rss_mib()
    published = sum(1 for _t, m, _p in client.notifications if m == "textDocument/publishDiagnostics")
    await client.close()
    return {"requirements": requirements, "rss_mib": rss, "peak_rss_mib": peak, "bare_pygls_rss_mib": bare_rss[0],
            "initialize_s": initialized - start, "load_s": ready - initialized,
            "load_and_first_check_s": checked - initialized, "documents_with_diagnostics": published}


# -- report ------------------------------------------------------------------------------------------------
def _line(label: str, s: dict[str, float]) -> str:
    return f"  {label:<34} p50 {s['p50_ms']:8.2f} ms   p95 {s['p95_ms']:8.2f} ms   max {s['max_ms']:8.2f} ms"


def report(results: dict[str, Any]) -> str:
    out = [f"safereq language server benchmarks ({results['machine']['cpus']} cpus, load {results['machine']['loadavg_start'][0]:.1f})"]
    if "startup" in results:
        s = results["startup"]
        out += ["start-up: spawn → InitializeResult", _line("bare pygls", s["bare_pygls"]), _line("safereq serve", s["safereq"]),
                f"  ratio of medians: {s['ratio_of_medians']:.2f}× (target ≤ {TARGET_STARTUP_RATIO}×)"]
    if "in_process" in results:
        r = results["in_process"]
        out.append(f"2,000-requirement document ({r['diagnostics_in_document']} diagnostics): server work, in process")
        for name in ("edit_in_line", "edit_insert_line"):
            out += [_line(f"{name}: total", r[name]["server_work"]), _line(f"{name}: core (sync+check)", r[name]["core_sync_and_check"]),
                    _line(f"{name}: LSP layer", r[name]["lsp_layer"])]
        out += [_line(name, r[name]) for name in ("hover_link", "hover_statement", "complete_link", "complete_asil")]
        out.append(f"  target: one-line edit p95 < {TARGET_EDIT_P95_MS} ms of server work")
    if "stdio" in results:
        r = results["stdio"]
        out.append("same document, round trip over stdio (debounce 0)")
        out += [_line(name, r[name]) for name in ("edit_in_line", "edit_insert_line", "hover_link", "complete_link", "complete_asil")]
    if "memory" in results:
        m = results["memory"]
        out += [f"{m['requirements']:,}-requirement workspace",
                f"  RSS {m['rss_mib']:.0f} MiB (peak {m['peak_rss_mib']:.0f} MiB); bare pygls {m['bare_pygls_rss_mib']:.0f} MiB",
                f"  initialize {m['initialize_s']:.2f} s; load {m['load_s']:.1f} s; load + first check {m['load_and_first_check_s']:.1f} s"]
    return "\n".join(out)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                           "loadavg_start": os.getloadavg()},
                               "command": " ".join([Path(PY).name, *sys.argv])}
    with tempfile.TemporaryDirectory(prefix="safereq-lsp-bench-") as tmp:
        single = Path(tmp) / "single"
        generate.write({"requirements.md": generate.single_document(2000)}, single)
        doc = single / "requirements.md"
        if not args.skip_startup:
            results["startup"] = await startup(args.rounds)
        results["in_process"] = await in_process(single, doc, args.edits)
        results["stdio"] = await over_stdio(single, doc, args.edits)
        if not args.skip_memory:
            large = Path(tmp) / "large"
            generate.write(generate.workspace(200, 100), large)
            results["memory"] = await memory(large, 20000)
    results["machine"]["loadavg_end"] = os.getloadavg()
    return results


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=9, help="start-up rounds per server (default 9)")
    p.add_argument("--edits", type=int, default=60, help="edits and requests per measurement (default 60)")
    p.add_argument("--skip-memory", action="store_true", help="skip the 20,000-requirement workspace")
    p.add_argument("--skip-startup", action="store_true", help="skip the start-up comparison")
    p.add_argument("--json", type=Path, default=REPO / "benchmarks" / "results" / "lsp.json")
    args = p.parse_args()
    results = asyncio.run(main_async(args))
    print(report(results))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
