"""Trace-link ranking (agent/tasks/linking.py, agent/retrieval/link_features.py): the derivation chain, the head of a chain,
siblings, the item's remaining parents, abstention, reasons that set a candidate apart, declared kinds, and a
Chinese child finding its English parent through the multilingual embeddings."""

from __future__ import annotations

from textwrap import dedent

import pytest

from safereq.agent.item.context import workspace_view
from safereq.agent.tasks import linking
from safereq.agent.retrieval.link_features import Bm25, link_terms, stem, terms
from safereq.agent.tasks.linking import link_candidates, meaning_similarity, rank_links
from safereq.model.vocabulary import load_vocabulary
from safereq.workspace import Workspace

GOALS = """\
# Goals

## SG-1: Avoid unintended steering torque
The item shall not apply unintended steering torque.

- ASIL: D

## SG-2: Avoid unintended braking
The item shall not apply the brakes without a driver request.

- ASIL: D

## SG-3: Avoid an unannounced end of lane keeping
The item shall warn the driver before lane keeping ends.

- ASIL: B
"""

FSC = """\
# FSC

## FSR-1: Limit the steering torque request
The torque arbiter shall limit the steering torque request to 3.0 Nm.

- ASIL: D
- Derived from: SG-1
- Allocated to: torque arbiter

## FSR-2: Check the brake pressure request
The brake controller shall reject a brake pressure request without a pedal signal.

- ASIL: D
- Derived from: SG-2

## FSR-3: Monitor the steering torque sensor
The torque arbiter shall detect an implausible steering torque sensor value within 20 ms.

- ASIL: D
- Allocated to: torque arbiter

### TSR-1: Saturate the torque request
The arbiter software shall saturate the steering torque request at 3.0 Nm.

- ASIL: D
- Derived from: FSR-1

### TSR-2: Check the torque sensor gradient
The arbiter software shall reject torque sensor values whose gradient exceeds 5 Nm per 10 ms.

- ASIL: D
"""


def _ws(**docs: str) -> Workspace:
    ws = Workspace()
    for name, text in docs.items():
        ws.update(f"{name}.md", dedent(text))
    return ws


def _view(ws: Workspace, item_id: str):
    return workspace_view(ws, ws.item(item_id))


@pytest.fixture(autouse=True)
def _vector_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SAFEREQ_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture()
def ws() -> Workspace:
    return _ws(goals=GOALS, fsc=FSC)


def test_the_likely_parent_comes_first_with_a_reason_naming_what_distinguishes_it(ws):
    [best, *_] = rank_links(_view(ws, "FSR-3"), "parent")
    assert best.item.id == "SG-1"
    assert best.reason.startswith("both name steering")
    assert "the item" not in best.reason.replace("this item", "")  # every goal says "the item": not a reason


def test_reasons_differ_between_candidates(ws):
    ranked = rank_links(_view(ws, "FSR-3"), "parent", limit=None, abstain=False)
    assert len(ranked) == 3 and len({s.reason for s in ranked}) == 3


def test_never_the_item_itself_nor_one_item_as_both_parent_and_child(ws):
    for item_id in ("FSR-1", "FSR-3", "TSR-1", "TSR-2", "SG-1"):
        parents, children = link_candidates(_view(ws, item_id))
        ids_p, ids_c = {p.id for p in parents}, {c.id for c in children}
        assert item_id not in ids_p | ids_c and not ids_p & ids_c


def test_siblings_are_not_parents_when_the_project_never_links_a_kind_to_itself(ws):
    # TSR → TSR is allowed by the shipped chain, but this workspace derives TSRs only from FSRs.
    parents = {s.item.id for s in rank_links(_view(ws, "TSR-2"), "parent", limit=None, abstain=False)}
    assert parents and all(p.startswith("FSR-") for p in parents)
    assert not {p.id for p in link_candidates(_view(ws, "FSR-3"))[0]} & {"FSR-1", "FSR-2"}


def test_a_descendant_is_never_offered_as_parent(ws):
    parents, _ = link_candidates(_view(ws, "FSR-1"))
    assert "TSR-1" not in {p.id for p in parents}


def test_children_follow_the_chain_and_the_shared_element(ws):
    children = rank_links(_view(ws, "FSR-3"), "child")
    assert children and children[0].item.id == "TSR-2"
    assert all(c.item.id.startswith("TSR-") for c in children)


def test_abstains_when_nothing_is_convincing():
    ws = _ws(goals=GOALS, other="""\
        # Other

        ## FSR-9: Store the calibration table
        The bootloader shall keep two copies of the calibration table in flash memory.

        - ASIL: B
        """)
    assert rank_links(_view(ws, "FSR-9"), "parent") == []


def test_kinds_a_project_declares_get_parents_from_the_links_it_already_has():
    vocab = load_vocabulary({"SYS": {"name": "system requirement", "category": "requirement"},
                             "CMP": {"name": "component requirement", "category": "requirement"}})
    ws = Workspace(vocab)
    ws.update("sys.md", dedent("""\
        # System
        ## SYS-1: Record the flight log
        The system shall record the flight log of every drone.
        ## SYS-2: Keep separation
        The system shall keep 3 m separation between drones.
        """))
    ws.update("cmp.md", dedent("""\
        # Components
        ## CMP-1: Write log records
        The logger shall write one flight log record per second for every drone.

        - Derived from: SYS-1
        ## CMP-2: Compute separation
        The planner shall compute the separation between every pair of drones.
        """))
    parents = rank_links(_view(ws, "CMP-2"), "parent")
    assert [p.item.id for p in parents][:1] == ["SYS-2"]
    assert "separation" in parents[0].reason
    assert not rank_links(_view(ws, "SYS-2"), "parent", limit=None, abstain=False)  # CMP never leads SYS


def test_no_parent_for_an_item_at_the_top_of_its_chain(ws):
    # Goals are only ever parents here (no hazards are items): asking for a goal's parents gives none.
    assert rank_links(_view(ws, "SG-3"), "parent", limit=None, abstain=False) == []


HIGH = """\
# High-level requirements

## REQ-H1: Record the flight log
The ground station shall record the flight log of every drone.

## REQ-H2: Keep separation between drones
The ground station shall keep a separation of 3 m between drones.
"""

LOW = """\
# Low-level requirements

## REQ-L1: Write log records
The logger shall write one flight log record per second for every drone.

- Derived from: REQ-H1

## REQ-L2: Compute the separation of drone pairs
The planner shall compute the separation between every pair of drones and flag pairs closer than 3 m.

- Derived from: REQ-H2

## REQ-L3: Flag close drone pairs
The planner shall flag every pair of drones whose separation is below 3 m.
"""


def test_one_kind_in_two_documents_the_parent_comes_from_the_other_document():
    # Every item is a REQ: the project links the low-level document to the high-level one, never inside it,
    # so REQ-L2 (same words, same document) is no candidate and the high-level requirement is offered.
    ws = _ws(high=HIGH, low=LOW)
    ranked = rank_links(_view(ws, "REQ-L3"), "parent", limit=None, abstain=False)
    assert ranked and ranked[0].item.id == "REQ-H2"
    assert not {s.item.id for s in ranked} & {"REQ-L1", "REQ-L2"}
    assert rank_links(_view(ws, "REQ-H1"), "parent", limit=None, abstain=False) == []  # heads the chain


def test_a_sibling_in_the_own_document_only_when_the_project_links_inside_it_and_it_beats_the_rest():
    inside = LOW.replace("- Derived from: REQ-H2\n", "- Derived from: REQ-H2, REQ-L1\n")  # one link inside low
    ws = _ws(high=HIGH, low=inside)
    ranked = rank_links(_view(ws, "REQ-L3"), "parent", limit=None, abstain=False)
    assert "REQ-L2" in {s.item.id for s in ranked}  # a candidate now
    kept = rank_links(_view(ws, "REQ-L3"), "parent")
    best_elsewhere = max(s.score for s in ranked if s.item.id.startswith("REQ-H"))
    for s in kept:
        assert s.item.id.startswith("REQ-H") or s.score > best_elsewhere


STEERING = """\
# Goals

## SG-1: Avoid unintended steering torque
The item shall not apply unintended steering torque.

## SG-2: Avoid unintended braking
The item shall not apply the brakes without a driver request.

## SG-3: Avoid a loss of steering assistance
The item shall not lose steering assistance while the vehicle moves.

## SG-4: Avoid a steering lock
The item shall not lock the steering column while the vehicle moves.
"""

STEERING_FSR = """\
# FSC

## FSR-1: Monitor the assist motor
The motor controller shall monitor the assist motor current and switch to a safe state on a fault.

- Derived from: SG-1, SG-3

## FSR-2: Check the brake valve
The brake controller shall check the brake valve position.

- Derived from: SG-2

## FSR-3: Check the column lock
The column controller shall check the column lock position.

- Derived from: SG-4
"""


def test_the_items_remaining_parents_count_as_evidence():
    # FSR-1 shares no word with the goals that tells them apart, but it already derives from two steering
    # goals: the third steering goal is a better guess than the braking one.
    ws = _ws(goals=STEERING, fsc=STEERING_FSR)
    ranked = [s.item.id for s in rank_links(_view(ws, "FSR-1"), "parent", limit=None, abstain=False)]
    assert ranked.index("SG-4") < ranked.index("SG-2")


def test_a_higher_asil_child_ranks_a_lower_asil_parent_down(ws):
    ranked = rank_links(_view(ws, "FSR-3"), "parent", limit=None, abstain=False)
    assert any("ASIL D is above SG-3's B" in s.reason for s in ranked if s.item.id == "SG-3")


def test_bm25_weights_rare_words_above_common_ones():
    bm25 = Bm25({"a": "torque torque request", "b": "request request", "c": "request torque", "q": "torque request"})
    [torque], [request] = terms("torque"), terms("requests")  # stemmed: "requests" meets "request"
    assert bm25.idf[torque] > bm25.idf[request]
    assert bm25.score([torque], "a") > bm25.score([torque], "c") > 0
    assert bm25.score_all([torque]) == {k: bm25.score([torque], k) for k in ("a", "c", "q")}


def test_a_chinese_child_finds_its_english_parent():
    ws = _ws(goals=GOALS, zh="""\
        ---
        language: zh
        ---
        # 功能安全需求

        ## FSR-ZH-1: 退出前警告驾驶员
        在车道保持结束之前，系统应通过声音和仪表提示警告驾驶员。

        - ASIL: B
        """)
    [best, *_] = rank_links(_view(ws, "FSR-ZH-1"), "parent")
    assert best.item.id == "SG-3"
    assert "close in meaning" in best.reason


def test_item_vectors_are_embedded_once_and_kept_between_runs(tmp_path, monkeypatch):
    texts = {"a": "The arbiter shall limit the steering torque.", "b": "制动控制器应拒绝制动请求。"}
    monkeypatch.setattr(linking, "_VECTORS", {})
    first = meaning_similarity("Limit the torque request.", texts)
    assert set(first) == {"a", "b"} and list((tmp_path / "cache").glob("link-vectors-*.json"))

    class Refuses:
        model_id = linking._embedder().model_id

        def embed_passages(self, texts):
            raise AssertionError("embedded again")

    monkeypatch.setattr(linking, "_VECTORS", {})  # a new process: only the file is left
    monkeypatch.setattr(linking, "_embedder", lambda: Refuses())
    again = meaning_similarity("Limit the torque request.", texts)
    assert again == pytest.approx(first, abs=1e-4)


def test_identifier_parts_count_as_words():
    # A design item names GUILoginHandler and TASK_HBEAT where the requirement says login and heartbeat task.
    words = link_terms("The GUILoginHandler sends TASK_HBEAT to the scheduler")
    for part in ("gui", "login", "handler", "task", "hbeat"):
        assert stem(part) in words
    assert link_terms("plain words only") == terms("plain words only")


def test_a_shared_word_pair_counts_more_than_the_same_words_apart():
    ws = _ws(high="""\
# High

## REQ-H1: Pedal travel
The brake pedal travel shall be measured; the vehicle speed shall be logged.

## REQ-H2: Brake logging
The brake events shall be logged; the pedal position shall be shown.
""", low="""\
# Low

## REQ-L1: Measure pedal travel
The sensor shall report the brake pedal travel.

- Derived from: REQ-H1
""")
    view = _view(ws, "REQ-L1")
    cands = {c.item.id: c for c in linking.candidates(without_links(view), "parent")}
    assert cands["REQ-H1"].f["bigrams"] > cands["REQ-H2"].f["bigrams"]


def without_links(view):
    from dataclasses import replace

    return replace(view, item=replace(view.item, parents=()),
                   items=tuple(replace(it, parents=()) if it.id == view.item.id else it for it in view.items))


def _grouped(order: list[tuple[str, str]]) -> str:
    """A low-level document whose items appear in ``order`` (ID, parent or "")."""
    parts = ["# Low\n"]
    for i, (rid, parent) in enumerate(order):
        parts.append(f"## {rid}: Handle case {i}\nThe unit shall handle case {i}.\n"
                     + (f"\n- Derived from: {parent}\n" if parent else ""))
    return "\n".join(parts)


NEUTRAL_HIGH = """\
# High

## REQ-H1: First group
The system shall handle the first group.

## REQ-H2: Second group
The system shall handle the second group.
"""


def test_the_parent_of_the_items_next_to_it_counts_where_the_document_is_written_in_groups():
    grouped = [("REQ-L1", "REQ-H1"), ("REQ-L2", "REQ-H1"), ("REQ-L3", ""), ("REQ-L4", "REQ-H1"),
               ("REQ-L5", "REQ-H2"), ("REQ-L6", "REQ-H2"), ("REQ-L7", "REQ-H2"), ("REQ-L8", "REQ-H2")]
    ws = _ws(high=NEUTRAL_HIGH, low=_grouped(grouped))
    cands = {c.item.id: c for c in linking.candidates(_view(ws, "REQ-L3"), "parent")}
    assert cands["REQ-H1"].f["neighbours"] > cands["REQ-H2"].f["neighbours"]
    assert cands["REQ-H1"].neighbour in {"REQ-L2", "REQ-L4"}
    ranked = rank_links(_view(ws, "REQ-L3"), "parent", limit=None, abstain=False)
    assert ranked[0].item.id == "REQ-H1" and "next to this item, is derived from REQ-H1" in ranked[0].reason


def test_the_neighbours_count_for_nothing_where_the_order_says_nothing():
    # Alternating parents: adjacent items never share one, so the document's order is no evidence.
    mixed = [("REQ-L1", "REQ-H1"), ("REQ-L2", "REQ-H2"), ("REQ-L3", ""), ("REQ-L4", "REQ-H1"),
             ("REQ-L5", "REQ-H2"), ("REQ-L6", "REQ-H1"), ("REQ-L7", "REQ-H2"), ("REQ-L8", "REQ-H1")]
    ws = _ws(high=NEUTRAL_HIGH, low=_grouped(mixed))
    cands = linking.candidates(_view(ws, "REQ-L3"), "parent")
    assert cands and all(c.f["neighbours"] == 0 and c.f["near"] == 0 for c in cands)
