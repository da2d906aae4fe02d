"""What a suggestion written by a model must pass before it is offered: it is data, so it earns its place.

Every text field is cleaned (:func:`.sanitise.clean`); then a suggestion is dropped, with the reason, when

- its raw text carries instructions, commands or links (:func:`.sanitise.rejection`): what a model writes
  when it obeys an injection, which no requirement, rebuttal or answer contains;
- a field the user reads came back empty after cleaning (it was only a forged citation or attribute line);
- a derived requirement does not have exactly one modal verb, a binding one (*shall*, 应), as the checks
  read modal verbs (rules/*/modal.yaml: *should*, *will*, *must*, 需要 are not *shall*);
- a derived requirement's statement has findings of safereq's own modal and wording checks (warnings and
  errors: vague terms, escape clauses, placeholders, pronouns ...), checked as the checks would in a document;
- its words share nothing with the item and the evidence (a title or statement about something else).
"""

from __future__ import annotations

from ..retrieval.knowledge import tokens
from .sanitise import clean, rejection

STATEMENT_FAMILIES = ("modal/", "wording/")


def binding_modal_ok(statement: str, language: str, not_modal: tuple[str, ...] = ()) -> bool:
    """Exactly one modal verb that states the requirement, and it is the binding one (shall / 应)."""
    from ...checks.analysis.modal_verbs import modal_verbs

    verbs = [v for v in modal_verbs(statement, language, not_modal) if v.modal]
    return len(verbs) == 1 and verbs[0].role == "binding"


def statement_findings(title: str, statement: str, language: str) -> list[str]:
    """The modal and wording rules (warning or worse) a statement breaks, checked as an item of a document."""
    from ...checks.findings import Severity
    from .selfcheck import check_suggestion

    head = "---\nlanguage: zh\n---\n" if language == "zh" else ""
    _, found = check_suggestion(f"{head}# Suggestion\n\n## REQ-1: {title}\n{statement}\n", STATEMENT_FAMILIES)
    return sorted({f.rule for f in found if f.severity <= Severity.WARNING})


def relevant(text: str, vocabulary: set[str]) -> bool:
    """True when ``text`` shares a content word with the item and its evidence (or has no words to judge)."""
    words = set(tokens(text))
    return not words or bool(words & vocabulary)


def admit(fields: dict[str, str], *, vocabulary: set[str], what: str, statement_key: str = "",
          language: str = "en", requirement: bool = False) -> tuple[dict[str, str] | None, str]:
    """The cleaned fields, or None and why the suggestion is not offered.

    ``fields`` are the texts a user reads (title, statement, reason, mitigation ...); ``statement_key``
    names the one that must be there; ``requirement`` applies the modal verb and the checks.
    """
    for name, raw in fields.items():
        why = rejection(raw)
        if why:
            return None, f"dropped a {what}: its {name} carries {why}-like content, not a {what}"
    cleaned = {name: clean(raw) for name, raw in fields.items()}
    for name, raw in fields.items():
        if raw.strip() and not cleaned[name]:
            return None, f"dropped a {what}: its {name} was only a citation, attribute or heading"
    statement = cleaned.get(statement_key, "") if statement_key else ""
    if statement_key and not statement:
        return None, f"dropped a {what} without a {statement_key}"
    if requirement:
        if not binding_modal_ok(statement, language):
            return None, f"dropped a {what} without exactly one binding modal verb (shall / 应)"
        found = statement_findings(cleaned.get("title", ""), statement, language)
        if found:
            return None, f"dropped a {what} that safereq's own checks flag ({', '.join(found)})"
    for name, text in cleaned.items():
        if name in ("title", statement_key) and not relevant(text, vocabulary):
            return None, f"dropped a {what}: its {name} shares no word with the item or the evidence"
    return cleaned, ""
