"""Peak memory of checking one document of each shape, against its size, and what the memory limit does
(issue 12, item 6).

    .venv/bin/python benchmarks/shapes/memory.py [--mb 4] [--json FILE]

Each shape of ``generate.MEMORY_SHAPES`` is written as one document of about ``--mb`` MB and checked cold
through the real CLI with a limit high enough never to stop it (``--max-memory 64GB``; ``--jobs 1``). The
figure is the child's peak RSS minus that of checking a one-line document in the same run (the interpreter and
safereq), per byte of document: what ``safereq.workspace.memory`` calls the cost of a shape. Then the issue's
documents (100 MB of ordinary requirements, a 50 MB paragraph on one line) and ones of twice the default
size are checked with the default limit: the table gives their peak RSS and how the check ended (refused up
front, stopped by the guard, or finished). Nothing is asserted: figures only. Writes
benchmarks/results/memory.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

from generate import MEMORY_SHAPES  # noqa: E402  (benchmarks/shapes/generate.py)

MB = 1024 * 1024


def write_shape(path: Path, shape: str, size: int) -> int:
    """Write the document in a child process and return its size: a child forked from a process holding the
    text would count that process's pages in its own peak RSS until it executes."""
    code = (f"import sys; sys.path.insert(0, {str(HERE)!r}); from generate import MEMORY_SHAPES; "
            f"open({str(path)!r}, 'w', encoding='utf-8').write(MEMORY_SHAPES[{shape!r}]({size}))")
    subprocess.run([sys.executable, "-c", code], check=True)
    return path.stat().st_size


def check(path: Path, *extra: str) -> dict:
    """Peak RSS, wall seconds, exit status and how one CLI check of ``path`` ended."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "safereq", "check", str(path), "--jobs", "1",
                                 "--max-file-size", "2GB", *extra], stdout=out, stderr=err)
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        refused = b"[io/too-large]" in out.read(1 << 16)
        stopped = b"checking stopped" in err.read()
    code = os.waitstatus_to_exitcode(status)
    ended = ("stopped by the guard" if stopped else "refused before reading" if refused else
             f"finished (exit {code})")
    return {"peak_rss": usage.ru_maxrss * 1024, "seconds": seconds, "exit": code, "ended": ended}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=float, default=4.0, help="size of each shape's document")
    ap.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "memory.json")
    args = ap.parse_args()
    results: dict = {"mb": args.mb, "load_before": os.getloadavg()[0], "shapes": {}, "limit": {}}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        empty = folder / "empty.md"
        empty.write_text("# Empty\n", encoding="utf-8")
        base = check(empty)["peak_rss"]
        results["baseline_rss"] = base
        print(f"baseline (one-line document): {base / MB:.0f} MiB")
        for name in MEMORY_SHAPES:
            path = folder / f"{name}.md"
            size = write_shape(path, name, int(args.mb * MB))
            got = check(path, "--max-memory", "64GB")
            per_byte = (got["peak_rss"] - base) / size
            results["shapes"][name] = {"size": size, **got, "per_byte": per_byte}
            print(f"{name:20} {size / MB:6.1f} MB  peak {got['peak_rss'] / MB:6.0f} MiB  "
                  f"{per_byte:6.1f} bytes per byte  {got['seconds']:5.1f} s", flush=True)
        for name, shape, mb in (("ordinary requirements", "chain", 100), ("one-line paragraph", "one-line", 50),
                                ("ordinary requirements", "chain", 10),
                                ("ordinary requirements", "chain", 20), ("every sentence with findings",
                                                                         "findings-paragraph", 20)):
            path = folder / f"limit-{shape}-{mb}.md"
            size = write_shape(path, shape, mb * MB)
            got = check(path)
            results["limit"][f"{name}, {mb} MB"] = {"size": size, **got}
            print(f"{name + f', {mb} MB':36} peak {got['peak_rss'] / MB:6.0f} MiB "
                  f"({got['peak_rss'] / size:4.1f}x)  {got['seconds']:5.1f} s  {got['ended']}", flush=True)
    results["load_after"] = os.getloadavg()[0]
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
