"""The ``SAFEREQ_*`` environment variables, read in one place.

The environment is the lowest layer of settings (arguments and files come first); it is also the only place
an API key is read from. Debugging switches (``SAFEREQ_DEBUG``, ``SAFEREQ_LSP_DEBOUNCE_MS``,
``SAFEREQ_AGENT_LOG``) are read where they act.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping

from dataclasses import dataclass, field, fields

_TRUE = {"1", "true", "yes"}

# Read where they act, not through Environment: debugging and tuning switches. Listed so that a misspelt
# name can be told apart from one of these (tests/architecture keeps the list complete).
READ_ELSEWHERE = frozenset({
    "SAFEREQ_DEBUG", "SAFEREQ_LSP_DEBOUNCE_MS", "SAFEREQ_AGENT_LOG", "SAFEREQ_LOG_TIMESTAMPS",
    "SAFEREQ_LINK_MEANING", "SAFEREQ_EMBED_PROCESSES", "SAFEREQ_EMBED_CONCURRENCY", "SAFEREQ_CACHE_DIR",
})
# Families of variables: any name under these prefixes is a setting (object-storage options of the index).
PREFIXES = ("SAFEREQ_INDEX_STORAGE_",)


def _var(name: str) -> str:
    """A setting read from the variable ``name`` (empty when unset)."""
    return field(default="", metadata={"alias": name})


@dataclass(frozen=True, slots=True)
class Environment:
    """Every setting safereq reads from the environment, as text; empty or malformed numbers count as unset.

    A plain dataclass, not a pydantic model: every command reads it at start-up (the misspelt-name check),
    and importing pydantic costs more than the rest of ``safereq search``'s own start.
    """

    index: str = _var("SAFEREQ_INDEX")
    index_deadline: str = _var("SAFEREQ_INDEX_DEADLINE")
    corpora: str = _var("SAFEREQ_CORPORA")
    embedder: str = _var("SAFEREQ_EMBEDDER")
    embed_url: str = _var("SAFEREQ_EMBED_URL")
    embed_model: str = _var("SAFEREQ_EMBED_MODEL")
    embed_api_key: str = _var("SAFEREQ_EMBED_API_KEY")
    embed_dim: str = _var("SAFEREQ_EMBED_DIM")
    embed_allow_remote: str = _var("SAFEREQ_EMBED_ALLOW_REMOTE")
    embed_threads: str = _var("SAFEREQ_EMBED_THREADS")
    embed_max_tokens: str = _var("SAFEREQ_EMBED_MAX_TOKENS")
    llm_base_url: str = _var("SAFEREQ_LLM_BASE_URL")
    llm_model: str = _var("SAFEREQ_LLM_MODEL")
    llm_api_key: str = _var("SAFEREQ_LLM_API_KEY")
    llm_timeout: str = _var("SAFEREQ_LLM_TIMEOUT")
    llm_deadline: str = _var("SAFEREQ_LLM_DEADLINE")
    openai_api_key: str = _var("OPENAI_API_KEY")

    @classmethod
    def read(cls, env: Mapping[str, str] | None = None) -> Environment:
        env = os.environ if env is None else env
        return cls(**{f.name: str(env[f.metadata["alias"]]) for f in fields(cls) if f.metadata["alias"] in env})

    @classmethod
    def names(cls) -> frozenset[str]:
        """Every ``SAFEREQ_*`` name safereq reads (besides the :data:`PREFIXES` families)."""
        return frozenset(f.metadata["alias"] for f in fields(cls) if f.metadata["alias"].startswith("SAFEREQ_")) \
            | READ_ELSEWHERE

    # -- typed views ---------------------------------------------------------------------------------------
    @property
    def embed_dimension(self) -> int:
        return int(self.embed_dim) if self.embed_dim.strip().isdigit() else 0

    @property
    def embed_thread_count(self) -> int | None:
        return int(self.embed_threads) if self.embed_threads.strip().isdigit() else None

    @property
    def embed_token_cap(self) -> int | None:
        """``SAFEREQ_EMBED_MAX_TOKENS`` (0 = embed whole chunks); ``None`` when unset or malformed."""
        return int(self.embed_max_tokens) if self.embed_max_tokens.strip().isdigit() else None

    @property
    def embed_remote_allowed(self) -> bool:
        return self.embed_allow_remote.strip().lower() in _TRUE

    @property
    def llm_key(self) -> str:
        """The LLM API key: ``SAFEREQ_LLM_API_KEY``, else ``OPENAI_API_KEY``."""
        return self.llm_api_key or self.openai_api_key

    @property
    def llm_timeout_seconds(self) -> float | None:
        return _seconds(self.llm_timeout)

    @property
    def llm_deadline_seconds(self) -> float | None:
        return _seconds(self.llm_deadline)

    @property
    def index_deadline_seconds(self) -> float | None:
        """``SAFEREQ_INDEX_DEADLINE``: the longest one call to an object store may take, in seconds."""
        return _seconds(self.index_deadline)


def _seconds(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value > 0 else None


def misspelt(env: Mapping[str, str] | None = None) -> list[str]:
    """One warning per ``SAFEREQ_*`` variable that is no setting but is very like one (``SAFEREQ_LLM_MODLE``):
    otherwise a typo is silently ignored and the user wonders why the model is not used. Other unknown
    names (a test suite's own switches, say) are left alone."""
    env = os.environ if env is None else env
    known = Environment.names()
    out = []
    for name in sorted(env):
        if not name.startswith("SAFEREQ_") or name in known or name.startswith(PREFIXES):
            continue
        match = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.85)
        if match:
            out.append(f"{name} is not a safereq setting and is ignored; did you mean {match[0]}?")
    return out
