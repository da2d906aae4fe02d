"""Query understanding (references resolved explicitly, schema-validated plans) and the pattern data."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from safereq.agent.writing.compose import asils_acceptable, decomposition_for, modal_count, new_ids
from safereq.agent.writing.patterns import child_kind, fill, rebuttal_patterns, requirement_patterns, select, slots
from safereq.agent.item.context import workspace_view
from safereq.agent.retrieval.plan import RetrievalPlan, deterministic_plan, question_type, request_data, resolve_references

INDEXED = {"ISO 26262-9", "ISO 26262-4", "ISO 26262-3", "ISO 26262-5", "ISO 21448", "COOKBOOK"}


def test_references_absolute_part_relative_parent_and_chinese_are_resolved():
    text = "See ISO 26262-9:2018 §5.4, part 4 clause 6, then §7 and its parent clause; 第3部分 第7条"
    got = [(r.document, r.clause, r.how.split()[0]) for r in resolve_references(text, "ISO 26262-9")]
    assert ("ISO 26262-9", "5.4", "absolute") in got
    assert ("ISO 26262-4", "6", "ISO") in got
    assert ("ISO 26262-9", "7", "relative") in got
    assert ("ISO 26262-3", "7", "ISO") in got
    assert any(how == "parent" for *_, how in got)


def test_a_bare_clause_without_a_standard_to_read_it_against_is_not_guessed():
    assert resolve_references("see §5.4") == []


def test_deterministic_plan_uses_item_references_pattern_hints_and_only_indexed_documents(view_of):
    ctx = view_of("FSR-1").item
    plan = deterministic_plan("derive", ctx, "", INDEXED | {"ISO 26262-1"})
    assert ("ISO 26262-9", "5.4") in plan.targets  # cited by the item
    assert ("ISO 26262-9", "5") in plan.targets  # redundancy pattern hint (ASIL D)
    assert all(d in INDEXED | {"ISO 26262-1"} for d in plan.spec.documents)
    assert {a.id for a in plan.spec.aspects} >= {"monitoring-detection", "reaction-safe-state", "redundancy-diversity"}
    assert any("ISO 26262-6" in n for n in plan.notes)  # a hint for a document that is not indexed is dropped


def test_plan_schema_rejects_unknown_fields_and_oversized_lists():
    with pytest.raises(ValidationError):
        RetrievalPlan.model_validate({"topic": "x", "run_shell": "rm -rf /"})
    with pytest.raises(ValidationError):
        RetrievalPlan.model_validate({"topic": "x", "keywords": ["k"] * 50})


def test_question_type_routes_overviews_to_the_summary_engine():
    assert question_type("Give an overview of ISO 26262-9") == "overview"
    assert question_type("Which coupling factors cause common cause failures?") == "fact"


def test_every_requirement_template_has_exactly_one_binding_modal_in_each_language(view_of):
    ctx = view_of("FSR-1").item
    values = {**slots(ctx), "deadline": "50 ms", "violation": "the arbiter does not limit it"}
    for p in requirement_patterns():
        texts = [*p.templates.items(), *((p.independence or {}).items())]
        texts += [(lang, t) for lang, ts in (p.channels or {}).items() for t in ts]
        for lang, template in texts:
            assert modal_count(fill(template, values), lang) == 1, (p.id, lang)
        for lang, template in (p.fallback or {}).items():
            assert modal_count(fill(template, values), lang) == 1, (p.id, lang)


def test_patterns_are_selected_by_cues_and_asil(view_of):
    fsr1 = [p.id for p in select(requirement_patterns(), view_of("FSR-1").item)]
    fsr2 = [p.id for p in select(requirement_patterns(), view_of("FSR-2").item)]
    assert "redundancy-diversity" in fsr1 and "redundancy-diversity" not in fsr2  # ASIL D vs B
    assert "degradation" in fsr2
    assert "triggering-condition" in [p.id for p in select(rebuttal_patterns(), view_of("FSR-2").item)]
    assert "common-cause" in [p.id for p in select(rebuttal_patterns(), view_of("CLM-1").item)]


def test_slots_come_from_the_statement(view_of):
    en = slots(view_of("FSR-1").item)
    assert en["element"] == "torque arbiter" and en["signal"] == "steering torque request"
    assert en["response"].startswith("limit the steering torque request") and en["ftti"] == "100 ms"
    assert en["violation"].startswith("the torque arbiter does not limit the steering torque request")
    zh = slots(view_of("FSR-ZH-1").item)
    assert zh["element"] == "车道居中辅助的扭矩仲裁器" and zh["signal"] == "扭矩请求"


def test_new_ids_continue_the_numbering_and_collide_with_nothing():
    taken = {"TSR-1", "TSR-2", "TSR-4", "FSR-1", "TSR-PER-007"}
    assert new_ids("FSR-1", "TSR", taken, 2) == ["TSR-5", "TSR-6"]
    assert new_ids("FSR-PER-012", "TSR", taken, 1) == ["TSR-PER-008"]
    assert new_ids("FSR-ZH-1", "TSR", taken, 1) == ["TSR-ZH-1"]
    assert new_ids("SG_3", "FSR", {"FSR_1"}, 1) == ["FSR_2"]
    assert child_kind("SG") == "FSR" and child_kind("FSR") == "TSR" and child_kind("XYZ") == "REQ"


def test_decomposition_proposals_and_asil_checks():
    assert decomposition_for("D") == ("B(D)", "B(D)")
    assert decomposition_for("C") == ("B(C)", "A(C)")
    assert decomposition_for("A") is None and decomposition_for("B(D)") is None
    assert asils_acceptable(["D", "D"], "D")
    assert asils_acceptable(["B(D)", "B(D)", "D"], "D")
    assert not asils_acceptable(["B", "D"], "D")
    assert not asils_acceptable(["A(D)", "A(D)"], "D")
    assert not asils_acceptable(["C(D)", "A(D)", "B(D)"], "D")


def test_item_id_grammar_holds_for_generated_ids():
    for new in new_ids("FSR-PER-012", "TSR", set(), 3):
        assert re.fullmatch(r"[A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)*", new)


def test_the_item_context_carries_the_statements_ears_pattern_to_the_planner(view_of):
    ctx = view_of("FSR-1").item
    assert ctx.ears == "ubiquitous"
    assert request_data("derive", ctx, "")["item"]["ears"] == "ubiquitous"
    from safereq.workspace import Workspace

    ws = Workspace()
    ws.update("e.md", "## FSR-9: Stop\nWhen a fault is detected, the ECU will stop the motor.\n\n- ASIL: B\n")
    item = ws.item("FSR-9")
    assert workspace_view(ws, item).item.ears == "event-driven; trigger: a fault is detected"
    # The project's extra not-modal words are read as the checks read them.
    ears = workspace_view(ws, item, {"en": ("will stop",)}).item.ears
    assert ears == "no EARS pattern: it has no modal verb"
