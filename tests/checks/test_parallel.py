"""Checking in forked workers finds exactly what one process finds, and survives a worker that dies."""

import os
from dataclasses import dataclass

import pytest

from safereq.checks.engine import parallel
from safereq.checks.engine import Checker
from safereq.checks.registry import checks
from safereq.workspace import Workspace

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="workers are forked only on Linux")


@dataclass
class Source:
    path: str
    text: str


SOURCES = [Source("goals.md", "# Goals\n\n## SG-1: Goal\nThe car shall not steer unintentionally.\n- ASIL: D\n")] + [
    Source(f"reqs-{d}.md", "".join(
        f"## FSR-{d}{i}: Requirement {i}\nThe arbiter must limit torque {i} quickly, TBD.\n\n"
        f"- ASIL: {'B' if i % 3 else 'D'}\n- Derived from: SG-{1 if i % 4 else 7}, FSR-{d}{i + 1}\n\n"
        for i in range(1, 20)
    ))
    for d in range(7)
]


def serial() -> list:
    return parallel.parse_and_check(SOURCES, Workspace(), Checker(), jobs=1)


def test_workers_find_what_one_process_finds(monkeypatch):
    adopted = []
    adopt = Checker.adopt_local
    monkeypatch.setattr(Checker, "adopt_local", lambda self, doc, found: (adopted.append(doc.path), adopt(self, doc, found)))
    found = parallel.parse_and_check(SOURCES, Workspace(), Checker(), jobs=2, min_bytes=0)
    assert found == serial()
    assert {f.rule.split("/")[0] for f in found} >= {"modal", "wording", "asil", "trace"}
    assert sorted(adopted) == sorted(s.path for s in SOURCES)  # every document was checked by a worker


def test_batches_keep_the_order_and_cover_every_source():
    batches = parallel._batches(SOURCES, 4)
    assert len(batches) == 4
    assert [s for batch in batches for s in batch] == SOURCES


def test_small_workspaces_are_checked_in_one_process(monkeypatch):
    monkeypatch.setattr(parallel, "_work", lambda *args: pytest.fail("a worker was started"))
    assert parallel.parse_and_check(SOURCES, Workspace(), Checker(), jobs=2) == serial()


def test_a_worker_that_dies_costs_no_findings(monkeypatch):
    monkeypatch.setattr(parallel, "_work", lambda *args: os._exit(3))  # runs in the forked workers only
    assert parallel.parse_and_check(SOURCES, Workspace(), Checker(), jobs=2, min_bytes=0) == serial()


def test_a_rule_failing_in_a_worker_is_reported(monkeypatch):
    check = checks()["wording/placeholder"]
    parent = os.getpid()

    def broken_in_workers(ctx, item):
        if os.getpid() != parent:
            raise RuntimeError("boom")
        return check.fn(ctx, item)

    monkeypatch.setitem(checks(), "wording/placeholder", type(check)(check.rule, check.scope, broken_in_workers))
    checker = Checker()
    found = parallel.parse_and_check(SOURCES, Workspace(), checker, jobs=2, min_bytes=0)
    assert checker.failures == {"wording/placeholder": "RuntimeError: boom"}
    assert not any(f.rule == "wording/placeholder" for f in found)  # the workers checked every document


def _dangling_sources() -> list:
    """SOURCES plus a document linking to 30 undefined IDs, near misses of defined ones (above BATCH_TARGETS)."""
    wrong = ", ".join(f"FSR-X{d}{i}" for d in range(3) for i in range(1, 11))
    return SOURCES + [Source("typos.md", f"## FSR-900: Typos\nThe unit shall stop.\n\n- Derived from: {wrong}\n")]


def test_the_scorer_narrows_the_suggestions_of_dangling_links(monkeypatch):
    from safereq.checks.families import trace

    primed = []
    prime = trace.prime_suggestions
    monkeypatch.setattr(trace, "prime_suggestions", lambda ws, ids, pools: (primed.append(len(pools)), prime(ws, ids, pools)))
    sources = _dangling_sources()
    found = parallel.parse_and_check(sources, Workspace(), Checker(), jobs=2, min_bytes=0)
    assert found == parallel.parse_and_check(sources, Workspace(), Checker(), jobs=1)
    assert primed and primed[0] >= trace.BATCH_TARGETS
    assert any("did you mean FSR-01" in f.message for f in found if f.rule == "trace/dangling-link")


def test_a_scorer_that_dies_costs_no_suggestions(monkeypatch):
    monkeypatch.setattr(parallel, "_score", lambda conn: os._exit(3))
    sources = _dangling_sources()
    found = parallel.parse_and_check(sources, Workspace(), Checker(), jobs=2, min_bytes=0)
    assert found == parallel.parse_and_check(sources, Workspace(), Checker(), jobs=1)
