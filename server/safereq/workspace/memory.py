"""Whether checking a document of a given size fits in the memory the machine has free.

Checking holds the text, its parse and its findings in memory at once, so the peak grows with the document:
``benchmarks/shapes/run.py`` measures it at up to about 100 times the document's size (a single paragraph of
millions of sentences, every one with findings; ordinary requirements about 50 times). Rather than let the
operating system kill the process (or the machine swap) minutes into a check, a document whose estimated
peak exceeds the memory available is refused before it is read.
"""

from __future__ import annotations

# Bytes of peak memory per byte of document, the worst shape measured (see the module docstring).
PEAK_PER_BYTE = 100
# Below this size a document is never refused: the estimate is not worth reading /proc for.
CHECKED_FROM = 1024 * 1024


def available_bytes() -> int | None:
    """Memory available to this process: the smaller of the kernel's MemAvailable and the cgroup limit.

    None where neither can be read (not Linux): no document is refused for memory then.
    """
    found = []
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as f:
            limit = f.read().strip()
        if limit.isdigit():
            with open("/sys/fs/cgroup/memory.current", encoding="ascii") as f:
                found.append(int(limit) - int(f.read().strip()))
    except (OSError, ValueError):
        pass
    return min(found) if found else None


def too_big_to_check(size: int) -> str | None:
    """Why a document of ``size`` bytes is not checked, or None when it fits."""
    if size < CHECKED_FROM:
        return None
    free = available_bytes()
    need = size * PEAK_PER_BYTE
    if free is None or need <= free:
        return None
    return (f"checking it would need about {_gb(need)} of memory and {_gb(free)} is available; not checked "
            "(split the document)")


def _gb(size: int) -> str:
    return f"{size / 1024 ** 3:.1f} GB"
