"""The trace graph of each safety goal as SVG, laid out by Graphviz (``dot``, through the ``graphviz``
package; all goals in one run of ``dot``): the hazardous events it covers above it, the requirements derived from it below, level by level,
and the verification items of each. Holes are drawn with a red border. Each node links to its row of the
trace matrix. Walks are bounded, because users' graphs can be large and can be wrong (cycles).
"""

from __future__ import annotations

import re

from ...exchange.records import Record
from ..coverage import Coverage, asil_of

MAX_NODES = 120
MAX_DEPTH = 8
MAX_LABEL = 38  # characters of a title shown in a node
MAX_TOOLTIP = 300  # characters of a title in a node's tooltip (dot refuses strings past 16 KB)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
_FILL = {"D": "#f4c7c3", "C": "#fcd5a8", "B": "#fff2b3", "A": "#d9ead3", "QM": "#eeeeee", "none": "#ffffff"}


class GraphvizMissing(RuntimeError):
    """Graphviz's ``dot`` is not installed: the report is written without pictures."""


def _shown(text: str, limit: int) -> str:
    """A title as dot must read it: control characters made spaces, cut at ``limit`` characters, and every
    backslash (``\\N``, ``\\l``, or one at the end that would swallow the closing quote) taken literally
    (issue 25, item 10: a title ending in a backslash made dot fail, and no report was written)."""
    flat = _CONTROL.sub(" ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _label(record_id: str, title: str, asil: str) -> str:
    import graphviz

    short = _shown(title, MAX_LABEL)
    lines = [record_id, short] if short else [record_id]
    if asil != "none":
        lines.append(f"ASIL {asil}")
    return graphviz.escape("\n".join(lines))


def goal_source(coverage: Coverage, goal_id: str, hole_ids: set[str], by_id: dict[str, Record]) -> str:
    """The DOT source of the goal's trace graph; ``by_id`` maps the coverage's records by ID."""
    import graphviz

    dot = graphviz.Digraph(f"trace {goal_id}", graph_attr={"rankdir": "TB", "fontname": "sans-serif",
                                                           "bgcolor": "transparent", "nodesep": "0.3"},
                           node_attr={"shape": "box", "style": "rounded,filled", "fontname": "sans-serif",
                                      "fontsize": "10"},
                           edge_attr={"fontname": "sans-serif", "fontsize": "9", "color": "#555555"})
    added: set[str] = set()

    def node(node_id: str) -> None:
        if node_id in added:
            return
        added.add(node_id)
        record = by_id.get(node_id)
        if record is None:
            dot.node(node_id, f"{node_id}\n(not defined)", fillcolor="#ffffff", color="#cc0000", style="dashed")
            return
        asil = asil_of(record)
        attrs = {"fillcolor": _FILL.get(asil, "#ffffff"), "URL": f"#item-{node_id}", "target": "_self",
                 "tooltip": graphviz.escape(f"{node_id}: {_shown(record.title, MAX_TOOLTIP)}")}
        if node_id in hole_ids:
            attrs.update(color="#cc0000", penwidth="2")
        if record.category == "verification":
            attrs["shape"] = "note"
        if record.category == "hazard":
            attrs["shape"] = "hexagon"
        dot.node(node_id, _label(node_id, record.title, asil), **attrs)

    node(goal_id)
    for event in coverage.events_of.get(goal_id, ()):
        node(event)
        dot.edge(event, goal_id, style="dashed", arrowhead="none")
    frontier, depth = [goal_id], 0
    while frontier and depth < MAX_DEPTH and len(added) < MAX_NODES:
        following: list[str] = []
        for parent in frontier:
            for child in coverage.children.get(parent, ()):
                if len(added) >= MAX_NODES:
                    break
                seen = child in added
                node(child)
                dot.edge(parent, child)
                if not seen:
                    following.append(child)
            for test in coverage.verified_by.get(parent, ()):
                node(test)
                dot.edge(parent, test, style="dotted", label="verified by")
        frontier, depth = following, depth + 1
    if len(added) >= MAX_NODES or any(coverage.children.get(f) for f in frontier):
        dot.node("…", f"… (cut at {MAX_NODES} items / {MAX_DEPTH} levels)", shape="plaintext", style="")
    return dot.source


def render_svgs(sources: list[str]) -> list[str | None]:
    """The SVG elements (no XML prolog) of the graphs, laid out by one ``dot`` process: starting one per
    graph costs twenty times more than the layout of a goal's graph. When that run fails, each graph is laid
    out on its own, and one that fails again is None (the page says so): one graph never costs the others,
    nor the report."""
    import graphviz

    if not sources:
        return []
    try:
        svgs = _pipe(graphviz, "\n".join(sources))
    except graphviz.ExecutableNotFound:
        raise GraphvizMissing("Graphviz's dot is not installed (Debian: apt-get install graphviz)") from None
    if svgs is not None and len(svgs) == len(sources):
        return list(svgs)
    alone: list[str | None] = []
    for source in sources:
        one = _pipe(graphviz, source)
        alone.append(one[0] if one is not None and len(one) == 1 else None)
    return alone


def _pipe(graphviz, source: str) -> list[str] | None:
    """The SVG elements ``dot`` makes of ``source``, or None when it fails."""
    try:
        out = graphviz.pipe("dot", "svg", source.encode("utf-8", "replace"), quiet=True).decode("utf-8", "replace")
    except graphviz.CalledProcessError:
        return None
    return re.findall(r"<svg\b.*?</svg>", out, flags=re.DOTALL)
