"""Multi-repository benchmark: ``safereq merge`` of 100 fragments of 1,000 requirements each.

    .venv/bin/python benchmarks/fragment/run.py [--repos 100] [--per-repo 1000] [--runs 3] [--json FILE]

Generates the core benchmarks' workspace (benchmarks/core/generate.py) with ``--repos × --per-repo``
requirements and splits its documents into ``--repos`` folders, one per repository; links cross them as in a
programme (goals in one document, FSRs and TSRs derived from them in others). Then, through the real CLI:

- ``safereq check REPO --fragment OUT`` for every repository (what each CI job runs), the first time and
  again with nothing changed (the fragment is reused);
- ``safereq merge`` of all fragments (median of ``--runs``), against ``safereq check`` of the union of the
  documents in one run in the same session (the baseline), and whether both report the same findings.

Wall and CPU time (user + system) are both given; on the shared machine CPU time is the better estimate.
"""

from __future__ import annotations

import argparse
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
sys.path.insert(0, str(HERE.parent / "core"))

import generate  # noqa: E402  (benchmarks/core/generate.py)

SAFEREQ = [sys.executable, "-m", "safereq"]


def timed(cmd: list[str], cwd: Path) -> tuple[float, float, bytes]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repos", type=int, default=100)
    ap.add_argument("--per-repo", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", default=str(HERE.parent / "results" / "fragment.json"))
    args = ap.parse_args()
    docs_per_repo = max(1, args.per_repo // 100)
    files = generate.workspace(args.repos * docs_per_repo, 100)
    with tempfile.TemporaryDirectory(prefix="safereq-fragments-") as tmp:
        root = Path(tmp)
        names = sorted(files)
        repos = []
        for r in range(args.repos):
            repo = root / f"repo{r:03d}"
            repos.append(repo.name)
            for name in names[r * docs_per_repo:(r + 1) * docs_per_repo]:
                path = repo / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(files[name], encoding="utf-8")
        first = [timed(SAFEREQ + ["check", repo, "--fragment", f"{repo}.json", "-q", "--format", "json"], root)
                 for repo in repos]
        again = [timed(SAFEREQ + ["check", repo, "--fragment", f"{repo}.json", "-q", "--format", "json"], root)
                 for repo in repos]
        merges, unions = [], []
        merged = union = b""
        for _ in range(args.runs):
            *m, merged = timed(SAFEREQ + ["merge", *(f"{r}.json" for r in repos), "--format", "json", "-q"], root)
            *u, union = timed(SAFEREQ + ["check", *repos, "--format", "json", "-q"], root)
            merges.append(m)
            unions.append(u)
        size = sum((root / f"{r}.json").stat().st_size for r in repos)
    same = json.loads(merged) == json.loads(union)
    med = lambda rows, i: statistics.median(r[i] for r in rows)  # noqa: E731
    figures = {
        "requirements": args.repos * docs_per_repo * 100, "repos": args.repos, "fragment_bytes_total": size,
        "check_with_fragment_per_repo_s": {"wall": med(first, 0), "cpu": med(first, 1)},
        "check_reusing_fragment_per_repo_s": {"wall": med(again, 0), "cpu": med(again, 1)},
        "merge_s": {"wall": med(merges, 0), "cpu": med(merges, 1)},
        "union_check_s": {"wall": med(unions, 0), "cpu": med(unions, 1)},
        "same_findings": same, "findings": len(json.loads(merged)), "load_average": os.getloadavg(),
    }
    print(f"{figures['requirements']} requirements in {args.repos} repositories; fragments {size / 2**20:.1f} MiB in all")
    for key in ("check_with_fragment_per_repo_s", "check_reusing_fragment_per_repo_s", "merge_s", "union_check_s"):
        print(f"  {key:36s} {figures[key]['wall']:7.2f} s wall {figures[key]['cpu']:7.2f} s CPU (median)")
    print(f"  merge and union report the same {figures['findings']} findings: {same}")
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
