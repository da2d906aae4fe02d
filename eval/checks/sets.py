"""The foreign requirement sets of the precision evaluation: public sets written by other teams, read from
their published form into (id, statement) pairs.

Only the NHTSA report ships with the repository (corpora/, public domain); the others are read from snapshots
of their public repositories (``fetch`` of the search library puts them under /work/.mirror). A set whose
source is not there is skipped, so the evaluation runs on whatever is available and says which sets it read.
Nothing of a third-party set is committed: eval/checks/README.md names each source and its licence.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "eval" / "agent"))

import link_sets  # noqa: E402  (the converters of the link evaluation read the same published files)

MIRROR = Path("/work/.mirror")
NHTSA_REPORT = ROOT / "corpora" / "nhtsa-dot-hs-812-573-alc" / "alc_report.txt"
TRACELAB = MIRROR / "CoEST+TraceLab" / "repo"
DRONOLOGY = MIRROR / "JaneClelandHuang+Dronology" / "repo"
TAKTFLOW = MIRROR / "nhuvaoanh123+taktflow-embedded" / "repo"

Pairs = list[tuple[str, str]]


def nhtsa() -> Pairs:
    """Safety goals, functional and additional safety requirements of NHTSA DOT HS 812 573 (Tables 30-44)."""
    docs = link_sets.nhtsa(NHTSA_REPORT)
    return [(r.id, r.statement) for _, reqs in docs.values() for r in reqs]


def ebt() -> Pairs:
    """The requirements of the Event-Based Traceability system (CoEST TraceLab benchmark dataset EBT)."""
    xml = link_sets._git_file(TRACELAB, "Main/Benchmarks/Datasets/EBT/source_Req.xml")
    return [(f"EBT-{k}", v) for k, v in link_sets._artifacts(xml).items() if v]


def dronology() -> Pairs:
    """The requirements (R sheet) of the Dronology prototype's artefact workbook."""
    docs = link_sets.dronology(DRONOLOGY)
    return [(r.id, r.statement) for r in docs["requirements"][1]]


_TAKT_FILES = ("docs/safety/requirements/functional-safety-reqs.md",
               "docs/safety/requirements/technical-safety-reqs.md",
               "docs/safety/requirements/sw-safety-reqs.md",
               "docs/aspice/software/sw-requirements/SWR-BSW.md")
_TAKT_HEAD = re.compile(r"^#{3,4} ((?:FSR|TSR|SSR|SWR)(?:-[A-Z]+)*-\d+): ")


def taktflow() -> Pairs:
    """Functional, technical and software safety requirements and the BSW software requirements of the Taktflow
    zonal vehicle platform: the prose under each requirement heading, without attributes, rationale and
    review notes."""
    out: dict[str, str] = {}
    for path in _TAKT_FILES:
        text = subprocess.run(["git", "--git-dir", str(TAKTFLOW), "show", f"HEAD:{path}"],
                              capture_output=True, text=True, check=True).stdout
        current: str | None = None
        body: list[str] = []
        for line in [*text.splitlines(), "## end"]:
            stripped = line.strip()
            head = _TAKT_HEAD.match(line)
            ends = line.startswith(("#", "---")) or (body and stripped.startswith(("**", "<!--", "|", "```")))
            if head or ends:
                if current and body and current not in out:
                    out[current] = " ".join(body)
                current, body = (head.group(1) if head else None), []
            elif current is not None and stripped and not stripped.startswith(("- **", "**", "<!--", "|", "```", ">")):
                body.append(stripped)
    return list(out.items())


SETS: dict[str, tuple[Callable[[], Pairs], Path]] = {
    "nhtsa-alc": (nhtsa, NHTSA_REPORT),
    "tracelab-ebt": (ebt, TRACELAB),
    "dronology": (dronology, DRONOLOGY),
    "taktflow": (taktflow, TAKTFLOW),
}


def available() -> dict[str, Pairs]:
    """Every set whose source is on this machine, by name."""
    return {name: load() for name, (load, source) in SETS.items() if source.exists()}
