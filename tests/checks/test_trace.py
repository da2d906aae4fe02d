"""Trace rules: dangling and malformed links, duplicate IDs, cycles, orphans, goals without children,
links to the wrong kind of item and uncovered hazardous events (checks/families/trace.py, workspace/graph.py)."""

from __future__ import annotations

import random

import pytest

from safereq.checks import apply_edits
from safereq.checks.findings import Finding, Severity
from safereq.workspace import Workspace
from safereq.workspace.graph import _cycles_by_id, _strongly_connected, derivation_cycles

from .family_helpers import asil_trace_checker as _checker
from .family_helpers import found as _found
from .family_helpers import workspace as _ws

HARA = "| ID | Hazardous event | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|---|\n"
GOAL = "## SG-1: Avoid unintended braking\n\nThe booster shall not brake without a request.\n\n- ASIL: D\n"




def _text(ws: Workspace, f: Finding) -> str:
    return ws.documents[f.path].text.split("\n")[f.span.start_line][f.span.start_col:f.span.end_col]


def _fsr(n: int, parents: str = "SG-1", extra: str = "") -> str:
    return f"\n### FSR-{n}: Requirement {n}\nThe controller shall do {n}.\n\n- ASIL: D\n- Derived from: {parents}\n{extra}"


# -- dangling links --------------------------------------------------------------------------------------
def test_dangling_link_suggests_the_closest_ids_of_the_expected_kind():
    ws = _ws(goals=GOAL + "\n## SG-2: Other goal\n- ASIL: B\n", fsr=_fsr(1, "SG-01"))
    [f] = _found(ws, "trace/dangling-link")
    assert f.severity is Severity.ERROR and _text(ws, f) == "SG-01"
    assert "names SG-01, which is not defined" in f.message and "did you mean SG-1?" in f.message
    assert [fix.edits[0].new_text for fix in f.fixes] == ["SG-1"] and not f.fixes[0].safe
    ws.update("fsr.md", apply_edits(ws.documents["fsr.md"].text, f.fixes[0].edits))
    assert not _found(ws, "trace/dangling-link")


def test_suggestions_prefer_the_kind_the_link_expects_then_the_same_prefix():
    # Equally close: FSR-21 (same prefix) before TSR-12. Closer but not a test: TCX-12 after TC-21.
    defs = "\n## FSR-21: A\n\n## TSR-12: B\n\n## TC-21: C\n\n## TCX-12: D\n"
    ws = _ws(a=GOAL + _fsr(1, "FSR-12", "- Verified by: TC-12\n") + defs)
    parent, test = _found(ws, "trace/dangling-link")
    assert [fix.edits[0].new_text for fix in parent.fixes][:2] == ["FSR-21", "TSR-12"]
    assert [fix.edits[0].new_text for fix in test.fixes][:2] == ["TC-21", "TCX-12"]


def test_dangling_link_without_a_close_id_and_in_a_hara_goal_cell():
    ws = _ws(fsr=GOAL + _fsr(1, "SG-1", "- Verified by: TC-99\n"), hara=HARA + "| HE-1 | A | S3 | E4 | C3 | D | SG-7 |\n")
    found = _found(ws, "trace/dangling-link")
    assert [(f.path, _text(ws, f)) for f in found] == [("fsr.md", "TC-99"), ("hara.md", "SG-7")]
    assert not found[0].fixes and "define it or correct the link" in found[0].message
    assert "did you mean SG-1" in found[1].message and "hazardous event HE-1" in found[1].message


def test_dangling_link_disappears_when_the_target_is_defined_elsewhere():
    checker = _checker()
    ws = _ws(fsr=GOAL + _fsr(1, "SG-1", "- Verified by: TC-1\n"))
    assert len(_found(ws, "trace/dangling-link", checker)) == 1
    ws.update("tests.md", "## TC-1: Brake test\nRun it.\n")
    assert not _found(ws, "trace/dangling-link", checker)
    ws.remove("tests.md")
    assert len(_found(ws, "trace/dangling-link", checker)) == 1


# -- malformed links -------------------------------------------------------------------------------------
def test_malformed_link_entries():
    ws = _ws(fsr=GOAL + _fsr(1, "sg-1, SG 1, the braking goal"))
    found = _found(ws, "trace/malformed-link")
    assert [_text(ws, f) for f in found] == ["sg-1", "SG 1", "the braking goal"]
    lower, spaced, prose = found
    assert lower.severity is Severity.WARNING
    assert lower.fix is not None and not lower.fix.safe and lower.fix.edits[0].new_text == "SG-1"
    assert spaced.fix is not None and not spaced.fix.safe and spaced.fix.edits[0].new_text == "SG-1"
    assert not prose.fixes and "Rationale" in prose.message
    ws.update("fsr.md", apply_edits(ws.documents["fsr.md"].text, lower.fix.edits))
    assert [_text(ws, f) for f in _found(ws, "trace/malformed-link")] == ["SG 1", "the braking goal"]


# -- duplicate IDs ---------------------------------------------------------------------------------------
def test_duplicate_ids_are_reported_after_the_first_definition():
    ws = _ws(a=GOAL + _fsr(1), b=_fsr(1) + _fsr(2),
             hara=HARA + "| HE-1 | A | S3 | E4 | C3 | D | SG-1 |\n| HE-1 | B | S3 | E4 | C3 | D | SG-1 |\n")
    found = _found(ws, "trace/duplicate-id")
    assert [(f.path, _text(ws, f)) for f in found] == [("b.md", "FSR-1"), ("hara.md", "HE-1")]
    item, row = found
    assert item.related[0].path == "a.md" and item.related[0].message == "first definition of FSR-1"
    assert row.span.start_line == 3 and row.related[0].span.start_line == 2


def test_unique_ids_and_an_item_describing_a_hara_row_are_fine():
    ws = _ws(a=GOAL + "- Hazard: HE-1\n", hara=HARA + "| HE-1 | A | S3 | E4 | C3 | D | SG-1 |\n",
             events="## HE-1: Unintended braking on a motorway\nDetails of the situation.\n")
    assert not _found(ws, "trace/duplicate-id")


# -- cycles ----------------------------------------------------------------------------------------------
def test_two_item_cycle_is_reported_on_each_link_with_the_other_as_related():
    ws = _ws(a=GOAL + _fsr(1, "SG-1, FSR-2"), b=_fsr(2, "FSR-1"))
    found = _found(ws, "trace/cycle")
    assert [(f.path, _text(ws, f)) for f in found] == [("a.md", "FSR-2"), ("b.md", "FSR-1")]
    assert "FSR-1 → FSR-2 → FSR-1" in found[0].message
    assert [(r.path, r.message) for r in found[0].related] == [("b.md", "FSR-2 is derived from FSR-1")]
    assert found[0].severity is Severity.ERROR


def test_self_derivation_and_a_longer_cycle():
    ws = _ws(a=GOAL + _fsr(1, "FSR-1") + _fsr(2, "FSR-4") + _fsr(3, "FSR-2") + _fsr(4, "FSR-3, SG-1"))
    found = _found(ws, "trace/cycle")
    assert [_text(ws, f) for f in found] == ["FSR-1", "FSR-4", "FSR-2", "FSR-3"]
    assert "derived from itself" in found[0].message
    assert "FSR-2 → FSR-4 → FSR-3 → FSR-2" in found[1].message and len(found[1].related) == 2


def test_diamonds_are_not_cycles_and_cycles_follow_edits():
    checker = _checker()
    ws = _ws(a=GOAL + _fsr(1) + _fsr(2) + _fsr(3, "FSR-1, FSR-2"))
    assert not _found(ws, "trace/cycle", checker)
    ws.update("a.md", ws.documents["a.md"].text.replace("- Derived from: SG-1\n", "- Derived from: SG-1, FSR-3\n", 1))
    assert [_text(ws, f) for f in _found(ws, "trace/cycle", checker)] == ["FSR-3", "FSR-1"]
    ws.update("a.md", "# Moved down\n\n" + ws.documents["a.md"].text)  # edges unchanged: cached, spans current
    assert [(f.span.start_line, _text(ws, f)) for f in _found(ws, "trace/cycle", checker)][0][1] == "FSR-3"
    assert len(derivation_cycles(ws)) == 1
    ws.update("a.md", ws.documents["a.md"].text.replace(", FSR-3\n", "\n"))
    assert not _found(ws, "trace/cycle", checker)


def test_cycle_search_handles_long_chains_without_recursion():
    n = 50_000
    chain = [(f"R-{k}", f"R-{k + 1}") for k in range(n)]
    assert _cycles_by_id(chain) == []
    cycles = _cycles_by_id(chain + [(f"R-{n}", "R-0"), ("X-1", "X-1")])
    assert sorted(len(c) for c in cycles) == [1, n + 1]


@pytest.mark.parametrize("seed", range(20))
def test_cycle_search_finds_what_a_plain_tarjan_walk_finds(seed):
    """Peeling acyclic edges off first must not change the components found."""
    rng = random.Random(seed)
    edges = [(f"N-{rng.randrange(30)}", f"N-{rng.randrange(30)}") for _ in range(rng.randrange(10, 45))]
    index = {node: k for k, node in enumerate(dict.fromkeys(n for edge in edges for n in edge))}
    adj = [[] for _ in index]
    for src, dst in edges:
        adj[index[src]].append(index[dst])
    names = list(index)
    expected = sorted(sorted(names[v] for v in comp) for comp in _strongly_connected(adj)
                      if len(comp) > 1 or comp[0] in adj[comp[0]])
    assert sorted(_cycles_by_id(edges)) == expected


# -- orphans and goals without children ------------------------------------------------------------------
def test_orphan_safety_requirements():
    ws = _ws(a=GOAL + "\n### TSR-9: Debounce the switch\nThe ECU shall debounce it.\n\n- ASIL: B\n"
             + _fsr(1) + "\n## REQ-1: Comfort\nThe seat shall be warm.\n")
    [f] = _found(ws, "trace/orphan")
    assert _text(ws, f) == "TSR-9" and f.severity is Severity.WARNING and "Derived from" in f.message


def test_goal_without_children():
    ws = _ws(a=GOAL + "\n## SG-2: Avoid loss of assistance\n- ASIL: C\n" + _fsr(1))
    [f] = _found(ws, "trace/goal-without-children")
    assert _text(ws, f) == "SG-2" and f.severity is Severity.WARNING


# -- wrong kinds -----------------------------------------------------------------------------------------
def test_links_to_the_wrong_kind_of_item():
    ws = _ws(
        hara=HARA + "| HE-1 | A | S3 | E4 | C3 | D | SG-1 |\n| HE-2 | B | S3 | E4 | C3 | D | FSR-1 |\n",
        a=GOAL + "- Derived from: FSR-2\n" + _fsr(1, "SG-1", "- Verified by: FSR-2, TC-1\n- Hazard: FSR-1\n")
        + _fsr(2, "TC-1, HE-1") + "\n## TC-1: Test\nRun it.\n",
    )
    found = _found(ws, "trace/wrong-kind")
    got = [(f.path, _text(ws, f)) for f in found]
    assert got == [("a.md", "FSR-2"), ("a.md", "FSR-2"), ("a.md", "FSR-1"), ("a.md", "TC-1"), ("a.md", "HE-1"),
                   ("hara.md", "FSR-1")]
    messages = [f.message for f in found]
    assert "safety goal is the top" in messages[0] and "'Verified by' should name" in messages[1]
    assert "'Hazard' should name" in messages[2] and "not from verification items" in messages[3]
    assert "Hazard:" in messages[4] and "safety-goal column" in messages[5]
    assert found[1].related[0].message == "FSR-2 is a functional safety requirement"
    assert all(f.severity is Severity.WARNING for f in found)


def test_links_to_the_right_kinds_raise_nothing():
    ws = _ws(hara=HARA + "| HE-1 | A | S3 | E4 | C3 | D | SG-1 |\n",
             a=GOAL + "- Hazard: HE-1\n" + _fsr(1, "SG-1", "- Verified by: TC-1\n") + _fsr(2, "FSR-1")
             + "\n## TC-1: Test\nRun it.\n")
    assert not _found(ws, "trace/wrong-kind")


# -- hazard coverage -------------------------------------------------------------------------------------
def test_hazardous_events_not_covered_by_a_goal():
    ws = _ws(
        hara=HARA + "| HE-1 | A | S3 | E4 | C3 | D | SG-1 |\n| HE-2 | B | S2 | E4 | C2 | B |  |\n"
        "| HE-3 | C | S1 | E4 | C1 | QM |  |\n| HE-4 | D | S3 | E4 | C3 | D |  |\n",
        a=GOAL + "- Hazard: HE-4\n" + _fsr(1),
        events="## HE-5: Unintended steering\n- Severity: S3\n- Exposure: E4\n- Controllability: C2\n",
    )
    found = _found(ws, "trace/uncovered-hazard")
    assert [(f.path, _text(ws, f)) for f in found] == [("events.md", "HE-5"), ("hara.md", "HE-2")]
    assert "(ASIL C)" in found[0].message and found[0].severity is Severity.WARNING
    ws.update("a.md", ws.documents["a.md"].text.replace("- Hazard: HE-4\n", "- Hazard: HE-4, HE-2, HE-5\n"))
    assert not _found(ws, "trace/uncovered-hazard")


def test_a_hara_row_naming_a_non_goal_does_not_cover_its_event():
    ws = _ws(hara=HARA + "| HE-1 | A | S3 | E4 | C3 | D | FSR-1 |\n", a=GOAL + _fsr(1))
    assert [_text(ws, f) for f in _found(ws, "trace/uncovered-hazard")] == ["HE-1"]


def test_long_link_values_are_cut_in_messages():
    ws = _ws(a=GOAL + _fsr(1, "SG-1, " + "see the goal " * 500 + ", SG-" + "9" * 3000))
    found = [f for f in _checker().check(ws) if f.rule in ("trace/malformed-link", "trace/dangling-link")]
    assert {f.rule for f in found} == {"trace/malformed-link", "trace/dangling-link"}
    assert all(len(f.message) < 400 for f in found)


def test_long_cycles_are_shown_elided():
    n = 12
    ws = _ws(a=GOAL + "".join(_fsr(k, f"FSR-{k % n + 1}") for k in range(1, n + 1)))
    found = _found(ws, "trace/cycle")
    assert len(found) == n
    assert "FSR-1 → FSR-2 → FSR-3 → FSR-4 → … → FSR-11 → FSR-12 → FSR-1" in found[0].message
    assert all(len(f.related) == 8 for f in found)


def test_cached_results_match_a_fresh_check_through_a_series_of_edits():
    """The trace graph keeps per-document parts, cycles, inheritance and decomposition results across
    edits; after every edit the findings must equal those of a workspace built from scratch."""
    import random

    docs = {
        "goals.md": GOAL + "\n## SG-2: Second goal\n- ASIL: C\n- Hazard: HE-2\n",
        "hara.md": HARA + "| HE-1 | A | S3 | E4 | C3 | D | SG-1 |\n| HE-2 | B | S3 | E4 | C2 | C |  |\n",
        "fsr.md": _fsr(1) + _fsr(2, "SG-2").replace("ASIL: D", "ASIL: C"),
        "tsr.md": "\n## TSR-1: A\n- ASIL: B(D)\n- Derived from: FSR-1\n- Verified by: TC-1\n"
                  "\n## TSR-2: B\n- ASIL: B(D)\n- Derived from: FSR-1\n\n## TC-1: Test\nRun it.\n",
    }
    toggles = [  # each edit switches between two texts, so every pick changes something
        ("tsr.md", "ASIL: B(D)\n- Derived from: FSR-1\n- Verified", "ASIL: A(D)\n- Derived from: FSR-1\n- Verified"),
        ("tsr.md", "## TSR-2: B\n- ASIL: B(D)", "## TSR-2: B\n- ASIL: C(D)"),
        ("fsr.md", "- Derived from: SG-1\n", "- Derived from: SG-1, TSR-1\n"),
        ("goals.md", "- Hazard: HE-2", "- Hazard: HE-1"),
        ("goals.md", "- ASIL: D", "- ASIL: B"),
        ("fsr.md", "### FSR-1:", "### FSR-9:"),
        ("hara.md", "| C |  |", "| C | SG-2 |"),
        ("tsr.md", "\n## TC-1", "\nSome prose.\n\n## TC-1"),
        ("goals.md", "## SG-1", "# Goals\n\n## SG-1"),
        ("tsr.md", "Verified by: TC-1", "Verified by: TC-2"),
        ("fsr.md", "- ASIL: D\n- Derived from: SG-1", "- ASIL: C\n- Derived from: SG-1"),
    ]
    rng = random.Random(7)
    ws, checker = Workspace(), _checker()
    for path, text in docs.items():
        ws.update(path, text)

    def ours(found: list[Finding]) -> list[tuple]:
        return [(f.rule, f.path, f.span, f.message, f.related, f.fixes) for f in found
                if f.rule.startswith(("asil/", "trace/"))]

    seen: set[str] = set()
    for _ in range(80):
        path, a, b = rng.choice(toggles)
        docs[path] = docs[path].replace(a, b, 1) if a in docs[path] else docs[path].replace(b, a, 1)
        ws.update(path, docs[path])
        fresh = Workspace()
        for p, text in docs.items():
            fresh.update(p, text)
        got = ours(checker.check(ws))
        assert got == ours(_checker().check(fresh))
        seen.update(f[0] for f in got)
    assert seen >= {"asil/decomposition-scheme", "asil/goal-below-hazard", "asil/lower-than-parent",
                    "trace/cycle", "trace/dangling-link", "trace/uncovered-hazard"}


def test_suggestions_narrowed_in_one_batch_equal_a_search_of_every_id(monkeypatch):
    """Many dangling links are matched against all IDs at once (rapidfuzz cdist) to narrow the search;
    the suggestions must be exactly those of a search of every ID, ties and scores at the cut-off included."""
    from safereq.checks.families import trace

    ids = [f"FSR-{a}-{n:03d}" for a in ("AB", "AC", "XY") for n in range(0, 400, 7)] + ["TSR-AB-7", "SG-1", "FSR-1"]
    defs = "".join(f"\n## {i}: Item\nThe unit shall act.\n\n- ASIL: B\n- Derived from: SG-1\n" for i in ids)
    # Near misses (one or two characters off), IDs whose best score is exactly 70, and IDs close to nothing.
    links = ["FSR-AB-008", "FSR-AC-70", "FSR-XY-0077", "fsr-ab-014", "FSR-A-021", "TSR-AB-070", "SG-11", "FSR-11",
             "FSR-ZZ-999", "QQQ-1", "FSR-AB-0", "FSR-XY-39", "FSR-AC-3990", "SG-X-12", "FSR-AB-14", "TSR-A-7",
             "FSR-AC-00", "FSR-XY-1", "FSR-AB-2", "FSR-ABC-028", "FSR-AB-0280", "FSR-ZB-035", "FSR-AC-049", "F-AB-7",
             "FSR-1-AB", "SG-1X"]
    refs = "".join(f"\n## TSR-{k}: Ref\nThe unit shall act.\n\n- ASIL: B\n- Derived from: {t}\n" for k, t in enumerate(links))
    assert len(links) >= trace.BATCH_TARGETS

    def suggestions(batch: int) -> list[tuple[str, tuple]]:
        monkeypatch.setattr(trace, "BATCH_TARGETS", batch)
        ws = _ws(goals=GOAL + defs, refs=refs)
        return [(f.message, f.fixes) for f in _found(ws, "trace/dangling-link")]

    narrowed, searched = suggestions(1), suggestions(10**9)
    assert narrowed == searched and len(narrowed) >= 20  # "fsr-ab-014" is malformed rather than dangling
    assert sum("did you mean" in message for message, _ in narrowed) >= len(links) // 2


# -- external IDs: items kept outside the workspace (external-ids in the configuration) --------------------
def _external_checker(*patterns: str):
    from safereq.checks import Checker, Config
    from safereq.checks.registry import rule_infos

    off = {rid: "off" for rid in rule_infos() if not rid.startswith(("asil/", "trace/"))}
    return Checker(Config(rules=off, external_ids=patterns))


def test_links_to_external_ids_are_not_dangling_and_others_still_are():
    ws = _ws(goals=GOAL, fsr=_fsr(1, extra="- Verified by: TC-12, TC-OTHER-3, TK-4\n"))
    plain = [_text(ws, f) for f in _found(ws, "trace/dangling-link", _external_checker())]
    assert plain == ["TC-12", "TC-OTHER-3", "TK-4"]
    declared = [_text(ws, f) for f in _found(ws, "trace/dangling-link", _external_checker("TC-*"))]
    assert declared == ["TK-4"]


def test_the_format_of_an_external_id_is_still_checked():
    ws = _ws(goals=GOAL, fsr=_fsr(1, extra="- Verified by: tc 12\n"))
    assert [f.rule for f in _external_checker("TC-*").check(ws) if f.rule.startswith("trace/")] == [
        "trace/malformed-link"]


def test_changing_the_external_patterns_recomputes_cached_link_findings():
    ws = _ws(goals=GOAL, fsr=_fsr(1, extra="- Verified by: TC-12\n"))
    assert len(_found(ws, "trace/dangling-link", _external_checker())) == 1
    assert _found(ws, "trace/dangling-link", _external_checker("TC-*")) == []
    assert len(_found(ws, "trace/dangling-link", _external_checker("TK-*"))) == 1

