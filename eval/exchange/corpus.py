"""Import every public ReqIF and needs.json file of the corpus with this version and with a previous one,
in one run, and report how many import, how many are refused and why, and how many statements come through.

The files are not part of safereq (their licences for redistribution differ or are unclear): they are read
at run time from bare snapshots under ``/work/.mirror`` (``fetch github:owner/name``), and a repository
that is not there is skipped and named. ``--base REV`` is a git revision of this repository (default
``0cc4045``, the version before the exchange fixes); it is checked out into a temporary worktree so that
both versions import the same files in the same run.

    python eval/exchange/corpus.py                   # both versions, the table of docs/exchange.md
    python eval/exchange/corpus.py --files           # and one line per file
    python eval/exchange/corpus.py --worker DIR ...  # (internal) one version's imports, as JSON lines

Per file and version: ``imported`` (exit 0), ``refused`` (exit 2 with a message; the message's kind is
counted), ``internal error`` (a crash by our own definition) or ``traceback``; the items written, how many
of them have a statement (non-empty text) and how many spec objects/needs the file holds (read with the
``reqif`` library, the same count for both versions), how many lines went to standard error, and how many
of them say that a written document reads back differently from what was imported (this version's
self-check; the previous version has none, so its figure is 0 by construction).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

MIRROR = Path(os.environ.get("SAFEREQ_MIRROR", "/work/.mirror"))
ROOT = Path(__file__).resolve().parents[2]
# Repositories that publish ReqIF or needs.json files (tool test data, examples, a standard as ReqIF), with
# the licence their repository states. Nothing of them is copied into safereq.
SOURCES = {
    "strictdoc-project/reqif": "Apache-2.0",
    "STARIONGROUP/reqifsharp": "Apache-2.0",
    "arunkapania/subset026reqif": "no licence file (ERTMS Subset-026 converted to ReqIF; redistribution unclear)",
    "domohuhn/reqif_editor": "BSD-style (its LICENSE)",
    "eclipse-rmf/org.eclipse.rmf": "EPL-1.0 (an Eclipse project; no top-level licence file)",
    "strictdoc-project/strictdoc": "Apache-2.0",
    "KayErikMuench/reqiftools": "EPL-1.0",
    "useblocks/sphinx-needs": "MIT",
}
SUFFIXES = (".reqif", ".reqifz")


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, check=True).stdout


def collect(target: Path) -> tuple[list[tuple[str, Path]], list[str]]:
    """Copy every corpus file out of the snapshots into ``target``; (source name, path) and missing repos."""
    files, missing = [], []
    for name in SOURCES:
        repo = MIRROR / name.replace("/", "+") / "repo"
        if not (repo / "HEAD").is_file():
            missing.append(name)
            continue
        for path in _git(repo, "ls-tree", "-r", "--name-only", "HEAD").decode("utf-8", "replace").splitlines():
            lower = path.lower()
            is_needs = lower.endswith(".json") and "needs" in lower.rsplit("/", 1)[-1]
            if not (lower.endswith(SUFFIXES) or is_needs):
                continue
            try:
                data = _git(repo, "show", f"HEAD:{path}")
            except subprocess.CalledProcessError:
                continue  # absent from the snapshot (large files are left out)
            if is_needs and b'"versions"' not in data[:200000]:
                continue  # a JSON file named like needs but not a needs.json (a schema, a config)
            out = target / name.replace("/", "+") / path
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
            files.append((name, out))
    return files, missing


def _objects(path: Path) -> int | None:
    """Spec objects (ReqIF) or needs (needs.json) the file holds, by the reqif library / json; None if unreadable."""
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
            version = data["versions"].get(data.get("current_version", ""), next(iter(data["versions"].values())))
            return len(version["needs"])
        from reqif.parser import ReqIFParser, ReqIFZParser

        if path.suffix.lower() == ".reqifz":
            bundles = list(ReqIFZParser.parse(str(path)).reqif_bundles.values())
        else:
            bundles = [ReqIFParser.parse(str(path))]
        return sum(len(b.core_content.req_if_content.spec_objects or []) for b in bundles)
    except Exception:
        return None


def _kind_of(message: str) -> str:
    """The kind of a refusal, for counting: the message without paths, numbers and quoted parts."""
    text = message.split(": ", 1)[-1] if message.startswith("safereq: ") else message
    text = re.sub(r"^\S+\.(?:reqifz?|json|xml): ", "", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "…", text)
    return " ".join(text.split())[:90]


def worker(out_dir: Path, files: list[str]) -> None:
    """Import each file with the safereq on ``sys.path``; print one JSON line per file."""
    from safereq.cli.main import main
    from safereq.exchange.records import collect as collect_records
    from safereq.workspace import Workspace
    from safereq.workspace.loader import load

    for number, name in enumerate(files):
        target = out_dir / str(number)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                status = main(["import", name, "-o", str(target), "--force"])
            except BaseException as exc:  # a traceback escaping the command is a finding, not the end of the run
                status = f"traceback: {type(exc).__name__}"
        lines = err.getvalue().splitlines()
        items = statements = 0
        if target.is_dir():
            loaded = load([str(target)], cwd=target)
            ws = Workspace()
            ws.update_many((s.path, s.text) for s in loaded.sources)
            records = [r for d in collect_records(ws) for r in d.records]
            items = len(records)
            statements = sum(1 for r in records if r.text.strip())
        outcome = ("imported" if status == 0 else status if isinstance(status, str)
                   else "internal error" if any("internal error" in line for line in lines) else "refused")
        readback = sum(1 for line in lines if "reads back" in line or "does not read it back" in line
                       or "reads as an item" in line)
        print(json.dumps({"file": name, "outcome": outcome, "items": items, "statements": statements,
                          "stderr": len(lines), "readback": readback,
                          "message": lines[-1] if lines and outcome != "imported" else ""}), flush=True)


def _run_version(tree: Path, files: list[Path], scratch: Path) -> dict[str, dict]:
    list_file = scratch / "files.txt"
    list_file.write_text("\n".join(map(str, files)), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tree / "server")}
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(scratch), "--list",
                           str(list_file)], capture_output=True, text=True, env=env)
    rows = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            rows[row["file"]] = row
    if proc.returncode != 0 and not rows:
        raise SystemExit(f"the worker for {tree} failed: {proc.stderr[-2000:]}")
    return rows


def _summary(rows: dict[str, dict], files: list[tuple[str, Path]], objects: dict[str, int | None]) -> dict:
    outcomes = Counter(rows[str(p)]["outcome"] for _s, p in files if str(p) in rows)
    reasons = Counter(_kind_of(rows[str(p)]["message"]) for _s, p in files
                      if str(p) in rows and rows[str(p)]["outcome"] != "imported")
    held = sum(objects[str(p)] or 0 for _s, p in files if str(p) in rows and rows[str(p)]["outcome"] == "imported")
    return {
        "files": len(files), "outcomes": dict(outcomes), "reasons": dict(reasons.most_common()),
        "items": sum(rows[str(p)]["items"] for _s, p in files if str(p) in rows),
        "statements": sum(rows[str(p)]["statements"] for _s, p in files if str(p) in rows),
        "objects_in_imported_files": held,
        "stderr_lines": sum(rows[str(p)]["stderr"] for _s, p in files if str(p) in rows),
        "readback_differences": sum(rows[str(p)].get("readback", 0) for _s, p in files if str(p) in rows),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="0cc4045", help="the previous version (a git revision)")
    parser.add_argument("--files", action="store_true", help="one line per file as well")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    parser.add_argument("--worker", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--list", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(Path(args.worker), Path(args.list).read_text(encoding="utf-8").splitlines())
        return 0
    with tempfile.TemporaryDirectory(prefix="safereq-corpus-") as tmp:
        tmp_path = Path(tmp)
        files, missing = collect(tmp_path / "files")
        for name in missing:
            print(f"skipped (no snapshot in {MIRROR}): {name}", file=sys.stderr)
        if not files:
            print("no corpus files found", file=sys.stderr)
            return 1
        base_tree = tmp_path / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base_tree), args.base],
                       check=True)
        try:
            paths = [p for _s, p in files]
            objects = {str(p): _objects(p) for p in paths}
            results = {}
            for label, tree in (("previous", base_tree), ("this", ROOT)):
                scratch = tmp_path / f"out-{label}"
                scratch.mkdir()
                results[label] = _run_version(tree, paths, scratch)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)], check=False)
        report = {"base": args.base, "sources": SOURCES, "missing_sources": missing,
                  "by_source": dict(Counter(s for s, _p in files)),
                  **{label: _summary(rows, files, objects) for label, rows in results.items()}}
        if args.files:
            for source, path in files:
                key = str(path)
                cells = [f"{label}: {rows.get(key, {}).get('outcome', '?')} {rows.get(key, {}).get('items', 0)}/"
                         f"{rows.get(key, {}).get('statements', 0)}" for label, rows in results.items()]
                print(f"{path.relative_to(tmp_path / 'files')}  objects={objects[key]}  " + "  ".join(cells))
                for label, rows in results.items():
                    if rows.get(key, {}).get("message"):
                        print(f"    {label}: {rows[key]['message'][:200]}")
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
