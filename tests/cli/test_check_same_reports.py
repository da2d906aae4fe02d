"""Speed work must not change reports: on examples/ and a small generated workspace (the benchmarks' generator,
peers' shape), every way ``safereq check`` can reach its findings reports the same bytes — uncached in one
process, cached cold and warm, on forked workers — and the per-text caches of the statement analysis give
the same findings whether they start empty or full of other texts. (The comparison with an earlier commit's
code, which needs the git history, is benchmarks/same_reports.py.)"""

from __future__ import annotations

import functools
import shutil
import sys
from pathlib import Path

import pytest

from safereq.checks.config import Config
from safereq.checks.engine import Checker, parallel
from safereq.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "core"))

import generate  # noqa: E402  (benchmarks/core/generate.py)


@pytest.fixture(params=["examples", "generated"])
def workspace_dir(request, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    target = tmp_path / request.param
    if request.param == "examples":
        shutil.copytree(ROOT / "examples", target, ignore=shutil.ignore_patterns(".safereq"))
    else:
        generate.write(generate.peers_workspace(goals=4, docs=6, per_doc=25, seed=2626), target)
    monkeypatch.chdir(target)
    return target


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_every_path_to_the_findings_reports_the_same_bytes(workspace_dir, safereq, monkeypatch, fmt):
    uncached = safereq("check", ".", "--no-cache", "--jobs", "1", "--format", fmt)
    assert uncached.status in (0, 1) and uncached.out
    cold = safereq("check", ".", "--jobs", "1", "--format", fmt)
    warm = safereq("check", ".", "--format", fmt)
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)  # fork workers however small the workspace
    forked = safereq("check", ".", "--no-cache", "--jobs", "2", "--format", fmt)
    got = {name: (r.status, r.out, r.err) for name, r in
           [("cold cache", cold), ("warm cache", warm), ("forked workers", forked)]}
    assert got == {name: (uncached.status, uncached.out, uncached.err) for name in got}


def _lru_caches() -> list:
    """Every functools.lru_cache at module level in safereq's checks (the per-text caches of the analysis and
    the rules)."""
    return [obj for name, module in list(sys.modules.items()) if name.startswith("safereq.checks")
            for obj in vars(module).values() if isinstance(obj, functools._lru_cache_wrapper)]


def test_the_per_text_caches_never_change_findings(workspace_dir):
    sources = sorted(p for p in workspace_dir.rglob("*.md") if ".safereq" not in p.parts)
    texts = [(str(p.relative_to(workspace_dir)), p.read_text(encoding="utf-8")) for p in sources]

    def findings(order: list[tuple[str, str]]) -> list:
        ws = Workspace()
        for path, text in order:
            ws.update(path, text)
        return Checker(Config()).check(ws)

    caches = _lru_caches()
    assert any(c.__qualname__ == "_words" for c in caches)
    for cache in caches:
        cache.cache_clear()
    first = findings(texts)
    warm = findings(list(reversed(texts)))  # every cache full, the statements met in another order
    for cache in caches:
        cache.cache_clear()
    assert findings(texts) == first == warm
    assert first  # the sets have findings of every family, so a difference would show
