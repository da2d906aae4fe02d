"""Generate large, realistic requirement workspaces for the core benchmarks.

The shape follows a real safety case: hazardous events in HARA tables lead to safety goals, functional
safety requirements (FSRs) are derived from goals, technical safety requirements (TSRs) from FSRs. Items
carry the usual attributes (ASIL, Derived from, Allocated to, Status, some Rationale, FTTI and Verified by),
some statements are Chinese, and about one item in twenty has a deliberate problem (a weak modal verb, a
vague term, a missing ASIL, a link to an undefined ID, an ASIL lower than its parent's, a lower-case ID), so
the checks have findings to build, as in real documents. Output is deterministic for a given seed.

    python benchmarks/core/generate.py OUT_DIR [--docs 200 --per-doc 100] [--single 2000] [--peers]
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from pathlib import Path

AREAS = ["PER", "PLN", "ACT", "STR", "BRK", "PWR", "COM", "HMI", "LOC", "DIA"]
SUBJECTS = {
    "PER": ("the perception function", "front-camera image", "object list"),
    "PLN": ("the trajectory planner", "planned trajectory", "drivable corridor"),
    "ACT": ("the actuator controller", "torque request", "actuator command"),
    "STR": ("the steering arbiter", "steering torque", "steering angle request"),
    "BRK": ("the brake controller", "brake pressure request", "deceleration demand"),
    "PWR": ("the power supply monitor", "supply voltage", "redundant supply path"),
    "COM": ("the vehicle bus gateway", "safety-relevant message", "message counter"),
    "HMI": ("the driver information function", "takeover request", "warning display"),
    "LOC": ("the localisation function", "vehicle pose estimate", "map match"),
    "DIA": ("the diagnostic manager", "detected fault", "fault memory entry"),
}
VERBS = ["detect", "limit", "monitor", "reject", "report", "bound", "validate", "plausibilise"]
CONDITIONS = [
    "within {n} ms of its occurrence", "before the next control cycle", "while the vehicle speed exceeds {n} km/h",
    "when two consecutive values differ by more than {n} %", "during every ignition cycle",
]
REACTIONS = [
    "and transition to the safe state", "and inform the driver", "and degrade to the fallback mode",
    "and record a fault memory entry", "",
]
ZH_STATEMENTS = [
    "系统应在{n} ms内检测到{x}的失效并进入安全状态。",
    "当车速大于{n} km/h时，{x}应监控输入信号的合理性。",
    "控制器不应在未收到有效请求时输出{x}。",
]
WEAK = ["must", "will", "needs to", "has to"]
VAGUE = ["as soon as possible", "appropriately", "sufficiently fast", "in a timely manner", "user-friendly"]
ASILS = ["QM", "A", "B", "C", "D"]


@dataclass
class Item:
    id: str
    title: str
    statement: str
    asil: str | None
    parents: list[str] = field(default_factory=list)
    attributes: list[tuple[str, str]] = field(default_factory=list)
    lowercase_id: bool = False

    def markdown(self, level: int) -> str:
        heading_id = self.id.lower() if self.lowercase_id else self.id
        lines = [f"{'#' * level} {heading_id}: {self.title}", "", self.statement, ""]
        if self.asil is not None:
            lines.append(f"- ASIL: {self.asil}")
        if self.parents:
            lines.append(f"- Derived from: {', '.join(self.parents)}")
        lines.extend(f"- {k}: {v}" for k, v in self.attributes)
        lines.append("")
        return "\n".join(lines)


class Generator:
    """Deterministic item factory; ``defect_rate`` is the share of items given one deliberate problem."""

    def __init__(self, seed: int = 26262, defect_rate: float = 0.05) -> None:
        self.rng = random.Random(seed)
        self.defect_rate = defect_rate
        self.asil: dict[str, str] = {}

    def _statement(self, area: str) -> str:
        rng = self.rng
        actor, thing, other = SUBJECTS[area]
        condition = rng.choice(CONDITIONS).format(n=rng.choice([10, 20, 50, 100, 200, 500]))
        reaction = rng.choice(REACTIONS)
        text = f"{actor[0].upper()}{actor[1:]} shall {rng.choice(VERBS)} an implausible {thing} {condition}"
        if reaction:
            text += f" {reaction}"
        return text + f", using the {other} as a reference."

    def _defect(self, item: Item) -> None:
        rng = self.rng
        kind = rng.randrange(6)
        if kind == 0:
            item.statement = item.statement.replace(" shall ", f" {rng.choice(WEAK)} ", 1)
        elif kind == 1:
            item.statement = item.statement.replace(", using", f" {rng.choice(VAGUE)}, using", 1)
        elif kind == 2:
            item.asil = None
        elif kind == 3:
            item.parents.append(f"{item.id.split('-')[0]}-X-{rng.randrange(9000, 9999)}")
        elif kind == 4 and item.asil not in (None, "QM"):
            item.asil = ASILS[ASILS.index(item.asil) - 1]
        elif kind == 5:
            item.lowercase_id = True

    def item(self, item_id: str, area: str, parents: list[str], title: str, zh: bool = False) -> Item:
        rng = self.rng
        asil = max((self.asil.get(p, "A") for p in parents), key=ASILS.index, default=rng.choice(ASILS[1:]))
        if zh:
            statement = rng.choice(ZH_STATEMENTS).format(n=rng.choice([10, 50, 100]), x=SUBJECTS[area][1])
        else:
            statement = self._statement(area)
        item = Item(item_id, title, statement, asil, list(parents))
        item.attributes.append(("Allocated to", f"{area} ECU"))
        item.attributes.append(("Status", rng.choice(["draft", "reviewed", "approved"])))
        if rng.random() < 0.3:
            item.attributes.append(("FTTI", f"{rng.choice([50, 100, 200, 500])} ms"))
        if rng.random() < 0.25:
            item.attributes.append(("Rationale", "Derived from the fault tree of the parent requirement; "
                                                  "see the system FMEA for the failure modes covered."))
        if rng.random() < self.defect_rate:
            self._defect(item)
        self.asil[item_id] = item.asil or asil
        return item


def _hara_table(gen: Generator, goals: list[str], first_event: int) -> str:
    rows = ["| ID | Hazardous event | S | E | C | ASIL | Safety goal |", "|---|---|---|---|---|---|---|"]
    # S+E+C sums that give each ASIL (ISO 26262-3 Table 4): 10 D, 9 C, 8 B, 7 A.
    classes = {"D": ("S3", "E4", "C3"), "C": ("S3", "E3", "C3"), "B": ("S2", "E3", "C3"), "A": ("S2", "E3", "C2")}
    for k, goal in enumerate(goals):
        asil = gen.asil[goal] if gen.asil[goal] in classes else "A"
        s, e, c = classes[asil]
        rows.append(f"| HE-{first_event + k} | Loss of function {goal} in traffic | {s} | {e} | {c} | {asil} | {goal} |")
    return "\n".join(rows) + "\n"


def workspace(docs: int = 200, per_doc: int = 100, seed: int = 26262) -> dict[str, str]:
    """``docs`` documents of ``per_doc`` items each: 1% goal documents, 20% FSR documents, the rest TSRs."""
    gen = Generator(seed)
    rng = gen.rng
    goal_docs = max(1, docs // 100)
    fsr_docs = max(1, docs // 5)
    out: dict[str, str] = {}
    goals: list[str] = []
    fsrs: dict[str, list[str]] = {a: [] for a in AREAS}
    event = 1
    for d in range(docs):
        area = AREAS[d % len(AREAS)]
        body: list[str] = []
        if d < goal_docs:
            name = f"safety-goals/goals-{d + 1:02d}.md"
            ids = [f"SG-{len(goals) + k + 1}" for k in range(per_doc)]
            items = [gen.item(i, AREAS[k % len(AREAS)], [], f"Avoid hazardous behaviour of {SUBJECTS[AREAS[k % len(AREAS)]][1]}")
                     for k, i in enumerate(ids)]
            goals.extend(ids)
            body.append(f"# Safety goals, part {d + 1}\n\n## Hazard analysis\n\n{_hara_table(gen, ids, event)}")
            event += len(ids)
            body.extend(it.markdown(2) for it in items)
        elif d < goal_docs + fsr_docs:
            name = f"functional/{area.lower()}/fsr-{area.lower()}-{d:03d}.md"
            body.append(f"---\nkind: FSR\nid-prefix: FSR-{area}\n---\n# Functional safety requirements: {area}\n")
            for k in range(per_doc):
                item_id = f"FSR-{area}-{d:03d}{k:02d}"
                parents = rng.sample(goals, k=1 if rng.random() < 0.8 else 2)
                it = gen.item(item_id, area, parents, f"{VERBS[k % len(VERBS)].capitalize()} {SUBJECTS[area][1]}",
                              zh=rng.random() < 0.05)
                fsrs[area].append(item_id)
                body.append(it.markdown(2))
        else:
            name = f"technical/{area.lower()}/tsr-{area.lower()}-{d:03d}.md"
            body.extend(_tsr_document(gen, area, d, per_doc, fsrs[area] or [f for v in fsrs.values() for f in v]))
            body.append("## Verification\n")
            body.extend(_test_cases(area, d, per_doc, body))
        out[name] = "\n".join(body)
    return out


def peers_workspace(goals: int = 20, docs: int = 200, per_doc: int = 100, seed: int = 26262) -> dict[str, str]:
    """The shape the peer tools were compared on (issue 26): one document of ``goals`` safety goals (with its
    HARA table) and ``docs`` documents of ``per_doc`` requirements (a fifth FSRs, the rest TSRs), 30 % of the
    TSRs verified by a test case kept outside the workspace (``external-ids = ["TC-*"]`` in safereq.toml)."""
    gen = Generator(seed)
    rng = gen.rng
    goal_ids = [f"SG-{k + 1}" for k in range(goals)]
    goal_items = [gen.item(g, AREAS[k % len(AREAS)], [], f"Avoid hazardous behaviour of {SUBJECTS[AREAS[k % len(AREAS)]][1]}")
                  for k, g in enumerate(goal_ids)]
    out = {"safety-goals.md": "\n".join([f"# Safety goals\n\n## Hazard analysis\n\n{_hara_table(gen, goal_ids, 1)}",
                                          *(it.markdown(2) for it in goal_items)]),
           "safereq.toml": 'external-ids = ["TC-*"]\n'}
    fsr_docs = max(1, docs // 5)
    fsrs: dict[str, list[str]] = {a: [] for a in AREAS}
    for d in range(docs):
        area = AREAS[d % len(AREAS)]
        body: list[str] = []
        if d < fsr_docs:
            name = f"functional/{area.lower()}/fsr-{area.lower()}-{d:03d}.md"
            body.append(f"# Functional safety requirements: {area} (part {d})\n")
            for k in range(per_doc):
                item_id = f"FSR-{area}-{d:03d}{k:02d}"
                it = gen.item(item_id, area, rng.sample(goal_ids, k=1), f"{VERBS[k % len(VERBS)].capitalize()} "
                              f"{SUBJECTS[area][1]}", zh=rng.random() < 0.05)
                fsrs[area].append(item_id)
                body.append(it.markdown(2))
        else:
            name = f"technical/{area.lower()}/tsr-{area.lower()}-{d:03d}.md"
            body.extend(_tsr_document(gen, area, d, per_doc, fsrs[area] or [f for v in fsrs.values() for f in v]))
        out[name] = "\n".join(body)
    return out


def _tsr_document(gen: Generator, area: str, d: int, per_doc: int, pool: list[str]) -> list[str]:
    """The heading and ``per_doc`` TSRs of technical document ``d``, derived from ``pool``, 30 % verified by a
    test case ``TC-…`` (grouped under a sub-heading every 25 items)."""
    rng = gen.rng
    body = [f"# Technical safety requirements: {area} (part {d})\n"]
    for k in range(per_doc):
        if k % 25 == 0:
            body.append(f"## {SUBJECTS[area][0].capitalize()}, group {k // 25 + 1}\n")
        item_id = f"TSR-{area}-{d:03d}{k:02d}"
        parents = rng.sample(pool, k=1 if rng.random() < 0.85 else 2)
        it = gen.item(item_id, area, parents, f"{VERBS[k % len(VERBS)].capitalize()} {SUBJECTS[area][2]}",
                      zh=rng.random() < 0.05)
        if rng.random() < 0.3:
            it.attributes.append(("Verified by", f"TC-{area}-{d:03d}{k:02d}"))
        body.append(it.markdown(3))
    return body


def _test_cases(area: str, d: int, per_doc: int, body: list[str]) -> list[str]:
    """A verification item for every TSR of the document that names one in "Verified by"."""
    text = "\n".join(body)
    cases = []
    for k in range(per_doc):
        tc = f"TC-{area}-{d:03d}{k:02d}"
        if f"Verified by: {tc}" in text:
            cases.append(f"### {tc}: Fault injection test for TSR-{area}-{d:03d}{k:02d}\n\n"
                         f"Inject an implausible value and observe the reaction of the system.\n")
    return cases


def single_document(items: int = 2000, seed: int = 8800) -> str:
    """One document of ``items`` items: 1% goals, 19% FSRs, 80% TSRs, grouped under area headings."""
    gen = Generator(seed)
    rng = gen.rng
    n_goals = max(1, items // 100)
    n_fsr = max(1, items * 19 // 100)
    goals = [f"SG-{k + 1}" for k in range(n_goals)]
    goal_items = [gen.item(g, AREAS[k % len(AREAS)], [], f"Avoid unintended behaviour {k + 1}") for k, g in enumerate(goals)]
    parts = ["# Lane keeping assist: safety requirements\n", "## Safety goals\n", _hara_table(gen, goals, 1)]
    parts.extend(it.markdown(3) for it in goal_items)
    parts.append("## Functional safety requirements\n")
    fsrs = []
    for k in range(n_fsr):
        area = AREAS[k % len(AREAS)]
        fid = f"FSR-{area}-{k:04d}"
        fsrs.append(fid)
        parts.append(gen.item(fid, area, rng.sample(goals, k=1), f"{VERBS[k % len(VERBS)].capitalize()} {SUBJECTS[area][1]}",
                              zh=rng.random() < 0.05).markdown(3))
    parts.append("## Technical safety requirements\n")
    for k in range(items - n_goals - n_fsr):
        area = AREAS[k % len(AREAS)]
        parts.append(gen.item(f"TSR-{area}-{k:04d}", area, rng.sample(fsrs, k=1),
                              f"{VERBS[k % len(VERBS)].capitalize()} {SUBJECTS[area][2]}", zh=rng.random() < 0.05).markdown(3))
    return "\n".join(parts)


def write(files: dict[str, str], root: Path) -> int:
    """Write the files under ``root``; return the total number of bytes."""
    total = 0
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        total += len(data)
    return total


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path)
    p.add_argument("--docs", type=int, default=200)
    p.add_argument("--per-doc", type=int, default=100)
    p.add_argument("--single", type=int, default=0, help="instead, write one document with this many items")
    p.add_argument("--peers", action="store_true",
                   help="instead, the peers' shape: 20 goals and --docs documents of --per-doc requirements")
    args = p.parse_args()
    if args.single:
        files = {"requirements.md": single_document(args.single)}
    elif args.peers:
        files = peers_workspace(docs=args.docs, per_doc=args.per_doc)
    else:
        files = workspace(args.docs, args.per_doc)
    size = write(files, args.out)
    print(f"wrote {len(files)} files, {size / 1e6:.1f} MB, to {args.out}")


if __name__ == "__main__":
    main()
