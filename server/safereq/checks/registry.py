"""The rule registry: metadata from rules/checks/<family>.yaml, check functions from the family modules.

Rules are data first: id, default severity, whether enabled by default, a one-line summary and a
documentation page live in rules/checks/<family>.yaml and rules/docs/<family>-<name>.md. A family module binds a function to each id
with one of the decorators below. ``tests/checks/test_registry.py`` keeps the two sides in step.

A document-scope rule whose findings are mostly about single items (an item's ASIL value, its S/E/C
classes) and partly about the document (its HARA rows) registers both halves: ``item_part`` for the
per-item half, which the engine runs and caches like an item check, and ``document_check`` for the rest,
which runs on every change of the document.

An item function may name the *topics* under which alone it can report (``topics=`` of ``item_check`` and
``item_part``; engine/dispatch.py lists them): most items give most rules nothing to say, and a cold check of a large
workspace would otherwise spend its time calling ~25 functions per item to hear so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from importlib import import_module

from ..data import load_rules_yaml, rules_dir
from .findings import Severity

FAMILIES = ("format", "modal", "wording", "ears", "asil", "trace")
SCOPES = ("item", "document", "workspace", "linked")

CheckFn = Callable[..., Iterable]


@dataclass(frozen=True, slots=True)
class RuleInfo:
    id: str
    severity: Severity
    enabled: bool
    summary: str
    fixable: bool
    # The word lists whose entries the shared scan finds for the rule, and those its code reads itself.
    lists: tuple[str, ...] = ()
    raw_lists: tuple[str, ...] = ()
    # A word-list rule's finding message, with a {word} field (the rule is then data only: see wording.py).
    message: str | None = None

    @property
    def family(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def docs_path(self) -> str:
        """The rule's documentation page, relative to the rules directory."""
        return f"docs/{self.id.replace('/', '-')}.md"

    def docs_text(self) -> str:
        return (rules_dir() / self.docs_path).read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class Check:
    """A rule's function; a document-scope rule may add ``item_fn``, its per-item part (see ``item_part``).

    ``topics`` belong to the rule's item function (``fn`` of an item-scope rule, else ``item_fn``): an item
    without any of them gets no finding from it, so the engine need not call it (None: call it always).
    """

    rule: str
    scope: str
    fn: CheckFn
    item_fn: CheckFn | None = None
    topics: frozenset[str] | None = None


_CHECKS: dict[str, Check] = {}
_ITEM_PARTS: dict[str, tuple[CheckFn, frozenset[str] | None]] = {}


def _register(scope: str, rule_id: str, topics: Iterable[str] | None = None) -> Callable[[CheckFn], CheckFn]:
    needs = _topics(topics)

    def wrap(fn: CheckFn) -> CheckFn:
        if rule_id in _CHECKS:
            raise RuntimeError(f"rule {rule_id} registered twice")
        _CHECKS[rule_id] = Check(rule_id, scope, fn, topics=needs)
        return fn

    return wrap


def _topics(topics: Iterable[str] | None) -> frozenset[str] | None:
    """Topic names as a set; one bare name is refused, since as a set of letters it would match no item and
    silently switch the rule off."""
    if topics is None:
        return None
    if isinstance(topics, str):
        raise TypeError("topics: give a collection of topic names, not one string")
    return frozenset(topics)


def item_check(rule_id: str, *, topics: Iterable[str] | None = None) -> Callable[[CheckFn], CheckFn]:
    """``fn(ctx, item)``: depends only on the item itself (cached while the item is unchanged).

    ``topics``: the item topics (engine/dispatch.py) of which an item must have one for ``fn`` to report anything. The
    function still tests its own conditions; a topic list that is too narrow would lose findings.
    """
    return _register("item", rule_id, topics)


def linked_check(rule_id: str) -> Callable[[CheckFn], CheckFn]:
    """``fn(ctx, paths)``: findings on the links held by the items of the documents ``paths`` that depend on
    what the linked items say, statement text included (which workspace-scope rules may not read).

    The engine passes every document that changed since the last check and every document that links to an
    item of those, and keeps the last findings of all others; so a keystroke in a statement re-checks the
    links into that item, not the workspace. ``ctx.keep`` survives between checks for the rule's own caches.
    """
    return _register("linked", rule_id)


def document_check(rule_id: str) -> Callable[[CheckFn], CheckFn]:
    """``fn(ctx, document)``: depends only on one document."""
    return _register("document", rule_id)


def item_part(rule_id: str, *, topics: Iterable[str] | None = None) -> Callable[[CheckFn], CheckFn]:
    """``fn(ctx, item)``: the findings of a document-scope rule that are about one item and depend on it only.

    The engine runs it with the item checks and caches its findings with the item, so an edit elsewhere in a
    large document does not re-read every item; the rule's ``document_check`` function then reports only what
    is not about a single item (HARA rows). One item part per rule, and only for a document-scope rule.
    ``topics`` as for ``item_check``.
    """
    needs = _topics(topics)

    def wrap(fn: CheckFn) -> CheckFn:
        if rule_id in _ITEM_PARTS:
            raise RuntimeError(f"item part of rule {rule_id} registered twice")
        _ITEM_PARTS[rule_id] = (fn, needs)
        return fn

    return wrap


def workspace_check(rule_id: str) -> Callable[[CheckFn], CheckFn]:
    """``fn(ctx)``: needs the whole workspace (trace graph, inheritance); re-run on every change."""
    return _register("workspace", rule_id)


@cache
def rule_infos() -> dict[str, RuleInfo]:
    """Every rule's metadata, by id, family by family in the order of the family files."""
    infos: dict[str, RuleInfo] = {}
    for family in FAMILIES:
        for name, spec in load_rules_yaml(f"checks/{family}.yaml")["rules"].items():
            rid = f"{family}/{name}"
            infos[rid] = RuleInfo(rid, Severity.parse(spec["severity"]), bool(spec.get("enabled", True)),
                                  spec["summary"], bool(spec.get("fixable", False)),
                                  tuple(spec.get("lists", ())), tuple(spec.get("raw-lists", ())),
                                  spec.get("message"))
    return infos


# Families whose findings are made outside the registered rules: by the engine after they have run
# (deviation, engine/deviations.py: they depend on the other rules' findings), and from test results the
# run was given (evidence, report/test_evidence.py). Metadata and configuration as for the others.
ENGINE_FAMILIES = ("deviation", "evidence")


@cache
def engine_rule_infos() -> dict[str, RuleInfo]:
    """The metadata of the rules the engine itself reports (``ENGINE_FAMILIES``), by id."""
    return {
        f"{family}/{name}": RuleInfo(f"{family}/{name}", Severity.parse(spec["severity"]),
                                     bool(spec.get("enabled", True)), spec["summary"], bool(spec.get("fixable", False)))
        for family in ENGINE_FAMILIES
        for name, spec in load_rules_yaml(f"checks/{family}.yaml")["rules"].items()
    }


# Lists the text analysis reads for every rule: phrases that cover an entry (analysis/word_lists.py) and
# words that look like modal verbs but are none (analysis/modal_verbs.py).
ANALYSIS_LISTS = ("not-in", "not-modal")


@cache
def scanned_lists() -> tuple[str, ...]:
    """The word lists the shared scan of a statement looks for: those some rule reports entries of."""
    return tuple(dict.fromkeys(name for info in rule_infos().values() for name in info.lists))


@cache
def word_list_names() -> frozenset[str]:
    """The word lists a project may extend (``[tool.safereq.words.<lang>] <name> = [...]``): those a rule
    or the text analysis reads."""
    return frozenset({*ANALYSIS_LISTS, *(n for i in rule_infos().values() for n in (*i.lists, *i.raw_lists))})


@cache
def checks() -> dict[str, Check]:
    """Every check function, by rule id (importing the family modules registers them)."""
    for family in FAMILIES:
        import_module(f"{__package__}.families.{family}")
    out = dict(_CHECKS)
    for rule_id, (fn, topics) in _ITEM_PARTS.items():
        check = out.get(rule_id)
        if check is None or check.scope != "document":
            raise RuntimeError(f"item part of rule {rule_id} needs a document check of the same rule")
        out[rule_id] = replace(check, item_fn=fn, topics=topics)
    return out
