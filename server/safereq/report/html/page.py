"""Lay out the report page: holes first, the accepted deviations, coverage by kind and by ASIL, the filterable trace matrix, and one
trace graph per safety goal. Every text from the documents is escaped; the page loads nothing from
anywhere (CSS, script and SVG are inline), so it opens from the file system and from an artifact store.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from html import escape
from importlib.resources import files

from ... import __version__
from ..coverage import ASIL_ORDER, Coverage, Row, asil_of, describe
from ..deviations import DeviationRow
from ..test_evidence import Evidence
from .graph import GraphvizMissing, goal_source, render_svgs

MAX_GRAPHS = 200
_MISSING = {"covered": "no safety goal", "refined": "no child requirement", "verified": "no verification",
            "passed": "a test not passed"}


def _asset(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def _bar(percent: float) -> str:
    level = "low" if percent < 50 else "mid" if percent < 90 else ""
    return (f'<span class="barbox"><span class="bar {level}" style="width:{percent:.1f}%"></span></span>'
            f'<span class="pct">{percent:g}%</span>')


def _coverage_table(rows: list[Row], group_title: str, table_id: str) -> str:
    out = [f'<table id="{table_id}"><thead><tr><th>{group_title}</th><th>measure</th><th>covered</th>'
           '<th>total</th><th>coverage</th><th>holes</th></tr></thead><tbody>']
    for row in rows:
        holes = ", ".join(f'<a href="#item-{escape(h)}">{escape(h)}</a>' for h in row.holes[:20])
        if len(row.holes) > 20:
            holes += f" and {len(row.holes) - 20} more"
        out.append(
            f'<tr data-group="{escape(row.group)}" data-measure="{row.measure}" data-covered="{row.covered}" '
            f'data-total="{row.total}" data-percent="{row.percent:g}"><td>{escape(row.group)}</td>'
            f'<td title="{escape(describe(row.measure))}">{row.measure}</td><td class="num">{row.covered}</td>'
            f'<td class="num">{row.total}</td><td>{_bar(row.percent)}</td><td>{holes}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def _ids(ids: list[str]) -> str:
    return ", ".join(f'<a href="#item-{escape(i)}">{escape(i)}</a>' for i in ids) or '<span class="none">—</span>'


def _tested(ids: list[str], evidence: Evidence) -> str:
    """Verification items with their last result: passed, failed, skipped or not run."""
    return ", ".join(f'<a href="#item-{escape(i)}">{escape(i)}</a> <span class="result" data-result="'
                     f'{evidence.status(i)}">{evidence.status(i)}</span>' for i in ids) or '<span class="none">—</span>'


def _test_results(evidence: Evidence) -> list[str]:
    """How many test cases passed, failed, were skipped; the ones that did not pass or name no item."""
    counts = {s: sum(c.status == s for c in evidence.cases) for s in ("passed", "failed", "error", "skipped")}
    out = ['<h2 id="tests">Test results</h2>',
           f'<p id="test-counts">{len(evidence.cases)} test cases from {len(evidence.files)} files: '
           + ", ".join(f"{n} {s}" for s, n in counts.items() if n)
           + f"; {len(evidence.unmatched)} name no verification item.</p>"]
    items: dict[int, list[str]] = {}
    for item_id, cases in evidence.by_item.items():
        for case in cases:
            items.setdefault(id(case), []).append(item_id)
    shown = [c for c in evidence.cases if c.status != "passed" or id(c) not in items]
    if shown:
        out.append('<table id="test-table"><thead><tr><th>test</th><th>result</th><th>verifies</th><th>message</th>'
                   "</tr></thead><tbody>")
        for c in shown:
            out.append(f'<tr class="test" data-result="{c.status}"><td>{escape(c.full_name)}</td><td>{c.status}</td>'
                       f"<td>{_ids(sorted(items.get(id(c), []))) if id(c) in items else '<em>no item</em>'}</td>"
                       f"<td>{escape(c.message)}</td></tr>")
        out.append("</tbody></table>")
    return out


def _graphs(coverage: Coverage, goals: list, hole_ids: set[str]) -> list[str]:
    """The goals' trace graphs: at most MAX_GRAPHS (goals with holes first, then by ASIL), so that a
    workspace with thousands of goals still gives a page a browser opens."""
    order = {a: k for k, a in enumerate(ASIL_ORDER)}
    drawn = sorted(goals, key=lambda g: (g.id not in hole_ids, order[asil_of(g)]))[:MAX_GRAPHS]
    position = {goal.id: k for k, goal in enumerate(goals)}
    drawn.sort(key=lambda goal: position[goal.id])
    try:
        by_id = {r.id: r for r in coverage.records}
        svgs = render_svgs([goal_source(coverage, goal.id, hole_ids, by_id) for goal in drawn])
    except GraphvizMissing as exc:
        return [f'<p class="none" id="no-graphs">{escape(str(exc))}: no pictures in this report.</p>']
    out = [f'<figure id="graph-{escape(goal.id)}" data-goal="{escape(goal.id)}"><figcaption>'
           f"{escape(goal.id)}: {escape(goal.title)}</figcaption>"
           + (svg if svg is not None else '<p class="none graph-failed">Graphviz could not draw this graph; '
                                          'the matrix lists its items.</p>') + "</figure>"
           for goal, svg in zip(drawn, svgs)]
    if len(goals) > len(drawn):
        out.append(f'<p class="none" id="graphs-left-out">{len(goals) - len(drawn)} more safety goals are not drawn '
                   f"(at most {MAX_GRAPHS}: those with holes first, then by ASIL); the matrix lists them all.</p>")
    return out


def _deviations(rows: Sequence[DeviationRow]) -> list[str]:
    """The accepted deviations: item, rule, words, reason, place, and the commit and author git gives."""
    out = ['<h2 id="deviations">Accepted deviations</h2>',
           '<table id="deviation-table"><thead><tr><th>item</th><th>rule</th><th>words</th><th>reason</th>'
           '<th>where</th><th>commit</th><th>author</th><th>date</th></tr></thead><tbody>']
    for d in rows:
        reason = escape(d.reason) if d.reason else '<em class="hole">no reason given</em>'
        out.append(f'<tr class="deviation" data-id="{escape(d.item)}" data-rule="{escape(d.rule)}">'
                   f'<td><a href="#item-{escape(d.item)}">{escape(d.item)}</a></td><td>{escape(d.rule)}</td>'
                   f"<td>{escape(d.words or '')}</td><td>{reason}</td><td>{escape(d.document)}:{d.line}</td>"
                   f"<td>{escape((d.commit or '')[:12])}</td><td>{escape(d.author or '')}</td>"
                   f"<td>{escape(d.date or '')}</td></tr>")
    out.append("</tbody></table>")
    return out


def render(coverage: Coverage, title: str = "Traceability report", deviations: Sequence[DeviationRow] = (),
           evidence: Evidence | None = None) -> str:
    """The whole page as one HTML string."""
    holes_by_id: dict[str, list[str]] = {}
    for hole in coverage.holes:
        holes_by_id.setdefault(hole.record.id, []).append(hole.measure)
    parents: dict[str, list[str]] = {r.id: list(r.links.get("derived-from", ())) for r in coverage.records}
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    kinds = sorted({r.kind for r in coverage.records})
    asils = [a for a in ASIL_ORDER if any(asil_of(r) == a for r in coverage.records)]
    out = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{_asset('report.css')}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">safereq {__version__}, {now}: <span id="item-count">{len(coverage.records)}</span> '
        f'items, <span id="hole-count">{len(coverage.holes)}</span> holes.</p>',
        '<h2 id="holes">Holes</h2>',
    ]
    if coverage.holes:
        out.append('<table id="hole-table"><thead><tr><th>ASIL</th><th>ID</th><th>kind</th><th>missing</th>'
                   '<th>title</th><th>where</th></tr></thead><tbody>')
        for hole in coverage.holes:
            r = hole.record
            out.append(f'<tr class="hole" data-id="{escape(r.id)}" data-measure="{hole.measure}">'
                       f'<td class="asil">{escape(hole.asil)}</td><td><a href="#item-{escape(r.id)}">{escape(r.id)}</a></td>'
                       f"<td>{escape(r.kind)}</td><td>{_MISSING[hole.measure]}</td><td>{escape(r.title)}</td>"
                       f"<td>{escape(r.document)}:{r.line}</td></tr>")
        out.append("</tbody></table>")
    else:
        out.append('<p class="ok" id="no-holes">No holes: every measured item is covered.</p>')
    if deviations:
        out += _deviations(deviations)
    if evidence is not None:
        out += _test_results(evidence)
    out += [
        '<h2 id="coverage">Coverage</h2>',
        "<p>covered: hazardous events (not QM) with a safety goal; refined: safety goals and functional safety "
        "requirements with a child of the next level; verified: requirements with a verification item.</p>",
        _coverage_table(coverage.overall, "all", "coverage-overall"),
        "<h3>By kind</h3>", _coverage_table(coverage.by_kind, "kind", "coverage-kind"),
        "<h3>By ASIL</h3>", _coverage_table(coverage.by_asil, "ASIL", "coverage-asil"),
        '<h2 id="matrix-title">Trace matrix</h2>',
        '<div id="filters"><input type="search" id="filter-text" placeholder="Filter by text" aria-label="Filter by text">',
        '<label>kind <select id="filter-kind"><option value="">all</option>'
        + "".join(f'<option value="{escape(k)}">{escape(k)}</option>' for k in kinds) + "</select></label>",
        '<label>ASIL <select id="filter-asil"><option value="">all</option>'
        + "".join(f'<option value="{a}">{a}</option>' for a in asils) + "</select></label>",
        '<label><input type="checkbox" id="filter-holes"> holes only</label>',
        f'<span><span id="matrix-shown">{len(coverage.records)}</span> of {len(coverage.records)} rows</span></div>',
        '<table id="matrix"><thead><tr><th>ID</th><th>kind</th><th>ASIL</th><th>title</th><th>parents</th>'
        '<th>children</th><th>verified by</th><th>safety goals</th><th>where</th></tr></thead><tbody>',
    ]
    for r in coverage.records:
        missing = holes_by_id.get(r.id, [])
        asil = asil_of(r)
        out.append(
            f'<tr id="item-{escape(r.id)}" data-kind="{escape(r.kind)}" data-asil="{asil}" '
            f'data-hole="{1 if missing else 0}"{" class=hole" if missing else ""}>'
            f"<td>{escape(r.id)}</td><td>{escape(r.kind)}</td><td>{asil}</td><td>{escape(r.title)}"
            + (f' <em>({", ".join(_MISSING[m] for m in missing)})</em>' if missing else "")
            + f"</td><td>{_ids(parents.get(r.id, []))}</td><td>{_ids(coverage.children.get(r.id, []))}</td>"
            f"<td>{_ids(coverage.verified_by.get(r.id, [])) if evidence is None else _tested(coverage.verified_by.get(r.id, []), evidence)}</td>"
            f"<td>{_ids(coverage.goals_of.get(r.id, []))}</td>"
            f"<td>{escape(r.document)}:{r.line}</td></tr>")
    out.append("</tbody></table>")
    out.append('<h2 id="graphs">Trace graphs</h2>')
    out.append('<p class="legend">Fill: <span style="background:#f4c7c3">ASIL D</span><span style="background:#fcd5a8">'
               'C</span><span style="background:#fff2b3">B</span><span style="background:#d9ead3">A</span>'
               '<span style="background:#eee">QM</span>; red border: a hole; dashed: hazardous event; dotted: '
               'verified by. Click a box to see its row.</p>')
    goals = [r for r in coverage.records if r.category == "safety-goal"]
    hole_ids = set(holes_by_id)
    out += _graphs(coverage, goals, hole_ids)
    if not goals:
        out.append('<p class="none">No safety goals in these documents.</p>')
    out.append(f"<script>{_asset('report.js')}</script></body></html>")
    return "\n".join(out) + "\n"
