"""The typed settings: the project file, the editor's settings, and the parts of them the features read.

One model per table, every one closed (``extra="forbid"``): a key the model does not define is an error,
named with the closest key that exists there. The names the model cannot know by itself (rule IDs and
families, word-list names) come in a :class:`Known`, passed as pydantic's validation context by whoever
knows them (checks/config.py, from the rule registry).

Keys are written as in the project file (``base_url``, ``external-ids``); the editor's camel-case forms
(``baseUrl``) are accepted as aliases.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from .problems import Problem, closest, dotted

CATEGORIES = ("hazard", "safety-goal", "safety-requirement", "requirement", "claim", "verification")
SEVERITY_VALUES = ("off", "on", "error", "warning", "info", "information", "hint")
LANGUAGES = ("en", "zh")


@dataclass(frozen=True)
class Known:
    """Names defined outside the configuration: rule IDs (and their families), extensible word lists."""

    rules: frozenset[str] = frozenset()
    word_lists: frozenset[str] = frozenset()
    families: frozenset[str] = field(default=frozenset())


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class IndexSettings(_Closed):
    """``[index]``: where the knowledge index lives (relative to the configuration's folder)."""

    path: str | None = None


class CorporaSettings(_Closed):
    """``[corpora]``: files and folders indexed beside the shipped corpora."""

    paths: list[str] | None = None

    @field_validator("paths", mode="before")
    @classmethod
    def _one_path(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class LLMConfig(_Closed):
    """``[llm]``: an OpenAI-compatible endpoint. The API key is never read from a file or the settings."""

    base_url: str | None = Field(None, validation_alias=AliasChoices("base_url", "baseUrl"))
    model: str | None = None
    timeout: float | None = Field(None, gt=0)
    max_retries: int | None = Field(None, ge=0, validation_alias=AliasChoices("max_retries", "maxRetries"))
    backoff: float | None = Field(None, ge=0)
    max_tokens: int | None = Field(None, gt=0, validation_alias=AliasChoices("max_tokens", "maxTokens"))
    deadline: float | None = Field(None, gt=0)
    breaker_failures: int | None = Field(None, ge=1, validation_alias=AliasChoices("breaker_failures", "breakerFailures"))
    breaker_cooldown: float | None = Field(None, ge=0, validation_alias=AliasChoices("breaker_cooldown", "breakerCooldown"))

    def values(self) -> dict[str, Any]:
        """The settings given, by their file names (what crosses to the agent's worker process)."""
        return self.model_dump(exclude_none=True)


class ImpactSettings(_Closed):
    """``[impact]``: attributes a linked item also depends on, beside the statement, ASIL, safe state, FTTI and
    allocation (change impact, docs/change-impact.md)."""

    attributes: list[str] = []

    @field_validator("attributes")
    @classmethod
    def _known_keys(cls, value: list[str]) -> list[str]:
        from ..data import load_rules_yaml

        keys = {k for k, spec in load_rules_yaml("attributes.yaml")["attributes"].items() if spec.get("type") != "links"}
        for key in value:
            if key not in keys:
                raise _Named(("impact", "attributes"), f"unknown attribute '{key}' in impact.attributes (an attribute "
                                                       f"key of rules/attributes.yaml, not a link){closest(key, keys)}")
        return value


class KindSpec(_Closed):
    """``[kinds] SYSR = { name = ..., category = ... }``."""

    name: str | None = None
    category: Literal["hazard", "safety-goal", "safety-requirement", "requirement", "claim", "verification"] = "requirement"


def _rules(value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
    known: Known | None = (info.context or {}).get("known")
    for rule_id, severity in value.items():
        if known is not None and known.rules and rule_id not in known.rules and rule_id not in known.families:
            raise _Named(("rules", rule_id), f"unknown rule '{rule_id}'{closest(rule_id, known.rules | known.families)}")
        if severity.strip().lower() not in SEVERITY_VALUES:
            raise _Named(("rules", rule_id), f"rule '{rule_id}': unknown severity {severity!r} "
                                             "(use error, warning, info, hint, on or off)")
    return {rule_id: severity.strip().lower() for rule_id, severity in value.items()}


class _Named(ValueError):
    """A problem found by a validator, with the location to blame (pydantic's own points at the table)."""

    def __init__(self, loc: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.loc, self.message = loc, message


class ProjectFile(_Closed):
    """The project file: ``safereq.toml``, or ``[tool.safereq]`` of a ``pyproject.toml``."""

    rules: dict[str, str] = {}
    kinds: dict[str, KindSpec] = {}
    words: dict[str, dict[str, list[str]]] = {}
    exclude: list[str] = []
    external_ids: list[str] = Field([], alias="external-ids")
    external_id_url: str | None = Field(None, alias="external-id-url")
    index: IndexSettings = IndexSettings()
    llm: LLMConfig = LLMConfig()
    corpora: CorporaSettings = CorporaSettings()
    impact: ImpactSettings = ImpactSettings()
    cache: str | bool = True  # `safereq check`'s cache folder (relative to this file), or false for none
    baseline: str | None = None
    test_results: list[str] = Field([], alias="test-results")
    test_id_pattern: str | None = Field(None, alias="test-id-pattern")

    @field_validator("test_id_pattern")
    @classmethod
    def _test_id_pattern(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                compiled = re.compile(value)
            except re.error as exc:
                raise _Named(("test-id-pattern",), f"'test-id-pattern' is not a regular expression: {exc}") from None
            if compiled.groups < 1:
                raise _Named(("test-id-pattern",), "'test-id-pattern' needs a group for the ID, e.g. "
                                                   "\"test_(TC_[0-9]+)\"")
        return value

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        return _rules(value, info)

    @field_validator("kinds")
    @classmethod
    def _kind_prefixes(cls, value: dict[str, KindSpec]) -> dict[str, KindSpec]:
        for prefix in value:
            if not re.fullmatch(r"[A-Z]+", prefix):
                raise _Named(("kinds", prefix), f"kind '{prefix}': a kind is the upper-case letters an ID starts with")
        return value

    @field_validator("words")
    @classmethod
    def _known_lists(cls, value: dict[str, dict[str, list[str]]], info: ValidationInfo) -> dict[str, dict[str, list[str]]]:
        known: Known | None = (info.context or {}).get("known")
        for language, lists in value.items():
            if language not in LANGUAGES:
                raise _Named(("words", language),
                             f"unknown language 'words.{language}' (use {' or '.join(LANGUAGES)}){closest(language, LANGUAGES)}")
            for name in lists:
                if known is not None and known.word_lists and name not in known.word_lists:
                    raise _Named(("words", language, name),
                                 f"unknown word list 'words.{language}.{name}'{closest(name, known.word_lists)}")
        return value

    @field_validator("external_ids")
    @classmethod
    def _id_patterns(cls, value: list[str]) -> list[str]:
        for pattern in value:
            if not re.fullmatch(r"[A-Z]+(?:[-_.][A-Z0-9]+)*[-_.]?\*?|[A-Z]+-[A-Z0-9*-]*", pattern):
                raise _Named(("external-ids",), f"external ID pattern '{pattern}': write the upper-case prefix of "
                                                "the IDs and '*', e.g. \"TC-*\"")
        return value

    @field_validator("external_id_url")
    @classmethod
    def _url_template(cls, value: str | None) -> str | None:
        if value is not None and "{id}" not in value:
            raise _Named(("external-id-url",), "'external-id-url' needs an {id} field, e.g. \"https://tests.example/{id}\"")
        return value


class EditorSettings(_Closed):
    """The editor's ``safereq`` settings section (client-vscode/package.json). ``server`` and ``trace`` are
    the client's own (how to start the server, protocol tracing): accepted and not read here."""

    rules: dict[str, str] = {}
    llm: LLMConfig = LLMConfig()
    index: IndexSettings = IndexSettings()
    corpora: CorporaSettings = CorporaSettings()
    server: dict[str, Any] = {}
    trace: dict[str, Any] = {}

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        return _rules(value, info)


def problems(error: ValidationError, model: type[BaseModel]) -> list[Problem]:
    """The problems of a failed validation, in the user's words, each at the location to blame."""
    out: list[Problem] = []
    for e in error.errors():
        loc = tuple(e["loc"])
        ctx_error = (e.get("ctx") or {}).get("error")
        if isinstance(ctx_error, _Named):
            out.append(Problem(ctx_error.loc, ctx_error.message))
        elif e["type"] == "extra_forbidden":
            out.append(Problem(loc, _unknown(loc, model)))
        else:
            out.append(Problem(tuple(p for p in loc if not isinstance(p, int)), _message(loc, e)))
    return out


def _unknown(loc: tuple, model: type[BaseModel]) -> str:
    if loc[-1] in ("api_key", "apiKey", "api-key") and loc[:-1] == ("llm",):
        return ("unknown setting 'llm.api_key': the API key is never read from a file or the settings; set "
                "SAFEREQ_LLM_API_KEY in the environment")
    return f"unknown setting '{dotted(loc)}'{closest(str(loc[-1]), _keys_at(model, loc[:-1]))}"


def _message(loc: tuple, e: Mapping[str, Any]) -> str:
    """What is wrong with the value at ``loc``, phrased for the table it is in."""
    top, kind = str(loc[0]), e["type"]
    if top == "rules":
        return "'rules' must be a table of rule id = severity" if len(loc) == 1 else \
            f"rule '{loc[1]}': expected a string severity"
    if top == "words":
        return "'words' must be tables of string lists, e.g. [tool.safereq.words.en] vague-terms = [\"seamless\"]"
    if top == "exclude":
        return "'exclude' must be a list of glob patterns"
    if top == "external-ids":
        return "'external-ids' must be a list of ID patterns, e.g. [\"TC-*\"]"
    if top == "kinds" and len(loc) > 1:
        if kind == "literal_error":
            return f"kind '{loc[1]}': category must be one of {', '.join(CATEGORIES)}"
        return f"kind '{loc[1]}': must be a table {{ name = \"...\", category = \"...\" }}" if len(loc) == 2 else \
            f"kind '{loc[1]}': '{dotted(loc[2:])}' must be a string"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"'{dotted(loc)}' must be a table"
    if kind == "list_type":
        return f"'{dotted(loc)}' must be a list"
    if kind == "string_type":
        return f"'{dotted(tuple(p for p in loc if not isinstance(p, int)))}' must be a string"
    return f"'{dotted(loc)}': {str(e['msg']).lower()}"


def _keys_at(model: type[BaseModel], loc: Iterable[str | int]) -> list[str]:
    """The keys the table at ``loc`` of ``model`` may have (its fields, by the names written in a file)."""
    current: Any = model
    for part in loc:
        if get_origin(current) is dict:  # a table of tables (kinds): every key leads to the same model
            current = get_args(current)[1]
            continue
        fields = getattr(current, "model_fields", None)
        found = next((f for name, f in (fields or {}).items() if part in (name, f.alias)), None)
        if found is None:
            return []
        current = found.annotation
    fields = getattr(current, "model_fields", {})
    return [f.alias or name for name, f in fields.items()]
