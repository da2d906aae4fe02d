"""Whether this tree's reports are byte for byte those of an earlier commit (a speed change must not change them).

    /work/main/.venv/bin/python benchmarks/same_reports.py [--before REV] [--sets examples,fixtures,core,peers,single]

Extracts ``server/`` and ``rules/`` of ``REV`` (default: ``git merge-base HEAD main``, the commit this branch
started from or last merged) into a temporary folder with ``git archive`` and runs that code and this tree's,
each in a fresh process with its own ``PYTHONPATH``, on the same copies of:

- ``examples`` (examples/, with its safereq.toml) and ``fixtures`` (the Markdown of tests/fixtures/);
- ``core``: the core benchmark's 200 documents of 100 requirements (benchmarks/core/generate.py);
- ``peers``: the peers' shape of issue 26 (20 goals, 200 documents, test cases declared external);
- ``single``: one document of 2,000 requirements.

For every set: ``safereq check --no-cache --jobs 1`` in the text, json and sarif formats (the report file,
standard output and standard error, the exit status), this tree's check again on the default number of
workers (text), and ``safereq report --format json`` (the traceability data, built from the same parse).
Every pair must be identical; the differing cases are listed and the exit status is 1. About two minutes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "core"))

import generate  # noqa: E402  (benchmarks/core/generate.py)
from earlier import unpack  # noqa: E402  (benchmarks/core/earlier.py)

SETS = ("examples", "fixtures", "core", "peers", "single")
FORMATS = ("text", "json", "sarif")



def _write_set(name: str, folder: Path) -> None:
    if name == "examples":
        shutil.copytree(ROOT / "examples", folder)
    elif name == "fixtures":
        for path in (ROOT / "tests" / "fixtures").rglob("*.md"):
            target = folder / path.relative_to(ROOT / "tests" / "fixtures")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    elif name == "core":
        generate.write(generate.workspace(200, 100), folder)
    elif name == "peers":
        generate.write(generate.peers_workspace(), folder)
    elif name == "single":
        generate.write({"requirements.md": generate.single_document(2000)}, folder)
    else:
        raise SystemExit(f"unknown set {name!r}; known: {', '.join(SETS)}")


def _run(server: Path, cwd: Path, out: Path, argv: list[str], pycache: Path) -> bytes:
    """The report ``out`` (or the folder's files), standard output and error and the exit status, as bytes."""
    env = dict(os.environ, PYTHONPATH=str(server), PYTHONPYCACHEPREFIX=str(pycache),
               SAFEREQ_CACHE_DIR=str(out.parent / "user-cache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if out.is_dir():
        shutil.rmtree(out)
    out.unlink(missing_ok=True)
    proc = subprocess.run([sys.executable, "-m", "safereq", *argv], cwd=cwd, env=env, capture_output=True)
    if out.is_dir():
        report = b"".join(p.name.encode() + b"\0" + p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file())
    else:
        report = out.read_bytes() if out.exists() else b"(no report)"
    return b"\0".join([report, proc.stdout, proc.stderr, str(proc.returncode).encode()])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", default=None, help="the commit to compare with (default: merge-base of HEAD and main)")
    p.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)}")
    args = p.parse_args()
    rev = args.before or subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], check=True,
                                        capture_output=True, text=True).stdout.strip()
    differ: list[str] = []
    compared = 0
    with tempfile.TemporaryDirectory(prefix="safereq-same-") as tmp:
        root = Path(tmp)
        trees = {"before": unpack(rev, root / "before") / "server", "now": ROOT / "server"}
        for name in args.sets.split(","):
            folder = root / "sets" / name
            _write_set(name, folder)
            # (label, arguments, report path, the before tree's case it must equal)
            cases: list[tuple[str, list[str], Path, str]] = []
            for fmt in FORMATS:
                out = root / f"report.{fmt}"
                cases.append((f"check --format {fmt}", ["check", ".", "--no-cache", "--jobs", "1", "--format", fmt,
                                                        "--output", str(out)], out, f"check --format {fmt}"))
            out = root / "report.text"
            cases.append(("check, default workers", ["check", ".", "--no-cache", "--output", str(out)], out,
                          "check --format text"))
            out = root / "traceability.json"
            cases.append(("report --format json", ["report", ".", "--format", "json", "--output", str(out)], out,
                          "report --format json"))
            before = {label: _run(trees["before"], folder, out, argv, root / "pycache-before")
                      for label, argv, out, _ in cases if label != "check, default workers"}
            for label, argv, out, reference in cases:
                now = _run(trees["now"], folder, out, argv, root / "pycache-now")
                compared += 1
                same = before[reference] == now
                print(f"{name:9} {label:24} {'same' if same else 'DIFFERS'} ({len(now):,} bytes)", flush=True)
                if not same:
                    differ.append(f"{name}: {label}")
                    stem = f"same-reports-{name}-{label.replace(' ', '_').replace('-', '')}"
                    (root.parent / f"{stem}-before.out").write_bytes(before[reference])
                    (root.parent / f"{stem}-now.out").write_bytes(now)
            shutil.rmtree(folder)
    print(f"{compared} comparisons against {rev[:12]}: {len(differ)} differ")
    for d in differ:
        print(f"DIFFERS: {d} (both outputs kept in {tempfile.gettempdir()}/same-reports-*.out)")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
