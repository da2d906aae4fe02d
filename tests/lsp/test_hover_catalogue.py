"""A clause hover from the catalogue warns where the clause number was not confirmed for its edition."""

from __future__ import annotations

from safereq.lsp.hover import clause_markdown
from safereq.model.clauses import parse_clause_ref


def test_a_confirmed_clause_has_no_warning_and_the_2018_title():
    value = clause_markdown(parse_clause_ref("ISO 26262-3:2018 §7.4.3"))
    assert value.startswith("**ISO 26262-3:2018 §7.4.3 — Safety validation criteria**")
    assert "not confirmed" not in value


def test_an_unconfirmed_entry_warns_before_it_is_cited():
    value = clause_markdown(parse_clause_ref("ISO 26262-3:2018 Table 4"))
    assert "not confirmed for the 2018 edition" in value


def test_a_clause_the_edition_does_not_have_is_not_in_the_catalogue():
    assert "not in the clause catalogue" in clause_markdown(parse_clause_ref("ISO 26262-3:2018 §7.4.5"))
