"""What a requirement statement says: its conditions, subject, modal verb, negation and response.

The offline assistant builds derived requirements and rebuttals from these parts, so it must read them the
way the checks do: the modal verb and its negation come from ``checks.analysis.modal_verbs``, the EARS
conditions and where the subject starts from ``checks.families.ears``. A response is only reused in a new
sentence when it starts with a verb (rules/patterns/reading.yaml); an imperative statement without a modal
verb ("Detect all electronic faults ...", as many published requirement sets write them) is read as a
response without a subject.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ...checks import classify_ears
from ...checks.analysis.modal_verbs import main_verb, modal_verbs
from ...checks.analysis.statements import sentence_at
from ...data import load_rules_yaml

_LEAD = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][\w-]*")
_TIMING_EN = re.compile(r"\bwithin\s+(?:\d+(?:\.\d+)?\s*(?:ms|s|µs|us|milliseconds?|seconds?|minutes?)|the\s+FTTI)\b",
                        re.IGNORECASE)
_TIMING_ZH = re.compile(r"(?:在)?\d+(?:\.\d+)?\s*(?:ms|毫秒|秒|s)\s*内")
_VERB_ENDINGS = ("ize", "ise", "ate", "ify")


@dataclass(frozen=True, slots=True)
class Reading:
    """One statement taken apart. ``response`` is what is required, without the modal verb and without "not"
    (``negated`` says whether it was forbidden); ``verb`` is its first verb in lower case, "" when the response
    does not start with one (then it must not be reused in a sentence); ``subject`` has no article."""

    language: str
    conditions: tuple[tuple[str, str], ...] = ()
    subject: str = ""
    modal: str = ""
    negated: bool = False
    response: str = ""
    verb: str = ""
    timing: str = ""

    @property
    def plural(self) -> bool:
        head = self.subject.split()[-1] if self.subject.split() else ""
        if head.isupper():
            return False  # an abbreviation ("EPS", "ECUS" aside)
        head = head.lower()
        return head.endswith("s") and not head.endswith(("ss", "us", "is"))

    @property
    def reusable(self) -> bool:
        """True when the response can be put into another sentence: it starts with a verb and holds no
        condition of its own ("stop ... if a pedestrian is ..." would nest one condition in another)."""
        if not self.response or not (self.verb or self.language == "zh"):
            return False
        last = self.response.split()[-1].lower().strip(",;:") if self.language == "en" else ""
        if last in {str(w) for w in _data()["dangling-ends"]}:
            return False  # cut off before a list: "... a header consisting of"
        inner = [str(w) for w in _data()["inner-conditions"]]
        if self.language == "zh":
            return not any(w in self.response for w in inner if re.search(r"[\u3400-\u9fff]", w))
        return not any(re.search(rf"\b{w}\b", self.response, re.IGNORECASE) for w in inner if w.isascii())


@lru_cache(maxsize=1)
def _data() -> dict:
    return load_rules_yaml("patterns/reading.yaml")


@lru_cache(maxsize=1)
def _verbs() -> frozenset[str]:
    return frozenset(str(v) for v in _data()["verbs"])


def is_verb(word: str) -> bool:
    w = word.lower()
    return w in _verbs() or (len(w) > 5 and w.endswith(_VERB_ENDINGS))


def _first_verb(response: str) -> str:
    words = _WORD.findall(response)
    for w in words[:3]:
        if w.lower().endswith("ly") and not is_verb(w):
            continue  # an adverb ("continuously compare")
        return w.lower() if is_verb(w) else ""
    return ""


def third_person(response: str) -> str:
    """``response`` with its verbs in the third person singular: "set the request and report it" → "sets the
    request and reports it" (the first verb and each verb right after "and"/"or")."""
    irregular = {str(k): str(v) for k, v in _data()["third-person"].items()}

    def conj(word: str) -> str:
        w = word.lower()
        if w in irregular:
            return irregular[w]
        if w.endswith(("s", "sh", "ch", "x", "z", "o")):
            return word + "es"
        if len(w) > 1 and w.endswith("y") and w[-2] not in "aeiou":
            return word[:-1] + "ies"
        return word + "s"

    words = response.split(" ")
    out, expect = [], True
    for w in words:
        if expect and w and is_verb(w.strip(",;")) and not w.lower().endswith("ly"):
            out.append(conj(w))
            expect = False
        else:
            out.append(w)
            if expect and w.lower().endswith("ly"):
                continue  # an adverb before the verb
            expect = w.lower() in ("and", "or")
    return " ".join(out)


def _clean(text: str) -> str:
    return text.strip().rstrip(".;:。；").strip()


@lru_cache(maxsize=4096)
def read_statement(statement: str, language: str) -> Reading:
    """The parts of ``statement`` (``language`` "en" or "zh"); cached, as the planner, the patterns and the
    composers all ask for the same statement."""
    text = " ".join(statement.split())
    if not text:
        return Reading(language)
    lang = "zh" if language == "zh" else "en"
    verbs = modal_verbs(text, lang)
    verb = main_verb(verbs)
    timing_re = _TIMING_ZH if lang == "zh" else _TIMING_EN
    if verb is None:  # an imperative ("Detect all electronic faults ...") or a plain description
        s_start, s_end = sentence_at(text, 0)
        sentence = _clean(text[s_start:s_end])
        first = _first_verb(sentence) if lang == "en" else ""
        words = sentence.split()
        if first and len(words) > 1 and words[1][:1].isupper() and not words[1].isupper():
            first = ""  # "Brake Controller Operational Monitoring" is a name, not an imperative
        response = (sentence[0].lower() + sentence[1:]) if first and sentence else ""
        timing = timing_re.search(response)
        return Reading(lang, response=response, verb=first, timing=timing.group(0) if timing else "")
    cls = classify_ears(text, lang)
    s_start, s_end = sentence_at(text, verb.start)
    conditions = tuple((c.kind, text[c.body_start:c.body_end]) for c in cls.clauses)
    start = cls.subject_start if cls.subject_start is not None else s_start
    subject = text[start:verb.start].strip(" ,，")
    after = text[verb.end:s_end]
    if lang == "en":
        after = re.sub(r"^\s*not\b", "", after) if verb.negated else after
        response = _clean(after)
        subject = _LEAD.sub("", re.split(r",\s*|\bthen\s+", subject)[-1].strip())
        first_word = subject.split()[0] if subject.split() else ""
        if len(first_word) > 1 and first_word[0].isupper() and first_word[1:].replace("-", "").islower():
            subject = subject[0].lower() + subject[1:]  # "Single-point failures" starts the sentence only
        first = _first_verb(response)
    else:
        response = _clean(after)
        subject = re.sub(r"^(?:则|那么)", "", subject).strip()
        first = ""
    timing = timing_re.search(response)
    return Reading(lang, conditions, subject, verb.word, verb.negated, response, first,
                   timing.group(0) if timing else "")


def not_an_element(subject: str) -> bool:
    """True when the subject names a fault or condition (or is a pronoun), not the element that acts."""
    words = subject.lower().split()
    stop = {str(w) for w in _data()["not-elements"]}
    return not words or words[-1] in stop or words[0] in stop or subject in stop


def generic_subject(subject: str) -> bool:
    """True for a subject too general to name the element ("system", "function", 系统)."""
    words = subject.lower().split()
    return bool(words) and words[-1] in {str(w) for w in _data()["generic-subjects"]} and len(words) <= 2


def zh_verbs() -> tuple[str, ...]:
    return tuple(str(w) for w in _data()["zh-verbs"])
