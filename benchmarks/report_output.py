"""Writing large reports: ``safereq check --format json|sarif|text`` with about 20,000 findings.

    .venv/bin/python benchmarks/report_output.py [--runs 5] [--items 20000] [--before REV] [--json FILE]

The workspace is one ``Derived from`` cycle through ``--items`` requirements (benchmarks/shapes/generate.py:
a finding on every one, each with 8 related places) and a document of vague statements that carry emoji
(a finding with a fix on each line, and columns SARIF converts to UTF-16). It is checked once in a child
process; then the report is rendered ``--runs`` times per format and the median wall and CPU time and the
peak memory the rendering adds are recorded: what the CLI does after checking (``_render`` in
cli/check.py), without the check itself.

With ``--before REV`` the same is measured, in the same run and interleaved format by format, with the
package as it was at that commit (``git archive`` of server/ and rules/), and each format's output must be
byte for byte the same as before (the digests are compared). Figures go to benchmarks/results/report_output.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FORMATS = ("json", "sarif", "text")
sys.path.insert(0, str(HERE / "core"))

from earlier import unpack  # noqa: E402  (benchmarks/core/earlier.py)


def vague(n: int) -> str:
    """n requirements whose statements are vague and carry an emoji before the finding (astral columns)."""
    return "# Vague\n\n" + "".join(
        f"## FSR-V{i}: Vague {i}\n\nThe 🚗 system shall react quickly and adequately.\n\n- ASIL: B\n\n"
        for i in range(1, n + 1))


def write_workspace(folder: Path, items: int) -> None:
    sys.path.insert(0, str(HERE / "shapes"))
    import generate  # benchmarks/shapes/generate.py

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cycle.md").write_text(generate.cycle(items), encoding="utf-8")
    (folder / "vague.md").write_text(vague(max(1, items // 20)), encoding="utf-8")


def child(tree: Path, workspace: Path, fmt: str, runs: int) -> dict[str, object]:
    """In a fresh interpreter: check the workspace with the package under ``tree``, then time the report."""
    sys.path.insert(0, str(tree / "server"))
    from safereq.checks import all_rule_infos
    from safereq.checks.config import load_config
    from safereq.checks.engine import Checker
    from safereq.cli.check import _render
    from safereq.workspace import Workspace

    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(workspace.glob("*.md"))}
    ws = Workspace()
    for path, text in texts.items():
        ws.update(path, text)
    checker = Checker(load_config(workspace))
    findings = sorted(checker.check(ws), key=lambda f: f.sort_key())
    severities = {rid: checker.severities.get(rid) for rid in checker.rules}
    rules = all_rule_infos()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    walls, cpus, digest, size = [], [], "", 0
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        report = _render(fmt, findings, rules, severities, workspace, texts)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
        digest, size = hashlib.sha256(report.encode("utf-8", "surrogatepass")).hexdigest(), len(report)
        del report
    return {"findings": len(findings), "wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus),
            "walls_s": walls, "peak_added_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024,
            "sha256": digest, "chars": size}


def measure(tree: Path, workspace: Path, fmt: str, runs: int) -> dict[str, object]:
    out = subprocess.run([sys.executable, __file__, "--child", str(tree), str(workspace), fmt, str(runs)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)



def main() -> int:
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        print(json.dumps(child(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4], int(sys.argv[5]))))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--items", type=int, default=20000)
    p.add_argument("--before", metavar="REV", help="also measure the package at this git commit, and compare")
    p.add_argument("--json", type=Path, default=HERE / "results" / "report_output.json")
    args = p.parse_args()
    results: dict[str, object] = {"command": " ".join([sys.executable, *sys.argv]), "cpus": os.cpu_count(),
                                  "loadavg_start": os.getloadavg()}
    same = True
    with tempfile.TemporaryDirectory(prefix="safereq-report-") as tmp:
        workspace = Path(tmp) / "ws"
        write_workspace(workspace, args.items)
        trees = {"after": ROOT}
        if args.before:
            trees = {"before": unpack(args.before, Path(tmp) / "before"), **trees}
        for fmt in FORMATS:
            results[fmt] = {label: measure(tree, workspace, fmt, args.runs) for label, tree in trees.items()}
            row = results[fmt]
            for label, r in row.items():
                print(f"{fmt:6} {label:7} {r['findings']:6} findings {r['wall_s']:6.3f} s wall {r['cpu_s']:6.3f} s CPU"
                      f" {r['peak_added_mb']:7.1f} MB added peak  {r['chars'] / 1e6:6.1f} M chars")
            if "before" in row:
                identical = row["before"]["sha256"] == row["after"]["sha256"]
                same = same and identical
                print(f"{fmt:6} output {'identical to' if identical else 'DIFFERS from'} {args.before}")
    results["loadavg_end"] = os.getloadavg()
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
