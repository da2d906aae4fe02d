"""Knowledge-base settings: where the index lives and which embedder fills it.

Settings come from (highest first) explicit arguments (CLI flags, the language server's configuration),
environment variables, then defaults. Environment variables:

    SAFEREQ_INDEX              index folder or object-store URI (default: <workspace>/.safereq/index)
    SAFEREQ_EMBEDDER           e5 (default) | openai | none
    SAFEREQ_EMBED_URL          OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1
    SAFEREQ_EMBED_MODEL        model name sent to that endpoint
    SAFEREQ_EMBED_API_KEY      bearer token for that endpoint (optional)
    SAFEREQ_EMBED_DIM          expected dimension (optional; probed otherwise)
    SAFEREQ_EMBED_ALLOW_REMOTE 1 to allow a non-loopback endpoint (sends indexed text off the machine)
    SAFEREQ_EMBED_THREADS      CPU threads for the bundled model (default: the runtime's choice)
    SAFEREQ_EMBED_PROCESSES    worker processes for bulk embedding with the bundled model (default: cores, ≤ 2)
    SAFEREQ_EMBED_CONCURRENCY  requests in flight at once to the OpenAI-compatible endpoint (default 4)
    SAFEREQ_EMBED_MAX_TOKENS   tokens of each chunk the bundled model embeds (header first; 0 = all;
                               default passage_cap.DEFAULT_MAX_TOKENS); the stored text stays whole
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from ..config import Environment
from .location import IndexLocation, index_location
from .paths import default_index_dir


@dataclass(frozen=True, slots=True)
class EmbedConfig:
    backend: str = "e5"
    url: str = ""
    model: str = ""
    api_key: str = ""
    dim: int = 0
    allow_remote: bool = False
    threads: int | None = None
    query_prefix: str = ""
    passage_prefix: str = ""
    concurrency: int = 4
    max_tokens: int = -1  # -1: passage_cap.DEFAULT_MAX_TOKENS

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> EmbedConfig:
        """The embedder the environment names (read by the one configuration model, config.Environment)."""
        environment = Environment.read(env)
        return cls(
            backend=environment.embedder.strip().lower() or "e5",
            url=environment.embed_url,
            model=environment.embed_model,
            api_key=environment.embed_api_key,
            dim=environment.embed_dimension,
            allow_remote=environment.embed_remote_allowed,
            threads=environment.embed_thread_count,
            max_tokens=-1 if environment.embed_token_cap is None else environment.embed_token_cap,
        )


@dataclass(frozen=True, slots=True)
class KnowledgeConfig:
    index_dir: IndexLocation
    embed: EmbedConfig = field(default_factory=EmbedConfig)

    @classmethod
    def resolve(cls, index_dir: IndexLocation | str | None = None, workspace: Path | None = None,
                embedder: str | None = None, **embed_overrides: object) -> KnowledgeConfig:
        """Arguments first, then the environment, then defaults."""
        embed = EmbedConfig.from_env()
        if embedder:
            embed = replace(embed, backend=embedder.lower())
        overrides = {k: v for k, v in embed_overrides.items() if v not in (None, "")}
        if overrides:
            embed = replace(embed, **overrides)  # type: ignore[arg-type]
        path = index_location(index_dir) if index_dir else default_index_dir(workspace)
        return cls(path, embed)
