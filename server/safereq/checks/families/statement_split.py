"""Split a statement that states two obligations into two sentences, where that can be done reliably.

Used by the fix of modal/multiple. Two shapes are split, each keeping the opening EARS clauses and the
system for the second sentence:

- one system, two responses: "When X, the ECU shall A and shall B." ->
  "When X, the ECU shall A. When X, the ECU shall B." (系统应A，并应B。 -> 系统应A。系统应B。)
- two systems: "When X, the ECU shall A and the HMI shall B." -> "When X, the ECU shall A. When X, the HMI
  shall B." (…，人机界面应B -> …。人机界面应B), when the words before the second verb look like a name.

Anything else (three obligations, "or", a second verb inside a subordinate clause) gets no fix: a wrong split
would change the requirement.
"""

from __future__ import annotations

import re

from .ears import classify_ears
from ..analysis.modal_verbs import ModalVerb
from ..analysis.statements import sentence_at

_EN_SAME_SUBJECT = re.compile(r",?\s+and\s+$")
_EN_AND = re.compile(r",?\s+and\s+")
_EN_CLAUSE_WORD = re.compile(r"\b(?:that|which|who|whose|where|when|while|if|unless)\b", re.IGNORECASE)
_EN_SUBJECT = re.compile(r"(?:the|a|an|each|its|[A-Z][\w-]*)\b[\w\s'-]{0,60}?\s+$")
_ZH_SAME_SUBJECT = re.compile(r"(?:[，,]\s*)?(?:并且|并|且|同时|而且)?\s*$")
_ZH_SUBJECT = re.compile(r"[，,；;]\s*([^，,；;。\s]{1,16})\s*$")


def split_edit(
    text: str, language: str, verbs: tuple[ModalVerb, ...], extra_not_modal: tuple[str, ...] = ()
) -> tuple[int, int, str] | None:
    """(start, end, new_text) replacing ``text[start:end]`` to split the statement in two, or None;
    ``verbs`` were found with the project's extra not-modal words ``extra_not_modal``."""
    binding = [v for v in verbs if v.role == "binding"]
    if len(binding) != 2:
        return None
    first, second = binding
    s_start, s_end = sentence_at(text, first.start)
    if second.start >= s_end:
        return None  # already two sentences
    cls = classify_ears(text, language, extra_not_modal)
    subject = cls.subject_start if cls.subject_start is not None else s_start
    lead = text[s_start:subject]  # the opening clauses, repeated in front of the second sentence
    between = text[first.end:second.start]
    if language == "zh":
        return _split_zh(text, first, second, between, lead, s_start)
    return _split_en(text, first, second, between, lead, s_start)


def _split_en(text: str, first: ModalVerb, second: ModalVerb, between: str, lead: str,
              s_start: int) -> tuple[int, int, str] | None:
    same = _EN_SAME_SUBJECT.search(between)
    if same is not None:
        preamble = text[s_start:first.start]
        return first.end + same.start(), second.start, ". " + _capitalise(preamble)
    joins = list(_EN_AND.finditer(between))
    if not joins:
        return None
    join = joins[-1]
    name = between[join.end():]
    if not _EN_SUBJECT.fullmatch(name) or len(name.split()) > 6 or _EN_CLAUSE_WORD.search(name):
        return None  # not a bare name: the second verb may sit in a relative or conditional clause
    start = first.end + join.start()
    name_start = first.end + join.end()
    if lead:
        return start, name_start, ". " + _capitalise(lead)
    return start, name_start + 1, ". " + text[name_start].upper()


def _split_zh(text: str, first: ModalVerb, second: ModalVerb, between: str, lead: str,
              s_start: int) -> tuple[int, int, str] | None:
    same = _ZH_SAME_SUBJECT.search(between)
    if same is not None and same.group(0).strip():
        preamble = text[s_start:first.start]
        return first.end + same.start(), second.start, "。" + preamble
    name = _ZH_SUBJECT.search(between)
    if name is None:
        return None
    return first.end + name.start(), first.end + name.start(1), "。" + lead


def _capitalise(words: str) -> str:
    return words[:1].upper() + words[1:]
