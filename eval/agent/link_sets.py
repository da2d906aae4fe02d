"""Development sets for `safereq links`: public requirement sets with human-written trace links, as safereq
Markdown workspaces.

Each converter reads a source from a path and writes a workspace (one Markdown file per artefact kind, a
``safereq.toml`` declaring the kinds, "Derived from" links as the source's authors wrote them):

  nhtsa       the shipped NHTSA report DOT HS 812 573 (corpora/nhtsa-dot-hs-812-573-alc, US-government work,
              public domain): 5 safety goals, 47 functional safety requirements (FSR) and 26 additional safety
              requirements (ASR, a kind declared in [kinds]) with the goals the report traces them to. The
              workspace is committed (eval/data/nhtsa-alc); ``python eval/agent/link_sets.py nhtsa`` rebuilds it.
  easyclinic  EasyClinic (English), from the CoEST TraceLab benchmark datasets: use cases (UC) and the
              interaction diagrams (IDG) and test cases (TST) its developers traced them to. Read from a
              snapshot of github.com/CoEST/TraceLab; the workspace goes to eval/.data/ (not committed).
  dronology   the early Dronology prototype's artefact workbook (github.com/JaneClelandHuang/Dronology,
              Artifacts_Version07.xlsx): FMECA failure modes (FM, declared as hazards) and the requirements
              (DR) its authors linked to them. Workspace to eval/.data/.

Usage:
    python eval/agent/link_sets.py nhtsa [--out eval/data/nhtsa-alc]
    python eval/agent/link_sets.py easyclinic --snapshot /work/.mirror/CoEST+TraceLab/repo
    python eval/agent/link_sets.py dronology --snapshot /work/.mirror/JaneClelandHuang+Dronology/repo

A snapshot is a git directory (as the mirror keeps them: no work tree) or a checkout.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "eval" / ".data"


@dataclass
class Req:
    id: str
    title: str
    statement: str
    parents: list[str] = field(default_factory=list)
    asil: str = ""
    attrs: dict[str, str] = field(default_factory=dict)


def write_workspace(out: Path, docs: dict[str, tuple[str, list[Req]]], kinds: dict[str, str], source: str) -> None:
    """One Markdown file per document; ``kinds`` (prefix -> category) go to safereq.toml."""
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.md"):
        old.unlink()
    toml = ["# Converted by eval/agent/link_sets.py from " + source, "[kinds]"]
    toml += [f'{k} = {{ name = "{k.lower()}", category = "{v}" }}' for k, v in kinds.items()]
    (out / "safereq.toml").write_text("\n".join(toml) + "\n", encoding="utf-8")
    for name, (heading, reqs) in docs.items():
        lines = [f"# {heading}", "", f"Converted from {source}.", ""]
        for r in reqs:
            lines += [f"## {r.id}: {r.title}", textwrap.fill(r.statement, 110), ""]
            if r.asil:
                lines.append(f"- ASIL: {r.asil}")
            if r.parents:
                lines.append(f"- Derived from: {', '.join(r.parents)}")
            lines += [f"- {k}: {v}" for k, v in r.attrs.items()]
            lines.append("")
        (out / f"{name}.md").write_text("\n".join(lines), encoding="utf-8")


def _title(text: str, words: int = 8) -> str:
    first = re.split(r"(?<=[.;:])\s", text.strip(), maxsplit=1)[0].rstrip(".;:")
    parts = first.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def _git_file(snapshot: Path, path: str) -> bytes:
    direct = snapshot / path
    if direct.is_file():
        return direct.read_bytes()
    return subprocess.run(["git", "--git-dir", str(snapshot), "show", f"HEAD:{path}"], check=True,
                          capture_output=True).stdout


# -- NHTSA ALC (public domain) ---------------------------------------------------------------------------
_ROW = re.compile(r"^(\d{1,2}\.\d{1,2})\s{2,}(\d(?:,\s*\d)*,?)\s{2,}([ABCD](?:,\s*[ABCD])*)\s{2,}(\S.*)$")
_CONT = re.compile(r"^\s{4,}(\d(?:,\s*\d)*,?)?(\s{2,}(\S.*))?$")
_GOAL = re.compile(r"^\s{6}SG (\d): (.*)$")


def nhtsa(report: Path) -> dict[str, tuple[str, list[Req]]]:
    """Goals from section 9.1, FSRs from Tables 30-37, ASRs from Tables 38-44 (rows: ID, SG list, ASIL, text)."""
    lines = report.read_text(encoding="utf-8").splitlines()
    goals: list[Req] = []
    for i, line in enumerate(lines):
        m = _GOAL.match(line)
        if m and not any(g.id == f"SG-{m.group(1)}" for g in goals):
            text = m.group(2)
            for nxt in lines[i + 1:i + 4]:
                if not nxt.strip() or nxt.strip().startswith("•"):
                    break
                text += " " + nxt.strip()
            statement = re.sub(r"\s+in accordance with .*$", "", text).strip().rstrip(".")
            asil = "D" if "ASIL D" in text else "B"
            goals.append(Req(f"SG-{m.group(1)}", _title(statement), statement + ".", asil=asil))
    reqs: dict[str, list[Req]] = {"FSR": [], "ASR": []}
    kind, current, in_note = "", None, False
    for line in lines:
        head = re.match(r"^\s*Table (\d\d)\. .*(Functional|Additional) Safety Requirements\s*$", line)
        if head:
            kind = "FSR" if head.group(2) == "Functional" else "ASR"
            continue
        if re.match(r"^\s*(Architectural Strategies|9\.\d\.\d|10\s)", line):
            current = None
        if not kind:
            continue
        if re.match(r"^\d+\s+[A-Z]", line) and not _ROW.match(line):  # a new numbered section ends the tables
            if line.startswith("10"):
                kind = ""
            current = None
            continue
        m = _ROW.match(line)
        if m:
            text = re.split(r"\s{3,}●", m.group(4))[0].strip()
            sgs = [f"SG-{s}" for s in re.findall(r"\d", m.group(2))]
            asil = max(re.findall(r"[ABCD]", m.group(3)))
            current = Req(f"{kind}-{m.group(1)}", "", text, sgs, asil)
            reqs[kind].append(current)
            in_note = False
            continue
        if current is None:
            continue
        c = _CONT.match(line)
        if not c or not line.strip():
            continue
        if c.group(1):
            current.parents += [f"SG-{s}" for s in re.findall(r"\d", c.group(1))]
        body = re.split(r"\s{3,}●", (c.group(3) or "").strip())[0].strip()
        if body.startswith("•"):
            in_note = True
        if body and not in_note:
            current.statement += " " + body
    for items in reqs.values():
        for r in items:
            r.statement = re.sub(r"\s+", " ", r.statement).strip()
            r.title = _title(r.statement)
            r.parents = list(dict.fromkeys(r.parents))
    return {"safety-goals": ("Safety goals (NHTSA DOT HS 812 573, section 9.1)", goals),
            "functional-safety-requirements": ("Functional safety requirements (Tables 30-37)", reqs["FSR"]),
            "additional-safety-requirements": ("Additional safety requirements (Tables 38-44)", reqs["ASR"])}


# -- EasyClinic (CoEST TraceLab benchmark) ----------------------------------------------------------------
def _artifacts(xml: bytes) -> dict[str, str]:
    root = ET.fromstring(xml.decode("utf-8-sig"))
    return {a.findtext("id", "").strip(): re.sub(r"\s+", " ", a.findtext("content", "")).strip()
            for a in root.iter("artifact")}


def _links(xml: bytes) -> list[tuple[str, str]]:
    root = ET.fromstring(xml.decode("utf-8-sig"))
    return [(l.findtext("source_artifact_id", "").strip(), l.findtext("target_artifact_id", "").strip())
            for l in root.iter("link")]


def easyclinic(snapshot: Path) -> dict[str, tuple[str, list[Req]]]:
    base = "Main/Benchmarks/Datasets/EasyClinic_ENG"
    ucs = _artifacts(_git_file(snapshot, f"{base}/use_cases.xml"))
    docs: dict[str, tuple[str, list[Req]]] = {
        "use-cases": ("Use cases", [Req(f"UC-{k}", _title(v), v) for k, v in ucs.items()])}
    for kind, name, matrix, heading in (("IDG", "interaction_diagrams", "UC_ID", "Interaction diagrams"),
                                        ("TST", "test_cases", "UC_TC", "Test cases")):
        arts = _artifacts(_git_file(snapshot, f"{base}/{name}.xml"))
        parents: dict[str, list[str]] = {}
        for src, dst in _links(_git_file(snapshot, f"{base}/trace matrices/{matrix}.xml")):
            if src in ucs:
                parents.setdefault(dst, []).append(f"UC-{src}")
        docs[name.replace("_", "-")] = (heading, [Req(f"{kind}-{k}", _title(v), v, parents.get(k, []))
                                                  for k, v in arts.items()])
    return docs


# -- Dronology prototype workbook ---------------------------------------------------------------------------
def _sheets(xlsx: bytes) -> dict[str, list[list[str]]]:
    """Rows of every sheet of an .xlsx (stdlib only: an .xlsx is zipped XML)."""
    ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
    z = zipfile.ZipFile(BytesIO(xlsx))
    shared = ["".join(t.text or "" for t in si.iter(f"{{{ns['m']}}}t"))
              for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", ns)]
    names = [s.get("name") for s in ET.fromstring(z.read("xl/workbook.xml")).iter(f"{{{ns['m']}}}sheet")]
    out = {}
    for i, name in enumerate(names, start=1):
        rows = []
        for r in ET.fromstring(z.read(f"xl/worksheets/sheet{i}.xml")).iter(f"{{{ns['m']}}}row"):
            vals = []
            for c in r.findall("m:c", ns):
                v = c.find("m:v", ns)
                vals.append("" if v is None else shared[int(v.text)] if c.get("t") == "s" else v.text or "")
            rows.append(vals)
        out[name] = rows
    return out


def dronology(snapshot: Path) -> dict[str, tuple[str, list[Req]]]:
    sheets = _sheets(_git_file(snapshot, "Artifacts_Version07.xlsx"))
    modes = [Req(f"FM-{r[0][1:]}", r[1], f"{r[1]}: {r[2]}") for r in sheets["FMECA"] if len(r) >= 3 and r[0][:1] == "F"]
    known = {m.id for m in modes}
    reqs = []
    for r in sheets["Requirements"][1:]:
        if not r or not r[0].startswith("R") or len(r) < 2:
            continue
        links = [f"FM-{x.strip()[1:]}" for cell in r[3:] for x in cell.split(",") if x.strip().startswith("F")]
        reqs.append(Req(f"DR-{r[0][1:]}", _title(r[1]), r[1], [x for x in links if x in known]))
    return {"fmeca": ("FMECA failure modes", modes), "requirements": ("Requirements", reqs)}


SETS = {
    "nhtsa": (lambda a: nhtsa(Path(a.report)), {"ASR": "safety-requirement"},
              "NHTSA DOT HS 812 573 (public domain)", ROOT / "eval" / "data" / "nhtsa-alc"),
    "easyclinic": (lambda a: easyclinic(Path(a.snapshot)), {"UC": "requirement", "IDG": "requirement", "TST": "requirement"},
                   "EasyClinic (CoEST TraceLab benchmark datasets)", DATA / "easyclinic"),
    "dronology": (lambda a: dronology(Path(a.snapshot)), {"FM": "hazard", "DR": "requirement"},
                  "Dronology prototype artefacts (JaneClelandHuang/Dronology)", DATA / "dronology"),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set", choices=sorted(SETS))
    ap.add_argument("--snapshot", help="git directory or checkout of the source repository")
    ap.add_argument("--report", default=str(ROOT / "corpora" / "nhtsa-dot-hs-812-573-alc" / "alc_report.txt"))
    ap.add_argument("--out", help="workspace directory to write")
    args = ap.parse_args(argv)
    convert, kinds, source, default_out = SETS[args.set]
    if args.set != "nhtsa" and not args.snapshot:
        ap.error(f"{args.set} needs --snapshot")
    docs = convert(args)
    out = Path(args.out) if args.out else default_out
    write_workspace(out, docs, kinds, source)
    links = sum(len(r.parents) for _, reqs in docs.values() for r in reqs)
    print(f"{args.set}: {sum(len(r) for _, r in docs.values())} items, {links} links -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
