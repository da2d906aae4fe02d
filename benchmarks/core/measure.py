"""Timing helpers shared by the single-purpose benchmarks (baseline, test results): wall and CPU time of one
call, the medians of repeated samples, and the results written as JSON and printed."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[tuple[float, float], T]:
    """((wall s, CPU s), value) of one call of ``fn``."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return (time.perf_counter() - wall, time.process_time() - cpu), value


def median(samples: list[tuple[tuple[float, float], Any]]) -> dict[str, float]:
    """The median wall and CPU time of samples made by ``timed``."""
    return {"wall_s": round(statistics.median(t[0][0] for t in samples), 4),
            "cpu_s": round(statistics.median(t[0][1] for t in samples), 4)}


def write_results(results: dict, json_path: str | Path) -> None:
    """Write ``results`` to ``json_path`` (creating its folder) and print them."""
    path = Path(json_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(results, indent=2)
    path.write_text(text + "\n", encoding="utf-8")
    print(text)
