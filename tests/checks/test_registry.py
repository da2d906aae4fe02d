"""Rule metadata (rules/checks/*.yaml), check functions and documentation pages stay in step."""

import re

import pytest

from safereq.checks import all_rule_infos
from safereq.checks.registry import checks, rule_infos
from safereq.data import rules_dir


def test_every_rule_has_a_function_and_every_function_has_metadata():
    assert set(rule_infos()) == set(checks())


def test_rule_ids_are_family_slash_kebab_case():
    for rid in rule_infos():
        assert re.fullmatch(r"[a-z]+/[a-z0-9]+(?:-[a-z0-9]+)*", rid), rid


def test_every_rule_has_a_documentation_page_with_the_four_parts():
    for info in all_rule_infos().values():  # io/* rules (reported by the loader) included
        page = rules_dir() / info.docs_path
        assert page.is_file(), f"{info.id}: missing {page}"
        text = page.read_text(encoding="utf-8")
        assert text.startswith(f"# {info.id}\n"), info.id
        for part in ("**What it does.**", "**Why.**", "**Example.**", "**Fix.**"):
            assert part in text, f"{info.id}: documentation lacks {part}"


def test_no_orphan_documentation_pages():
    pages = {p.name for p in (rules_dir() / "docs").glob("*.md")}
    assert pages == {info.docs_path.split("/", 1)[1] for info in all_rule_infos().values()}


def test_the_rule_index_in_docs_is_up_to_date():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, str(root / "scripts" / "gen_rule_index.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# -- item parts of document-scope rules ------------------------------------------------------------------
SPLIT_RULES = ("asil/invalid-value", "asil/invalid-class", "asil/incomplete-classification", "asil/sec-mismatch")


def test_split_rules_have_an_item_part_and_a_document_part():
    for rid in SPLIT_RULES:
        check = checks()[rid]
        assert check.scope == "document" and check.fn is not None and check.item_fn is not None, rid
    assert all(c.item_fn is None for c in checks().values() if c.rule not in SPLIT_RULES)


def test_an_item_part_needs_a_document_rule_of_the_same_id(monkeypatch):
    from safereq.checks import registry

    monkeypatch.setattr(registry, "_CHECKS", dict(registry._CHECKS))
    monkeypatch.setattr(registry, "_ITEM_PARTS", dict(registry._ITEM_PARTS))
    registry.item_part("trace/orphan")(lambda ctx, item: ())  # an item-scope rule: no document part to join
    with pytest.raises(RuntimeError, match="needs a document check"):
        registry.checks.__wrapped__()
    with pytest.raises(RuntimeError, match="registered twice"):
        registry.item_part("trace/orphan")(lambda ctx, item: ())


# -- metadata checked against what the rules do ------------------------------------------------------------
def test_fixable_matches_the_fixes_rules_offer_in_the_snapshots():
    """``fixable`` in rules/checks/*.yaml is what docs/rules.md and ``safereq rules`` show; a rule that offers
    a fix on the snapshot workspaces must say so, and one that says so must offer one there whenever it fires
    there (the snapshots are the findings of real checks, kept current by test_findings_snapshot.py)."""
    import json
    from pathlib import Path

    offered: dict[str, bool] = {}
    for snapshot in (Path(__file__).resolve().parents[1] / "fixtures").glob("findings-snapshot-*.json"):
        for finding in json.loads(snapshot.read_text(encoding="utf-8")):
            offered[finding["rule"]] = offered.get(finding["rule"], False) or bool(finding["fixes"])
    assert len(offered) > 30  # the snapshots cover most rules
    sometimes = {"asil/invalid-class"}  # fixes only a class written as a bare digit or with a description
    wrong = sorted(rid for rid, fixes in offered.items()
                   if rid not in sometimes and fixes != all_rule_infos()[rid].fixable)
    assert wrong == []
    assert all(all_rule_infos()[rid].fixable for rid in sometimes)
