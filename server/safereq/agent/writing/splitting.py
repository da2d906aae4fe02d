"""A compound requirement split into the single requirements it bundles, each keeping the item's own words.

"When the user presses Translate, the system shall call the OCR service and show the result" asks two
things, each verified on its own; the refinement an engineer writes first is one requirement per thing,
with the item's conditions, subject, negation and limits carried over verbatim:

    When the user presses Translate, the system shall call the OCR service.
    When the user presses Translate, the system shall show the result.

A part is split off only where the response joins two verb phrases (", and", "and shall", "并", "并且",
"同时") or the statement is several sentences each with its own modal verb; words inside parentheses are never
split, nor a verb that shares its object ("define and track the SLOs") or a modifier that shares its noun
("architectural and design decisions"). Non-binding modal verbs are made binding in the parts ("must" → "shall", 应该 → 应), the fix safereq's
own checks ask for; nothing else is reworded. A part with fewer than two content words is no requirement and
the split is not offered.
"""

from __future__ import annotations

import re

from ..item.reading import is_modifier, is_verb

_EN_MODAL = re.compile(r"\b(SHALL NOT|shall not|must not|SHALL|shall|must|will)\b")
_ZH_MODAL = re.compile(r"不应该|不应|应该|应当|应(?!用)")
_ZH_JOIN = re.compile(r"，?并且|，并|，同时|；")
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s*")
_CONTENT = re.compile(r"[A-Za-z]{4,}|[\u4e00-\u9fff]{2,}")
MAX_CHARS = 2000
_BINDING = {"must": "shall", "will": "shall", "must not": "shall not", "MUST": "SHALL"}


def _outside_parentheses(text: str, at: int) -> bool:
    return text.count("(", 0, at) == text.count(")", 0, at) and text.count("（", 0, at) == text.count("）", 0, at)


def _split_en(sentence: str) -> list[str]:
    m = _EN_MODAL.search(sentence)
    if not m:
        return [sentence]
    head, modal, rest = sentence[:m.start()], _BINDING.get(m.group(1), m.group(1)), sentence[m.end():].strip()
    rest = rest.rstrip(".").strip()
    parts: list[str] = []
    start = 0
    for j in re.finditer(r",? and (?:(?:shall|SHALL|must)(?: not)? )?(?=(\w+))", rest):
        if not _outside_parentheses(rest, j.start()) or not is_verb(j.group(1)):
            continue
        left = rest[start:j.start()].strip(" ,").split()
        if len(left) < 2 or is_modifier(left[-1]):
            continue  # "define and track X" shares its object; "architectural and design decisions" its noun
        parts.append(rest[start:j.start()].strip(" ,"))
        start = j.end()
    parts.append(rest[start:].strip(" ,"))
    if len(parts) < 2:
        return [f"{head}{modal} {rest}."]
    return [f"{head}{modal} {p}." for p in parts]


def _split_zh(sentence: str) -> list[str]:
    m = _ZH_MODAL.search(sentence)
    if not m:
        return [sentence]
    modal = "不应" if m.group(0).startswith("不") else "应"
    head, rest = sentence[:m.start()], sentence[m.end():].rstrip("。").strip()
    parts = [p.strip("，, ") for p in _ZH_JOIN.split(rest)]
    parts = [p for p in parts if p]
    return [f"{head}{modal}{p}。" for p in parts] if len(parts) >= 2 else [f"{head}{modal}{rest}。"]


def split(statement: str, language: str) -> list[str]:
    """The single requirements ``statement`` bundles; empty when it bundles only one."""
    if len(statement) > MAX_CHARS:
        return []  # a requirement statement is a sentence or two; longer text is not split
    sentences = [s.strip() for s in _SENTENCE.split(statement.strip()) if s.strip()]
    modal = _ZH_MODAL if language == "zh" else _EN_MODAL
    binding = [s for s in sentences if modal.search(s)]
    if not binding or not modal.search(sentences[0]):
        return []  # the item leads with a description ("consists of the following parts: ..."), not a requirement
    out: list[str] = []
    for s in binding:
        out.extend(_split_zh(s) if language == "zh" else _split_en(s))
    if len(out) < 2 or any(len(_CONTENT.findall(p)) < 2 for p in out):
        return []
    return out
