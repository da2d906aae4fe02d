"""The check engine's caches must never change the result: incremental runs equal fresh runs."""

import random

import pytest

from safereq.checks.engine import Checker
from safereq.workspace import Workspace

GOALS = "# Goals\n\n## SG-1: Goal\nThe car shall not steer unintentionally.\n- ASIL: D\n"
REQS = "".join(
    f"## FSR-{i}: Requirement {i}\nThe arbiter must limit torque {i} quickly, TBD.\n\n- ASIL: {'B' if i % 3 else 'D'}\n"
    f"- Derived from: SG-{1 if i % 4 else 7}\n\n"
    for i in range(1, 30)
)

EDITS = [
    ("change a statement", lambda t: t.replace("torque 5 quickly", "torque 5 within 10 ms")),
    ("insert a line above items", lambda t: t.replace("## FSR-3:", "\n\n## FSR-3:")),
    ("delete a line", lambda t: t.replace("- ASIL: D\n- Derived from: SG-7\n", "- Derived from: SG-7\n", 1)),
    ("change a link", lambda t: t.replace("SG-7", "SG-1", 2)),
    ("rename an ID", lambda t: t.replace("## FSR-10:", "## FSR-100:")),
]


def fresh(docs):
    ws = Workspace()
    for path, text in docs.items():
        ws.update(path, text)
    return Checker().check(ws)


@pytest.mark.parametrize(("name", "edit"), EDITS, ids=[e[0] for e in EDITS])
def test_incremental_findings_equal_a_fresh_check(name, edit):
    ws = Workspace()
    checker = Checker()
    docs = {"goals.md": GOALS, "reqs.md": REQS}
    for path, text in docs.items():
        ws.update(path, text)
    assert checker.check(ws) == fresh(docs)
    docs["reqs.md"] = edit(docs["reqs.md"])
    ws.update("reqs.md", docs["reqs.md"])
    assert checker.check(ws) == fresh(docs)


HARA_DOC = (
    "# Hazard analysis\n\n| ID | Hazardous event | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|---|\n"
    + "".join(f"| HE-{i} | Event {i} | S3 | E{1 + i % 4} | C{1 + i % 3} | {'BD'[i % 2]} | SG-{1 + i % 2} |\n" for i in range(1, 8))
    + "\n## SG-2: Second goal\nThe car shall not brake unintentionally.\n\n- ASIL: C\n- Hazard: HE-2\n"
)
LINE_EDITS = (
    lambda line: line.replace("must", "shall"),
    lambda line: line + " TBD",
    lambda line: "- ASIL: A",
    lambda line: "- Derived from: FSR-2, SG-9",
    lambda line: "## FSR-77: A new requirement",
    lambda line: "## Notes",
    lambda line: "",
    lambda line: line.replace("SG-1", "SG-7"),
    lambda line: line.replace("E2", "E4").replace("| C", "| C2"),
)


# A goal without attributes: asil/missing's fix adds its ASIL after the statement's last line.
LONE_GOAL = (
    "# More goals\n\n| ID | Hazardous event | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|---|\n"
    "| HE-50 | Roll away | S3 | E4 | C3 | D | SG-5 |\n\n## SG-5: Fifth goal\nThe car shall not roll away.\n\n"
    "## FSR-60: Hold\nThe brake shall hold the car.\n\n- Derived from: SG-5\n"
)


@pytest.mark.parametrize("seed", range(24))
def test_chained_random_edits_find_what_a_fresh_check_finds(seed):
    """Keystroke after keystroke on one checker: every cache (items, workspace findings moved along line
    changes) is reused across the edits, and the findings must stay those of a fresh check. Some edits
    come in bursts with no check between them, as when a client sends changes faster than the server
    checks."""
    rng = random.Random(seed)
    ws, checker = Workspace(), Checker()
    docs = {"goals.md": GOALS, "reqs.md": REQS, "hara.md": HARA_DOC, "lone.md": LONE_GOAL}
    for path, text in docs.items():
        ws.update(path, text)
    checker.check(ws)
    for _ in range(16):
        path = rng.choice(["reqs.md", "reqs.md", "hara.md", "lone.md", "goals.md"])
        lines = docs[path].split("\n")
        k = rng.randrange(len(lines))
        how = rng.randrange(len(LINE_EDITS) + 3)
        if how == len(LINE_EDITS):
            lines.insert(k, "Inserted prose.")
        elif how == len(LINE_EDITS) + 1:
            lines.insert(k, "")
        elif how == len(LINE_EDITS) + 2:
            del lines[k]
        else:
            lines[k] = LINE_EDITS[how](lines[k])
        docs[path] = "\n".join(lines)
        ws.update(path, docs[path])
        if rng.random() < 0.3:
            continue  # more edits before the next check
        assert checker.check(ws) == fresh(docs), (seed, path, k, how)
    assert checker.check(ws) == fresh(docs)


def _counting_workspace_rule(monkeypatch, rule: str) -> list[int]:
    """Count the runs of a workspace-scope rule."""
    from safereq.checks import registry

    original = registry.checks()
    check = original[rule]
    runs: list[int] = []

    def fn(ctx):
        runs.append(1)
        return check.fn(ctx)

    patched = dict(original)
    patched[rule] = registry.Check(rule, "workspace", fn)
    monkeypatch.setattr("safereq.checks.engine.checker.checks", lambda: patched)
    return runs


def test_inserting_a_line_moves_workspace_findings_without_running_the_rules(monkeypatch):
    runs = _counting_workspace_rule(monkeypatch, "trace/dangling-link")
    docs = {"goals.md": GOALS, "reqs.md": REQS}
    ws, checker = Workspace(), Checker()
    for path, text in docs.items():
        ws.update(path, text)
    checker.check(ws)
    assert runs == [1]
    docs["reqs.md"] = docs["reqs.md"].replace("torque 5 quickly, TBD.\n", "torque 5 quickly, TBD.\nMore prose.\n\n")
    ws.update("reqs.md", docs["reqs.md"])
    found = checker.check(ws)
    assert runs == [1]
    assert found == fresh(docs)  # (a fresh checker runs the rule once more)
    assert any(f.rule == "trace/dangling-link" and f.span.start_line > 30 for f in found)
    docs["reqs.md"] = docs["reqs.md"].replace("SG-7", "SG-1", 1)  # a link changed: the rules run again
    ws.update("reqs.md", docs["reqs.md"])
    found = checker.check(ws)
    assert runs == [1, 1, 1]
    assert found == fresh(docs)


def test_typing_where_a_workspace_finding_points_runs_the_rules_again(monkeypatch):
    """asil/missing's fix for a goal without attributes is placed after its statement's last character:
    typing at the end of that line must move the fix, which only running the rule again can do."""
    runs = _counting_workspace_rule(monkeypatch, "asil/missing")
    docs = {"lone.md": LONE_GOAL}
    ws, checker = Workspace(), Checker()
    ws.update("lone.md", LONE_GOAL)
    [before] = [f for f in checker.check(ws) if f.rule == "asil/missing" and f.fixes]
    docs["lone.md"] = LONE_GOAL.replace("not roll away.", "not roll away on a slope.")
    ws.update("lone.md", docs["lone.md"])
    [after] = [f for f in checker.check(ws) if f.rule == "asil/missing" and f.fixes]
    assert runs == [1, 1] and after.fixes[0].edits[0].span.end_col == before.fixes[0].edits[0].span.end_col + 11
    assert checker.check(ws) == fresh(docs)


def test_goal_change_updates_findings_in_other_documents():
    ws = Workspace()
    checker = Checker()
    ws.update("goals.md", GOALS)
    ws.update("reqs.md", REQS)
    before = {f.rule for f in checker.check(ws, ["reqs.md"])}
    ws.update("goals.md", GOALS + "\n## SG-7: Another goal\nThe car shall warn.\n- ASIL: B\n")
    after = {f.rule for f in checker.check(ws, ["reqs.md"])}
    assert "trace/dangling-link" in before and "trace/dangling-link" not in after


def test_a_failing_rule_is_recorded_and_the_others_still_report(monkeypatch):
    from safereq.checks import registry

    def broken(ctx, item):
        raise RuntimeError("boom")
        yield  # pragma: no cover - makes this a generator like the real checks

    original = registry.checks()
    patched = dict(original)
    patched["modal/missing"] = registry.Check("modal/missing", "item", broken)
    monkeypatch.setattr(registry, "checks", lambda: patched)
    monkeypatch.setattr("safereq.checks.engine.checker.checks", lambda: patched)
    ws = Workspace()
    ws.update("reqs.md", REQS)
    checker = Checker()
    findings = checker.check(ws)
    assert "modal/non-standard-verb" in {f.rule for f in findings}
    assert checker.failures == {"modal/missing": "RuntimeError: boom"}


def _counting(monkeypatch, rule: str):
    """Replace ``rule``'s item and document parts by counting wrappers; returns the two call lists."""
    from safereq.checks import registry

    original = registry.checks()
    check = original[rule]
    item_calls: list[str] = []
    doc_calls: list[str] = []

    def item_fn(ctx, item):
        item_calls.append(item.id)
        return check.item_fn(ctx, item)

    def doc_fn(ctx, doc):
        doc_calls.append(doc.path)
        return check.fn(ctx, doc)

    patched = dict(original)
    patched[rule] = registry.Check(rule, "document", doc_fn, item_fn)
    monkeypatch.setattr("safereq.checks.engine.checker.checks", lambda: patched)
    return item_calls, doc_calls


def test_item_parts_are_cached_with_their_items(monkeypatch):
    item_calls, doc_calls = _counting(monkeypatch, "asil/sec-mismatch")
    ws = Workspace()
    checker = Checker()
    ws.update("reqs.md", REQS)
    checker.check(ws)
    assert len(item_calls) == 29 and doc_calls == ["reqs.md"]
    item_calls.clear(), doc_calls.clear()
    ws.update("reqs.md", REQS.replace("torque 5 quickly", "torque 5 within 10 ms"))
    checker.check(ws)
    assert item_calls == ["FSR-5"] and doc_calls == ["reqs.md"]  # the HARA-row part reads the document again
    item_calls.clear(), doc_calls.clear()
    ws.update("reqs.md", "\n\n" + ws.documents["reqs.md"].text)  # every item moves: findings move with them
    checker.check(ws)
    assert item_calls == [] and doc_calls == ["reqs.md"]


def test_a_failing_item_part_is_recorded_and_the_others_still_report(monkeypatch):
    from safereq.checks import registry

    def broken(ctx, item):
        raise ValueError("bad item")

    original = registry.checks()
    patched = dict(original)
    patched["asil/invalid-value"] = registry.Check("asil/invalid-value", "document", original["asil/invalid-value"].fn,
                                                   broken)
    monkeypatch.setattr("safereq.checks.engine.checker.checks", lambda: patched)
    ws = Workspace()
    ws.update("reqs.md", REQS)
    checker = Checker()
    assert "modal/non-standard-verb" in {f.rule for f in checker.check(ws)}
    assert checker.failures == {"asil/invalid-value": "ValueError: bad item"}


DOCS = {
    "a.md": "# A\n\n## SG-1: Goal\nThe car shall stop.\n- ASIL: D\n\n## FSR-1: First\nThe ECU shall brake.\n- ASIL: B\n"
            "- Derived from: SG-1\n",
    "b.md": "# B\n\n## FSR-1: Duplicate\nThe ECU shall warn.\n- ASIL: D\n- Derived from: SG-1\n\n"
            "## FSR-2: Child\nThe ECU shall hold.\n- ASIL: C\n- Derived from: FSR-1, FSR-9\n",
    "c.md": "| ID | Hazardous event | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|---|\n"
            "| HE-1 | Loss | S3 | E4 | C3 | D | SG-1 |\n",
    # Enough other IDs that a one-document change takes the update path rather than a new assembly.
    "z.md": "".join(f"## TSR-{n}: Filler\nThe ECU shall wait.\n- ASIL: B\n- Derived from: FSR-2\n" for n in range(60)),
}
STEPS = [
    ("a.md", lambda t: t.replace("## FSR-1: First\nThe ECU shall brake.\n- ASIL: B\n- Derived from: SG-1\n", "")),
    ("b.md", lambda t: "\n\n" + t),
    ("a.md", lambda t: t + "\n## FSR-9: Late\nThe ECU shall log.\n- ASIL: D(B)\n- Derived from: SG-1\n"),
    ("c.md", None),
    ("b.md", lambda t: t.replace("- ASIL: C", "- ASIL: A")),
    ("d.md", lambda t: "## SG-1: Earlier goal elsewhere\nThe car shall go.\n- ASIL: QM\n"),
    ("0.md", lambda t: "## FSR-2: Defined first here\nThe ECU shall idle.\n- ASIL: B\n- Derived from: SG-1\n"),
    ("a.md", lambda t: t.replace("## SG-1: Goal", "## SG-3: Goal")),
    ("0.md", lambda t: t.replace("FSR-2", "FSR-7")),
]


def test_the_trace_graph_updated_document_by_document_equals_a_fresh_one(monkeypatch):
    from safereq.workspace import graph as graph_module
    from safereq.workspace.graph import trace_graph

    updates = []
    reassemble = graph_module._reassemble
    monkeypatch.setattr(graph_module, "_reassemble", lambda *a: updates.append(1) or reassemble(*a))

    def view(ws):
        graph = trace_graph(ws)
        place = lambda item: (item.path, item.heading_span.start_line)  # noqa: E731
        return ({i: place(it) for i, it in graph.first.items()}, dict(graph.asil_by_id),
                {place(it): graph.asil_of(it) for it in graph.items}, graph.defined_ids(), graph.row_ids(),
                graph.ids_in("safety-requirement"), graph.target_ids("derived-from"), graph.link_keys())

    ws = Workspace()
    checker = Checker()
    docs = dict(DOCS)
    for path, text in docs.items():
        ws.update(path, text)
    checker.check(ws)
    for path, edit in STEPS:
        if edit is None:
            del docs[path]
            ws.remove(path)
        else:
            docs[path] = edit(docs.get(path, ""))
            ws.update(path, docs[path])
        fresh = Workspace()
        for p, t in docs.items():
            fresh.update(p, t)
        assert view(ws) == view(fresh), path
        assert checker.check(ws) == Checker().check(fresh), path
    assert len(updates) == len(STEPS)  # each step took the document-by-document path
