"""Every tool over stdio on the example workspace, answering what the CLI answers."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from .conftest import SERVER_DIR, call, serve

TOOLS = {"find_items", "get_item", "check", "explain_rule", "coverage", "change_impact", "suspect_links",
         "search_knowledge", "suggest_links", "derive_requirements", "suggest_rebuttals"}


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".git" not in p.parts}


def _cli_json(workspace: Path, *args: str):
    done = subprocess.run([sys.executable, "-m", "safereq", *args], cwd=workspace, capture_output=True, text=True,
                          env={"PYTHONPATH": SERVER_DIR, "PATH": "/usr/bin:/bin", "HOME": str(workspace.parent),
                               "SAFEREQ_INDEX": str(workspace.parent / "no-index")}, timeout=300)
    return json.loads(done.stdout)


async def test_every_tool_is_listed_read_only_with_schemas(workspace):
    async with serve(workspace) as client:
        tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == TOOLS
    for t in tools:
        assert t.annotations.read_only_hint is True and t.annotations.destructive_hint is False
        assert t.input_schema["type"] == "object" and t.output_schema["type"] == "object"
        assert t.description


async def test_find_items_filters_by_kind_asil_text_attribute_and_id(workspace):
    async with serve(workspace) as client:
        fsr = await call(client, "find_items", {"kind": "FSR", "limit": 200})
        assert fsr["total"] == len(fsr["items"]) and all(i["kind"] == "FSR" for i in fsr["items"])
        goals = await call(client, "find_items", {"kind": "safety-goal"})
        assert {i["id"] for i in goals["items"]} >= {"SG-1"} and all(i["category"] == "safety-goal" for i in goals["items"])
        d = await call(client, "find_items", {"asil": "ASIL D", "kind": "FSR"})
        assert "FSR-1" in {i["id"] for i in d["items"]} and all(i["asil"] == "D" for i in d["items"])
        ftti = await call(client, "find_items", {"attribute": "ftti=100 ms"})
        assert "FSR-2" in {i["id"] for i in ftti["items"]} and "FSR-1" not in {i["id"] for i in ftti["items"]}
        text = await call(client, "find_items", {"text": "override"})
        assert "FSR-3" in {i["id"] for i in text["items"]}
        prefix = await call(client, "find_items", {"id": "TC-*"})
        assert prefix["items"] and all(i["id"].startswith("TC-") for i in prefix["items"])
        one = await call(client, "find_items", {"id": "fsr-1"})
        assert [i["id"] for i in one["items"]] == ["FSR-1"]
        assert one["items"][0]["location"] == {"path": "functional-safety-concept.md", "line": 8, "end_line": 16}


async def test_get_item_gives_statement_trace_up_to_the_goal_and_down_to_verification(workspace):
    async with serve(workspace) as client:
        item = await call(client, "get_item", {"id": "FSR-1"})
    assert item["untrusted_statement"].startswith("The LCA torque arbiter shall limit")
    assert item["asil"] == "D" and "inherits ASIL D from SG-1" in item["asil_explanation"]
    assert {"key": "derived-from", "target": "SG-1", "defined": True} in item["links"]
    assert item["safety_goals"] == ["SG-1"] and "TC-1" in item["verified_by"]
    up = {(s["relation"], s["id"]) for s in item["trace_up"]}
    assert ("derived from", "SG-1") in up and any(r == "hazard" for r, _ in up)  # up to the hazardous event
    assert any(s["relation"] == "child" for s in item["trace_down"])  # the TSRs derived from it
    assert item["location"]["path"] == "functional-safety-concept.md"


async def test_get_item_lists_the_items_findings(workspace):
    async with serve(workspace) as client:
        item = await call(client, "get_item", {"id": "FSR-3"})  # "must": a weak modal verb
    assert item["findings_total"] >= 1
    assert any(f["rule"].startswith("modal/") for f in item["findings"])
    assert all(item["location"]["line"] <= f["line"] <= item["location"]["end_line"] for f in item["findings"])


async def test_check_gives_the_findings_of_check_format_json(workspace):
    expected = _cli_json(workspace, "check", "--format", "json", ".")
    async with serve(workspace) as client:
        found = await call(client, "check", {"limit": 200})
        doc = await call(client, "check", {"path": "functional-safety-concept.md", "limit": 200})
        errors = await call(client, "check", {"min_severity": "error", "limit": 200})
        modal = await call(client, "check", {"rule": "modal", "limit": 200})
    keys = ("path", "line", "column", "severity", "rule")
    assert [tuple(f[k] for k in keys) for f in found["findings"]] == [tuple(f[k] for k in keys) for f in expected]
    assert found["total"] == len(expected) and sum(found["counts"].values()) == len(expected)
    assert doc["findings"] and all(f["path"] == "functional-safety-concept.md" for f in doc["findings"])
    assert all(f["severity"] == "error" for f in errors["findings"])
    assert modal["findings"] and all(f["rule"].startswith("modal/") for f in modal["findings"])


async def test_explain_rule_gives_the_rules_page(workspace):
    async with serve(workspace) as client:
        rule = await call(client, "explain_rule", {"rule": "trace/dangling-link"})
    assert rule["id"] == "trace/dangling-link" and rule["severity"] in ("error", "warning")
    assert len(rule["documentation"]) > 100


async def test_coverage_matches_report_format_json(workspace, tmp_path):
    subprocess.run([sys.executable, "-m", "safereq", "report", ".", "--format", "json", "-o", str(tmp_path / "r")],
                   cwd=workspace, check=True, capture_output=True, env={"PYTHONPATH": SERVER_DIR, "PATH": "/usr/bin:/bin"})
    report = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    async with serve(workspace) as client:
        holes = await call(client, "coverage", {"limit": 200})
        matrix = await call(client, "coverage", {"table": "matrix", "limit": 200})
    assert [(r["by"], r["group"], r["measure"], r["covered"], r["total"]) for r in holes["coverage"]] == [
        (r["by"], r["group"], r["measure"], r["covered"], r["total"]) for r in report["coverage"]]
    assert [(h["id"], h["measure"]) for h in holes["holes"]] == [(h["id"], h["measure"]) for h in report["holes"]]
    assert [m["id"] for m in matrix["matrix"]] == [m["id"] for m in report["matrix"]]


async def test_change_impact_and_suspect_links_follow_an_edit(workspace):
    from .conftest import git

    async with serve(workspace) as client:
        await call(client, "find_items", {"id": "SG-1"})  # loaded before the review is recorded
    subprocess.run([sys.executable, "-m", "safereq", "review", "--all", "."], cwd=workspace, check=True,
                   capture_output=True, env={"PYTHONPATH": SERVER_DIR, "PATH": "/usr/bin:/bin"})
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-m", "reviewed")
    path = workspace / "functional-safety-concept.md"
    path.write_text(path.read_text(encoding="utf-8").replace("to 3.0 Nm.", "to 2.5 Nm.", 1), encoding="utf-8")
    expected = _cli_json(workspace, "diff", "--format", "json")
    async with serve(workspace) as client:
        impact = await call(client, "change_impact", {"limit": 200})
        suspects = await call(client, "suspect_links", {})
    assert [c["id"] for c in impact["changes"]] == [c["id"] for c in expected["changed"]] == ["FSR-1"]
    change = impact["changes"][0]
    assert change["change"] == "changed" and change["relevant"] is True
    assert any(f["field"] == "statement" and "2.5 Nm" in f["untrusted_new"] for f in change["changes"])
    assert [i["id"] for i in impact["impact"]] == [i["id"] for i in expected["impact"]] and impact["impact"]
    assert impact["counts"]["impact"] == len(expected["impact"])
    review = subprocess.run([sys.executable, "-m", "safereq", "review", "."], cwd=workspace, capture_output=True,
                            text=True, env={"PYTHONPATH": SERVER_DIR, "PATH": "/usr/bin:/bin"})
    cli_suspects = [line.split(": ")[1] for line in review.stdout.splitlines()]  # "path:line: CHILD → PARENT: …"
    assert suspects["recorded"] == suspects["links"] > 0
    assert [f"{s['child']} → {s['parent']}" for s in suspects["suspects"]] == cli_suspects
    assert any(s["parent"] == "FSR-1" for s in suspects["suspects"])


async def test_search_knowledge_gives_cited_passages_marked_as_data(workspace):
    async with serve(workspace) as client:
        found = await call(client, "search_knowledge", {"query": "ASIL decomposition", "limit": 3})
    assert 1 <= len(found["passages"]) <= 3
    assert any("decomposition" in p["untrusted_title"].lower() or "decomposition" in p["untrusted_text"].lower()
               for p in found["passages"])
    assert all(p["citation"] and p["clause"] for p in found["passages"])
    assert "untrusted" in found["notice"] and found["notes"]


async def test_suggestions_are_the_clis_proposals_with_their_checked_citations(workspace):
    expected = {task: _cli_json(workspace, task, "--offline", "--json", "functional-safety-concept.md#FSR-1")
                for task in ("links", "derive", "rebut")}
    before = _tree(workspace)
    async with serve(workspace) as client:
        got = {"links": await call(client, "suggest_links", {"id": "FSR-1"}),
               "derive": await call(client, "derive_requirements", {"id": "FSR-1"}),
               "rebut": await call(client, "suggest_rebuttals", {"id": "FSR-1"})}
    assert _tree(workspace) == before  # nothing written
    for task, result in got.items():
        assert result["task"] == task and result["item"] == "FSR-1" and result["mode"] == "offline"
        assert len(result["proposals"]) == len(expected[task]["suggestions"]) > 0
        for proposal in result["proposals"]:
            # a quote found in indexed text, or our summary of a confirmed clause (this workspace has no index)
            assert all(c["verified"] or c["summary_by_safereq"] for c in proposal["citations"])
            assert all(not c["untrusted_quote"] for c in proposal["citations"] if not c["verified"])  # no summary as a quote
    assert [p["target"] for p in got["links"]["proposals"]] == [s["target"] for s in expected["links"]["suggestions"]]
    assert [p["id"] for p in got["derive"]["proposals"]] == [s["id"] for s in expected["derive"]["suggestions"]]
    assert all("shall" in p["untrusted_text"] for p in got["derive"]["proposals"])
