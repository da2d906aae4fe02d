"""Precision of the wording-family findings (modal/*, wording/*, ears/*) on requirement sets written by others.

Each foreign set (eval/checks/sets.py) is written as one safereq Markdown document, one requirement per
heading and its statement on one line, and checked in-process with every wording-family rule on. A seeded
random sample of each rule's findings per set (``--sample``, default 30) is looked up in the judgements
(eval/checks/judgements.yaml: finding key -> "tp: reason" or "fp: reason"), and the report gives each rule's
precision over its judged sample, with how many sampled findings are still unjudged.

The baseline is what the same word lists give without safereq's context rules: every whole-word,
case-insensitive occurrence of a list's entries (and of the modal words) anywhere in a statement. Its hits are
the checker's findings plus those the context rules suppress; a seeded sample of the suppressed ones is judged
too, and the baseline's precision is estimated from both strata, weighted by their sizes.

A finding's key is ``set|item|rule|word|k``: the words it covers (lower case) and how many times the same
words occur earlier in the statement, so that baseline hits and findings of the same words share a key and
keys survive changes of the checker that do not change what is found.

    .venv/bin/python eval/checks/precision.py                  # the report
    .venv/bin/python eval/checks/precision.py --pending out.yaml   # sampled findings without a judgement
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "server"))

import sets as foreign  # noqa: E402

from safereq.checks.config import Config  # noqa: E402
from safereq.checks.engine import Checker  # noqa: E402
from safereq.checks.analysis.word_lists import term_regex  # noqa: E402
from safereq.checks.registry import rule_infos  # noqa: E402
from safereq.data import load_rules_yaml  # noqa: E402
from safereq.workspace import Workspace  # noqa: E402

FAMILIES = ("modal", "wording", "ears")
JUDGEMENTS = HERE / "judgements.yaml"
OUT = ROOT / "eval" / ".data" / "precision"
# The modal rules' baseline: the words of each role, matched anywhere.
_MODAL_BASELINE = {"modal/non-standard-verb": "obligation", "modal/non-binding-verb": "non-binding"}


@dataclass(frozen=True)
class Hit:
    """One finding (or baseline hit) on a statement: ``line`` is the statement, ``start``/``end`` offsets."""

    set: str
    item: str
    rule: str
    line: str
    start: int
    end: int
    message: str = ""

    @property
    def words(self) -> str:
        return " ".join(self.line[self.start:self.end].lower().split())[:60]

    @property
    def key(self) -> str:
        return f"{self.set}|{self.item}|{self.rule}|{self.words}|{_occurrence(self.line, self.start, self.words)}"


def _occurrence(line: str, start: int, words: str) -> int:
    """How many times ``words`` occur in ``line`` before ``start`` (0 for the first)."""
    return len(re.findall(term_regex(words), line[:start], re.IGNORECASE)) if words else 0


def _item_id(original: str) -> str:
    """A safereq requirement ID for a set's own ID (REQ- keeps every item a requirement to the checks)."""
    return "REQ-" + re.sub(r"[^A-Za-z0-9.]+", "-", original).strip("-").upper()


def write_document(name: str, pairs: list[tuple[str, str]]) -> tuple[Path, str, dict[int, tuple[str, str]]]:
    """The set as one Markdown document; returns its path, text and line -> (item ID, statement)."""
    lines = [f"# {name}", ""]
    statements: dict[int, tuple[str, str]] = {}
    for original, statement in pairs:
        rid = _item_id(original)
        statement = " ".join(statement.split())
        lines += [f"## {rid}: {original}", ""]
        statements[len(lines)] = (rid, statement)
        lines += [statement, ""]
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.md"
    text = "\n".join(lines)
    path.write_text(text, encoding="utf-8")
    return path, text, statements


def wording_rules() -> dict[str, bool]:
    """The wording-family rule IDs with whether each is on by default."""
    return {rid: info.enabled for rid, info in sorted(rule_infos().items()) if info.family in FAMILIES}


def checker_hits(name: str, pairs: list[tuple[str, str]]) -> list[Hit]:
    path, text, statements = write_document(name, pairs)
    ws = Workspace()
    ws.update(str(path), text)
    config = Config(rules={rid: "on" for rid in wording_rules()})
    hits = []
    for f in Checker(config).check(ws):
        if f.rule.split("/", 1)[0] not in FAMILIES:
            continue
        line_no = f.span.start_line
        if line_no not in statements:  # a finding on the heading (modal/empty) covers the whole statement
            rid = next((r for ln, (r, _) in statements.items() if ln == line_no + 2), None)
            if rid is None:
                continue
            hits.append(Hit(name, rid, f.rule, "", 0, 0, f.message))
            continue
        rid, statement = statements[line_no]
        end = f.span.end_col if f.span.end_line == line_no else len(statement)
        hits.append(Hit(name, rid, f.rule, statement, f.span.start_col, end, f.message))
    return hits


def baseline_hits(name: str, pairs: list[tuple[str, str]]) -> list[Hit]:
    """Every entry of each word-list rule's lists (and the modal words of a role) anywhere in a statement."""
    words = load_rules_yaml("en/wording.yaml")
    modal = load_rules_yaml("en/modal.yaml")
    lists: dict[str, list[str]] = {}
    for rid, info in rule_infos().items():
        if info.family == "wording" and info.lists:
            lists[rid] = [str(w) for name_ in info.lists for w in words.get(name_, [])]
    for rid, role in _MODAL_BASELINE.items():
        lists[rid] = [str(w) for w in modal[role]]
    out = []
    for original, statement in pairs:
        rid_item, statement = _item_id(original), " ".join(statement.split())
        for rule, entries in lists.items():
            spans: list[tuple[int, int]] = []
            for entry in sorted(entries, key=len, reverse=True):
                for m in re.finditer(term_regex(entry), statement, re.IGNORECASE):
                    if not any(s < m.end() and m.start() < e for s, e in spans):
                        spans.append(m.span())
            out += [Hit(name, rid_item, rule, statement, s, e) for s, e in sorted(spans)]
    return out


def sample(hits: list[Hit], size: int, seed: str) -> list[Hit]:
    ordered = sorted(hits, key=lambda h: h.key)
    return sorted(random.Random(seed).sample(ordered, min(size, len(ordered))), key=lambda h: h.key)


def load_judgements(path: Path = JUDGEMENTS) -> dict[str, tuple[str, str]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else None
    out = {}
    for key, value in (data or {}).items():
        verdict, _, reason = str(value).partition(":")
        verdict = verdict.strip().lower()
        if verdict not in ("tp", "fp"):
            raise SystemExit(f"{path}: judgement of {key!r} must start with 'tp:' or 'fp:'")
        out[key] = (verdict, reason.strip())
    return out


@dataclass
class Tally:
    found: int = 0
    sampled: int = 0
    tp: int = 0
    fp: int = 0

    @property
    def unjudged(self) -> int:
        return self.sampled - self.tp - self.fp

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    def add(self, hits: list[Hit], picked: list[Hit], judged: dict[str, tuple[str, str]]) -> None:
        self.found += len(hits)
        self.sampled += len(picked)
        for h in picked:
            verdict = judged.get(h.key, ("", ""))[0]
            self.tp += verdict == "tp"
            self.fp += verdict == "fp"


def _pct(p: float | None) -> str:
    return "  n/a" if p is None else f"{100 * p:4.0f}%"


def evaluate(size: int, pending: Path | None) -> int:
    judged = load_judgements()
    available = foreign.available()
    print(f"sets: {', '.join(f'{n} ({len(p)} statements)' for n, p in available.items())}")
    rules = wording_rules()
    per_rule: dict[str, Tally] = defaultdict(Tally)
    per_set: dict[tuple[str, str], Tally] = defaultdict(Tally)
    base_found: dict[str, int] = defaultdict(int)
    suppressed: dict[str, Tally] = defaultdict(Tally)
    todo: dict[str, str] = {}
    for name, pairs in available.items():
        found = checker_hits(name, pairs)
        base = baseline_hits(name, pairs)
        by_rule: dict[str, list[Hit]] = defaultdict(list)
        for h in found:
            by_rule[h.rule].append(h)
        found_keys = {h.key for h in found}
        base_by_rule: dict[str, list[Hit]] = defaultdict(list)
        for h in base:
            base_by_rule[h.rule].append(h)
        for rule in rules:
            picked = sample(by_rule[rule], size, f"{name}/{rule}")
            per_rule[rule].add(by_rule[rule], picked, judged)
            per_set[(rule, name)].add(by_rule[rule], picked, judged)
            if rule in base_by_rule:
                base_found[rule] += len(base_by_rule[rule])
                missed = [h for h in base_by_rule[rule] if h.key not in found_keys]
                picked_missed = sample(missed, size, f"{name}/{rule}/suppressed")
                suppressed[rule].add(missed, picked_missed, judged)
                picked = picked + picked_missed
            for h in picked:
                only = "[baseline only] " if h.key not in found_keys else ""
                if h.key not in judged:
                    lo, hi = max(0, h.start - 150), h.end + 150
                    marked = (f"{'…' * (lo > 0)}{h.line[lo:h.start]}[[{h.line[h.start:h.end]}]]{h.line[h.end:hi]}"
                              f"{'…' * (hi < len(h.line))}") if h.line else "(no statement)"
                    todo[h.key] = only + marked + (f"  -- {h.message}" if h.message and not h.rule.startswith("wording/") else "")
    _report(rules, per_rule, per_set, base_found, suppressed, available)
    if pending is not None:
        pending.write_text(yaml.safe_dump(todo, allow_unicode=True, width=1000, sort_keys=True), encoding="utf-8")
        print(f"\n{len(todo)} sampled findings without a judgement -> {pending}")
    return 0


def _estimate(t: Tally) -> float | None:
    """The expected true positives among all ``t.found`` hits, from the judged sample."""
    return None if t.precision is None else t.precision * t.found


def _report(rules: dict[str, bool], per_rule, per_set, base_found, suppressed, available) -> None:
    print("\nprecision per rule (judged sample; all sets pooled; * = off by default)")
    print(f"{'rule':30} {'found':>6} {'sampled':>7} {'tp':>4} {'fp':>4} {'unj.':>4} {'prec.':>6}  "
          f"{'baseline':>8} {'b.prec.':>7}  per set")
    total = Tally()
    for rule, enabled in rules.items():
        t = per_rule[rule]
        if not t.found and not base_found.get(rule):
            continue
        total.found += t.found
        total.sampled += t.sampled
        total.tp += t.tp
        total.fp += t.fp
        sets_ = "  ".join(f"{n}:{_pct(per_set[(rule, n)].precision).strip()}({per_set[(rule, n)].found})"
                          for n in available if per_set[(rule, n)].found)
        base = f"{base_found[rule]:>8} {_pct(_baseline_precision(per_set, rule, available, suppressed[rule])):>7}" \
            if rule in base_found else f"{'-':>8} {'-':>7}"
        print(f"{rule + ('' if enabled else ' *'):30} {t.found:>6} {t.sampled:>7} {t.tp:>4} {t.fp:>4} "
              f"{t.unjudged:>4} {_pct(t.precision):>6}  {base}  {sets_}")
    print(f"{'all (sample-weighted)':30} {total.found:>6} {total.sampled:>7} {total.tp:>4} {total.fp:>4} "
          f"{total.unjudged:>4} {_pct(total.precision):>6}")


def _baseline_precision(per_set, rule: str, available, kept_out: Tally) -> float | None:
    """Estimated precision of the plain keyword match: the checker's true positives (per set, from its
    judged sample) plus those among the hits the context rules suppress, over all baseline hits."""
    tp = 0.0
    for name in available:
        t = per_set[(rule, name)]
        if t.found:
            est = _estimate(t)
            if est is None:
                return None
            tp += est
    missed = _estimate(kept_out) if kept_out.found else 0.0
    if missed is None:
        return None
    tp += missed
    found = sum(per_set[(rule, n)].found for n in available) + kept_out.found
    return tp / found if found else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=30, help="findings judged per rule and set (default 30)")
    ap.add_argument("--pending", type=Path, help="write the sampled findings without a judgement to this YAML file")
    args = ap.parse_args(argv)
    return evaluate(args.sample, args.pending)


if __name__ == "__main__":
    sys.exit(main())
