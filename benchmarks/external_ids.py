"""Many findings: the core workspace where every requirement also links a test case kept outside it.

    .venv/bin/python benchmarks/external_ids.py [--runs 3] [--json FILE]

Test cases often live in a test management tool (``Verified by: XT-PER-17000``). The benchmark's own
20,000-requirement workspace (benchmarks/core/generate.py) is written once as it is (the baseline, measured
in the same run) and once with such a link on every requirement, and ``safereq check .`` (text report to a
file, as a user runs it) is timed through the real CLI:

- external links, ``external-ids`` not set: every link is a ``trace/dangling-link`` finding (tens of
  thousands), each with spelling suggestions searched among all IDs: what printing and suggesting many
  findings cost;
- external links with ``external-ids = ["XT-*"]`` in safereq.toml: no such findings, close to the baseline.

Medians of ``--runs`` wall and CPU times; the figures go to benchmarks/results/external_ids.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "core"))
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
from run import Sample, run_child, safereq_command, use_bytecode_cache  # noqa: E402

_ITEM = re.compile(r"^(#{2,3} )((?:SG|FSR|TSR)-[A-Z0-9-]+): ", re.MULTILINE)
_DERIVED = re.compile(r"^(- Derived from: .*)$", re.MULTILINE)


def with_external_links(files: dict[str, str]) -> dict[str, str]:
    """Every requirement and goal gets ``Verified by: XT-<its ID>`` (appended to an existing one)."""
    out = {}
    for name, text in files.items():
        parts = _ITEM.split(text)
        chunks = [parts[0]]
        for k in range(1, len(parts), 3):
            head, item_id, body = parts[k], parts[k + 1], parts[k + 2]
            ext = "XT-" + item_id.split("-", 1)[1]
            if "\n- Verified by: " in body.split("\n#", 1)[0]:
                body = re.sub(r"^(- Verified by: .*)$", rf"\1, {ext}", body, count=1, flags=re.MULTILINE)
            else:
                block, sep, rest = body.partition("\n\n#")
                body = block.rstrip("\n") + f"\n- Verified by: {ext}\n" + (sep + rest if sep else "\n")
            chunks.append(f"{head}{item_id}: {body}")
        out[name] = "".join(chunks)
    return out


def _time(cmd: list[str], folder: Path, runs: int) -> dict[str, float]:
    samples: list[Sample] = []
    for _ in range(runs):
        sample, status, _rss = run_child([*cmd, "check", ".", "--output", str(folder.parent / "report.txt")], folder)
        samples.append(sample)
    lines = (folder.parent / "report.txt").read_text(encoding="utf-8").count("\n")
    return {"wall_s": statistics.median(s.wall for s in samples), "cpu_s": statistics.median(s.cpu for s in samples),
            "walls_s": [s.wall for s in samples], "exit": status, "report_lines": lines}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--json", type=Path, default=HERE / "results" / "external_ids.json")
    args = p.parse_args()
    files = generate.workspace(200, 100)
    results: dict[str, object] = {"command": " ".join([sys.executable, *sys.argv]), "cpus": os.cpu_count(),
                                  "loadavg_start": os.getloadavg()}
    with tempfile.TemporaryDirectory(prefix="safereq-ext-") as tmp:
        root = Path(tmp)
        cases = {"baseline": (files, ""), "external_links": (with_external_links(files), ""),
                 "external_links_declared": (with_external_links(files), 'external-ids = ["XT-*"]\n')}
        cmd = safereq_command()
        use_bytecode_cache(root / "pycache")
        for label, (docs, config) in cases.items():
            folder = root / label / "ws"
            generate.write(docs, folder)
            if config:
                (folder / "safereq.toml").write_text(config, encoding="utf-8")
            run_child([*cmd, "check", ".", "--quiet", "--output", os.devnull], folder)  # warm-up
            results[label] = _time(cmd, folder, args.runs)
    results["loadavg_end"] = os.getloadavg()
    for label in ("baseline", "external_links", "external_links_declared"):
        r = results[label]
        print(f"{label:26} {r['wall_s']:6.2f} s wall {r['cpu_s']:6.2f} s CPU  {r['report_lines']:6} report lines")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
