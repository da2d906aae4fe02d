"""Development sets for derive and rebut: public requirement sets written by others, as safereq workspaces.

Each converter reads a published set and writes one Markdown workspace document (safereq's format) to a cache
folder outside the repository; nothing of a third-party set is committed. Every item carries the domain of
its element as the set's authors describe it (the section or document it comes from), which the rubric uses
to judge a domain mismatch independently of safereq's own domain classifier.

- ``nhtsa-alc``: NHTSA DOT HS 812 573 (US government work, shipped in corpora/): the functional safety
  requirements of Tables 30–37, allocated to the element the table names. Imperative statements ("Detect all
  electronic faults ..."), ASIL "B, D" read as D (the not-engaged Level 2 ASIL).
- ``taktflow-fsr``, ``taktflow-swr``: the Taktflow zonal vehicle platform (github nhuvaoanh123/taktflow-embedded,
  fetched into /work/.mirror): its functional safety requirements (vehicle) and its basic-software
  requirements SWR-BSW (software: CAN, SPI, ADC drivers, routing, watchdog manager ...).
- ``voyage-oas``: the requirement examples in Voyage's Open Autonomous Safety docs (MIT, shipped in corpora/).

Not used, on purpose: examples/ (ours) and the held-out sets (the sphinx-needs safety demo, Eclipse S-CORE,
Zephyr). No public Chinese requirement set with a clear source was found in time (see docs/agent.md).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NHTSA = ROOT / "corpora" / "nhtsa-dot-hs-812-573-alc" / "alc_report.txt"
VOYAGE = ROOT / "corpora" / "voyage-oas-docs" / "docs" / "functional-safety" / "README.md"
TAKTFLOW = Path("/work/.mirror/nhuvaoanh123+taktflow-embedded/repo")


@dataclass(frozen=True)
class DevItem:
    """One requirement of a development set, as it is written into the workspace document."""

    id: str
    title: str
    statement: str
    asil: str
    domain: str  # vehicle, software, hardware, uav: from the set's own structure
    parents: tuple[str, ...] = ()
    allocated_to: str = ""

    def markdown(self) -> str:
        lines = [f"## {self.id}: {self.title}", self.statement, ""]
        if self.asil:
            lines.append(f"- ASIL: {self.asil}")
        if self.parents:
            lines.append(f"- Derived from: {', '.join(self.parents)}")
        if self.allocated_to:
            lines.append(f"- Allocated to: {self.allocated_to}")
        return "\n".join(lines) + "\n"


def _title(statement: str, words: int = 7) -> str:
    head = re.split(r"[.;:(]", statement)[0].split()
    return " ".join(head[:words]).rstrip(",") or "Requirement"


# -- NHTSA ALC ----------------------------------------------------------------------------------------------
_TABLE = re.compile(r"^\s*Table (3[0-7])\. (.+?) Functional Safety Requirements\s*$")
_ROW = re.compile(r"^(\d+\.\d+)\s+([\d, ]+?)\s{2,}([A-D](?:, [A-D])?)\s{2,}(.*)$")
_DOMAIN_BY_TABLE = {"30": "vehicle", "31": "vehicle", "32": "vehicle", "33": "vehicle", "34": "vehicle",
                    "35": "hardware", "36": "vehicle", "37": "vehicle"}


def nhtsa_alc(path: Path = NHTSA) -> list[DevItem]:
    lines = path.read_text(encoding="utf-8").splitlines()
    items: list[DevItem] = []
    table, element = "", ""
    current: list[str] | None = None
    meta: tuple[str, str] = ("", "")

    def flush() -> None:
        nonlocal current
        if current is not None and table:
            text = " ".join(" ".join(current).split())
            sgs = tuple(f"SG-{n.strip()}" for n in meta[1].split(",") if n.strip().isdigit())
            items.append(DevItem(f"FSR-{meta[0].replace('.', '-')}", _title(text), text, "D",
                                 _DOMAIN_BY_TABLE.get(table, "vehicle"), sgs, element))
        current = None

    for line in lines:
        m = _TABLE.match(line)
        if m:
            flush()
            table, element = m.group(1), m.group(2).strip()
            element = "ALC system" if element.startswith("General") else element
            continue
        if not table:
            continue
        if re.match(r"^\s*(?:Architectural Strategies|Class 1 =|9\.\d)", line) or "Additional Safety" in line:
            flush()
            if "Additional Safety" in line or line.lstrip().startswith("9.3"):
                table = ""
            continue
        row = _ROW.match(line)
        text_col = re.sub(r"\s{2,}●.*$", "", line[22:]).strip() if len(line) > 22 else ""
        if row:
            flush()
            meta = (row.group(1), row.group(2))
            current = [re.sub(r"\s{2,}●.*$", "", row.group(4)).strip()]
        elif current is not None:
            if not line.strip() or text_col.startswith("•") or line.strip().isdigit():
                if current and (not line.strip() or text_col.startswith("•")):
                    current.append("\0")  # the row's text ends at the first blank line or bullet note
                continue
            if "\0" not in current and text_col:
                current.append(text_col)
    flush()
    cleaned = []
    for it in items:
        statement = it.statement.split("\0")[0].strip()
        cleaned.append(DevItem(it.id, _title(statement), statement, it.asil, it.domain, it.parents, it.allocated_to))
    return [it for it in cleaned if it.statement]


# -- Taktflow ------------------------------------------------------------------------------------------------
_HEADING = re.compile(r"^### ((?:FSR|SWR-[A-Z]+)-\d+): (.+)$")
_ATTR = re.compile(r"^- \*\*(.+?)\*\*: (.*)$")


def _git_show(repo: Path, path: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo / ".git") if (repo / ".git").exists() else str(repo),
                           "show", f"HEAD:{path}"], capture_output=True, text=True, check=True).stdout


def taktflow(path: str, domain: str, repo: Path = TAKTFLOW) -> list[DevItem]:
    text = _git_show(repo, path)
    items: list[DevItem] = []
    block: list[str] = []
    head: re.Match[str] | None = None

    def flush() -> None:
        if head is None:
            return
        attrs: dict[str, str] = {}
        paragraph: list[str] = []
        for line in block:
            a = _ATTR.match(line)
            if a:
                attrs[a.group(1).lower()] = a.group(2)
            elif line.strip() and not line.startswith(("<!--", "**", "---", "|", "#")) and not paragraph[-1:] == [""]:
                paragraph.append(line.strip())
            elif paragraph and not line.strip():
                paragraph.append("")
        statement = " ".join(p for p in paragraph if p)
        asil = (attrs.get("asil", "").split() or [""])[0].strip(",")
        parents = tuple(p.strip() for p in re.split(r"[,\s]+", attrs.get("traces up", "")) if re.fullmatch(r"SG-\d+", p.strip()))
        allocated = re.split(r"\s*[(,]", attrs.get("allocation", ""))[0].strip()
        if statement and "shall" in statement:
            items.append(DevItem(head.group(1), head.group(2).strip(), statement, asil if asil in "ABCDQM" else "",
                                 domain, parents, allocated))

    for line in text.splitlines():
        m = _HEADING.match(line)
        if m:
            flush()
            head, block = m, []
        elif head is not None:
            if line.startswith("## "):
                flush()
                head, block = None, []
            else:
                block.append(line)
    flush()
    return items


# -- Voyage OAS ----------------------------------------------------------------------------------------------
def voyage_oas(path: Path = VOYAGE) -> list[DevItem]:
    """The quoted requirement examples of the functional-safety overview: a safety goal for localization,
    the safety requirement it gives, and the crosswalk functional and detailed requirements."""
    text = path.read_text(encoding="utf-8")
    quoted = re.findall(r'"([^"]{12,200})"', text)
    picks = {q.rstrip(". ").lower(): q.rstrip(". ") for q in quoted
             if re.match(r"(?i)(always|stop|after|yield)", q)}  # "Detect and Respond to Stoplights" is a non-requirement
    items = []
    for n, q in enumerate(picks.values(), start=1):
        statement = q[0].upper() + q[1:]
        statement = statement if statement.endswith(".") else statement + "."
        items.append(DevItem(f"REQ-OAS-{n}", _title(statement), statement, "D" if "localization" in q else "",
                             "vehicle", (), "Localization" if "localization" in q else "Ego vehicle"))
    return items


def build(cache: Path) -> dict[str, tuple[Path, list[DevItem]]]:
    """Write each available set to ``cache``/<set>.md; a set whose source is missing is skipped with a note."""
    cache.mkdir(parents=True, exist_ok=True)
    sets: dict[str, list[DevItem]] = {"nhtsa-alc": nhtsa_alc(), "voyage-oas": voyage_oas()}
    if TAKTFLOW.exists():
        sets["taktflow-fsr"] = taktflow("docs/safety/requirements/functional-safety-reqs.md", "vehicle")
        sets["taktflow-swr"] = taktflow("docs/aspice/software/sw-requirements/SWR-BSW.md", "software")
    out = {}
    for name, items in sets.items():
        path = cache / f"{name}.md"
        path.write_text(f"# {name}\n\n" + "\n".join(it.markdown() for it in items), encoding="utf-8")
        out[name] = (path, items)
    return out
