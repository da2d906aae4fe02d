"""Chains shown for the links of a cycle (graph.Routes), and parents of an item with many links (issue 12,
item 5): large shapes take a different path that must still say only true things."""

from __future__ import annotations

import random

import pytest

from safereq.workspace import Workspace
from safereq.workspace.graph import EXACT_ROUTES, derivation_cycles, trace_graph


def _doc(links: dict[int, list[int]]) -> str:
    return "# D\n\n" + "".join(
        f"## FSR-{i}: Item\n\nThe unit shall act.\n\n- Derived from: {', '.join(f'FSR-{t}' for t in targets)}\n\n"
        for i, targets in links.items())


@pytest.mark.parametrize("n, extra", [(10, 0), (EXACT_ROUTES * 3, 0), (EXACT_ROUTES * 3, 40)],
                         ids=["exact", "ring through the root", "ring with chords"])
def test_every_chain_is_a_walk_along_links_back_to_its_source(n, extra):
    rng = random.Random(n + extra)
    links = {i: [i % n + 1] for i in range(1, n + 1)}
    for _ in range(extra):
        links[rng.randrange(1, n + 1)].append(rng.randrange(1, n + 1))
    ws = Workspace()
    ws.update("a.md", _doc(links))
    (cycle,) = derivation_cycles(ws)
    routes = cycle.routes()
    assert routes.exact == (n <= EXACT_ROUTES)
    linked = {(f"FSR-{a}", f"FSR-{b}") for a, targets in links.items() for b in targets}
    for src, _link, dst in cycle.edges:
        if src is dst:
            continue
        route = routes.back(src.id, dst.id, 10, 3)
        assert route.head[:2] == [src.id, dst.id] and route.tail[-1] == src.id
        assert all(pair in linked for pair in zip(route.head, route.head[1:]))
        assert all(pair in linked for pair in zip(route.tail, route.tail[1:]))
        assert route.length >= min(len(route.head), 10)
        if route.length <= 10:
            assert len(route.head) == route.length and route.head[-1] == src.id
        assert [(s.id, d.id) for s, _lk, d in route.links] == list(zip(route.head[1:], route.head[2:]))
    if n <= EXACT_ROUTES:  # the ring's chains are its only ones: the whole way round
        first = cycle.edges[0]
        assert routes.back(first[0].id, first[2].id, n + 2, 0).length == n + 1


def test_an_item_naming_thousands_of_parents_lists_each_once_in_order():
    n = 3_000
    text = ("# D\n\n## SG-1: Goal\n\nThe car shall stop.\n\n- ASIL: D\n\n"
            + "".join(f"## FSR-{i}: x\n\nThe unit shall act.\n\n- ASIL: B\n- Derived from: SG-1\n\n" for i in range(n))
            + "## FSR-9999: Wide\n\nThe unit shall act.\n\n- ASIL: B\n- Derived from: "
            + ", ".join(f"FSR-{i % n}" for i in range(2 * n)) + ", FSR-9999\n")
    ws = Workspace()
    ws.update("a.md", text)
    inheriting = trace_graph(ws).per_document("test", lambda items, _asil: list(items))
    (wide,) = [i for i in inheriting if i.item.id == "FSR-9999"]
    assert wide.parent_ids == tuple(f"FSR-{i}" for i in range(n))
