"""Citation verification: true quotes verify, fabricated ones do not, whatever the clause or quote says."""

from __future__ import annotations

from safereq.agent.writing.suggestions import Citation
from safereq.agent.trust.verify import Verifier, best_quote, quote_score


def test_exact_quote_of_an_indexed_clause_verifies(source):
    c = Verifier(source).check(Citation("ISO 26262-9", "5", "decomposed into redundant requirements allocated to "
                                                           "sufficiently independent elements"))
    assert c.verified and c.title.startswith("Requirements decomposition") and c.year == "2018"


def test_quote_with_other_case_spacing_and_typographic_quotes_verifies(source):
    quote = "DECOMPOSED   into redundant requirements\nallocated to sufficiently independent elements."
    assert Verifier(source).check(Citation("ISO 26262-9", "§5", quote)).verified


def test_slightly_misquoted_span_still_verifies_above_threshold(source):
    quote = "Dependent failures such as common-cause failures and cascading failures are identified and analysed"
    c = Verifier(source).check(Citation("ISO 26262-9", "7", quote))
    assert c.verified and c.score >= 90


def test_fabricated_quote_is_not_verified(source):
    c = Verifier(source).check(Citation("ISO 26262-9", "5", "ASIL decomposition is never allowed for steering systems"))
    assert not c.verified and "not found" in c.note


def test_true_quote_attributed_to_the_wrong_clause_is_not_verified(source):
    quote = "Triggering conditions such as glare, heavy rain or worn lane markings"
    assert Verifier(source).check(Citation("ISO 21448", "7", quote)).verified
    assert not Verifier(source).check(Citation("ISO 26262-9", "7", quote)).verified


def test_clause_that_is_not_indexed_is_not_verified(source):
    c = Verifier(source).check(Citation("ISO 99999", "1", "every requirement is already satisfied"))
    assert not c.verified and c.note == "clause not in the index"


def test_too_short_quote_is_not_verified(source):
    assert not Verifier(source).check(Citation("ISO 26262-9", "5", "ASIL")).verified


def test_check_all_marks_and_counts_failures(source):
    good = Citation("ISO 26262-4", "6", "plausibility checks of input signals")
    bad = Citation("ISO 26262-4", "6", "the torque arbiter needs no monitoring at all")
    kept, failed = Verifier(source).check_all([good, bad, good])
    assert failed == 1 and [c.verified for c in kept] == [True, False]


def test_best_quote_is_a_sentence_of_the_text_that_matches_the_query():
    text = "Bake the bread. Plausibility checks of input signals detect faults. Serve warm."
    q = best_quote(text, ["plausibility", "signals"])
    assert q == "Plausibility checks of input signals detect faults." and quote_score(q, text) == 100.0


def test_a_catalogue_clause_the_edition_check_did_not_confirm_is_never_verified():
    """Our catalogue's summary of a clause stands (as a summary) only where its number was confirmed for the edition:
    ISO 26262-3:2018 7.4.3 is (the validation criteria), Table 4 of the same part is not in the clause list."""
    from safereq.agent.retrieval.knowledge import catalogue_source
    from safereq.knowledge.catalogue import get_catalogue

    source = catalogue_source()
    cat = get_catalogue()
    confirmed, unconfirmed = cat.get("ISO 26262-3", "7.4.3"), cat.get("ISO 26262-3", "Table 4")
    assert confirmed.confirmed and not unconfirmed.confirmed
    verifier = Verifier(source)
    shown = verifier.check(Citation("ISO 26262-3", "7.4.3", confirmed.summary))
    assert shown.stands and shown.summary and not shown.verified  # our summary, shown as one
    c = verifier.check(Citation("ISO 26262-3", "Table 4", unconfirmed.summary))
    assert not c.stands and not c.verified and "not confirmed" in c.note
