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
  dronology-fmeca  the early Dronology prototype's artefact workbook (github.com/JaneClelandHuang/Dronology,
              Artifacts_Version07.xlsx): FMECA failure modes (FM, declared as hazards) and the requirements
              (DR) its authors linked to them. Workspace to eval/.data/.
  cm1, gannt, modis, warc, dronology, cchit
              the requirement-to-requirement sets of the CoEST collection as the REFSQ 2025 replication package
              of Hey et al., "Requirements Traceability Link Recovery via Retrieval-Augmented Generation"
              (github.com/ArDoCo/ReplicationPackage-REFSQ25_Requirements-TLR-via-RAG, datasets/req2req/<set>)
              ships them: high-level requirements (parents) and the low-level requirements or design items
              (children) their authors traced to them. Every item is one kind, ``REQ``, in two documents
              (high-level.md, low-level.md), as in a project that names all its requirements alike: the
              ranking has to find the parent document from the workspace's links, not from the kind.

Usage:
    python eval/agent/link_sets.py nhtsa [--out eval/data/nhtsa-alc]
    python eval/agent/link_sets.py easyclinic --snapshot /work/.mirror/CoEST+TraceLab/repo
    python eval/agent/link_sets.py dronology-fmeca --snapshot /work/.mirror/JaneClelandHuang+Dronology/repo
    python eval/agent/link_sets.py cm1 --snapshot /work/.mirror/ArDoCo+ReplicationPackage-REFSQ25_Requirements-TLR-via-RAG/repo
    python eval/agent/link_sets.py all    (every set whose snapshot is in /work/.mirror; others are listed as missing)

A snapshot is a git directory (as the mirror keeps them: no work tree) or a checkout.
"""

from __future__ import annotations

import argparse
import json
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


# -- CoEST requirement-to-requirement sets (REFSQ 2025 replication package) -------------------------------
REQ2REQ = {"cm1": "CM1-NASA", "gannt": "GANNT", "modis": "ModisDataset", "warc": "WARC", "dronology": "dronology",
           "cchit": "CCHIT"}


def _decode(raw: bytes) -> str:
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return raw.decode("utf-16")
    for enc in ("utf-8-sig", "cp1252"):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


def _safe_id(raw: str) -> str:
    """A safereq ID for an artefact name (``SRS5.12.2.1`` -> ``REQ-SRS5.12.2.1``, ``d1_1`` -> ``REQ-D1_1``)."""
    stem = re.sub(r"\.txt$", "", raw.strip(), flags=re.I)
    return "REQ-" + re.sub(r"[^A-Z0-9._-]+", "-", stem.upper()).strip("-._")


def _list_dir(snapshot: Path, path: str) -> list[str]:
    direct = snapshot / path
    if direct.is_dir():
        return sorted(p.name for p in direct.iterdir() if p.is_file())
    out = subprocess.run(["git", "--git-dir", str(snapshot), "ls-tree", "--name-only", f"HEAD:{path}"], check=True,
                         capture_output=True, text=True).stdout
    return sorted(line for line in out.splitlines() if line)


def req2req(snapshot: Path, name: str) -> dict[str, tuple[str, list[Req]]]:
    """high/ and low/ (one artefact per file, a first line as title where the set has one) and answer.csv
    (high,low per line) of one set of the replication package."""
    base = f"datasets/req2req/{REQ2REQ[name]}"
    parents: dict[str, list[str]] = {}
    for line in _decode(_git_file(snapshot, f"{base}/answer.csv")).splitlines()[1:]:
        cells = [c.strip() for c in line.split(",")]
        if len(cells) >= 2 and cells[0] and cells[1]:
            parents.setdefault(_safe_id(cells[1]), []).append(_safe_id(cells[0]))

    def read(folder: str, links: bool) -> list[Req]:
        out = []
        for file in _list_dir(snapshot, f"{base}/{folder}"):
            text = _decode(_git_file(snapshot, f"{base}/{folder}/{file}")).strip()
            if not text:
                continue
            head, _, rest = text.partition("\n")
            title, body = (head.strip(), rest.strip()) if rest.strip() and len(head) < 90 else ("", text)
            body = re.sub(r"\s+", " ", body)
            rid = _safe_id(file)
            out.append(Req(rid, _title(title or body), body, parents.get(rid, []) if links else []))
        return out

    high = read("high", False)
    return {"high-level": ("High-level requirements", high),
            "low-level": ("Low-level requirements", read("low", True))}


# -- process statements traced to ISO 26262 clauses (Taktflow zonal vehicle platform) ----------------------
_CITE = re.compile(r"\s*\(?(?:[Pp]er|according to|in accordance with|as required by)?\s*ISO 26262-(\d+)(?::2018)?,?\s*"
                   r"(?:Clause|Section|§)?\s*(\d+)((?:\.\d+)*)\)?")
# The authors cite some clauses by the 2011 edition's numbers: part 3's clause 7 (HARA) and 8 (functional
# safety concept) are clauses 6 and 7 in 2018, part 4's clause 7 (the hardware-software interface, then part
# of system design) and 9 (safety validation) are clauses 6 and 8. Citations that fit neither edition's clause
# on the topic the paragraph is about (a DIA under part 8 clause 12, the safety case under part 2 clause 7)
# are left out rather than corrected by us.
_EDITION_2011 = {("3", "7"): "6", ("3", "8"): "7", ("4", "7"): "6", ("4", "9"): "8"}
_NOT_2018 = {("8", "12", "dia"), ("8", "12", "development interface"), ("2", "7", "safety case"),
             ("2", "7", "structured argument")}


def taktflow_clauses(snapshot: Path) -> tuple[dict[str, tuple[str, list[Req]]], dict[str, list[str]]]:
    """Paragraphs of the Taktflow safety and process documents that cite an ISO 26262 clause for what they
    describe, the citation removed from the text; gold: that part and top-level clause, 2018 numbering."""
    files = [f for f in _list_dir_recursive(snapshot, "docs") if f.endswith(".md")]
    reqs, gold, seen = [], {}, set()
    for path in files:
        for para in _decode(_git_file(snapshot, path)).split("\n"):
            line = para.strip()
            if not line or line.startswith(("|", "#", "<!--", ">")) or "HITL Review" in line or '"' in line:
                continue
            cites = list(_CITE.finditer(line))
            if not cites or re.search(r"Table \d", line):
                continue
            part, top = cites[0].group(1), cites[0].group(2)
            low = line.lower()
            if any(p == part and c == top and w in low for p, c, w in _NOT_2018):
                continue
            top = _EDITION_2011.get((part, top), top)
            text = re.sub(r"\s+", " ", _CITE.sub(" ", line)).replace(" ,", ",").replace(" .", ".").strip(" :,*-")
            text = re.sub(r"^\d+\.\s*", "", re.sub(r"\*\*", "", text))
            if len(text.split()) < 8 or text in seen:
                continue
            seen.add(text)
            rid = f"REQ-{len(reqs) + 1}"
            reqs.append(Req(rid, _title(text), text))
            gold[rid] = [f"ISO 26262-{part} {top}"]
    return {"process": ("Process and safety-activity statements (Taktflow docs)", reqs)}, gold


def _list_dir_recursive(snapshot: Path, path: str) -> list[str]:
    out = subprocess.run(["git", "--git-dir", str(snapshot), "ls-tree", "-r", "--name-only", "HEAD", path],
                         check=True, capture_output=True, text=True).stdout
    return sorted(line for line in out.splitlines() if line)


SETS = {
    "nhtsa": (lambda a: nhtsa(Path(a.report)), {"ASR": "safety-requirement"},
              "NHTSA DOT HS 812 573 (public domain)", ROOT / "eval" / "data" / "nhtsa-alc"),
    "easyclinic": (lambda a: easyclinic(Path(a.snapshot)), {"UC": "requirement", "IDG": "requirement", "TST": "requirement"},
                   "EasyClinic (CoEST TraceLab benchmark datasets)", DATA / "easyclinic"),
    "dronology-fmeca": (lambda a: dronology(Path(a.snapshot)), {"FM": "hazard", "DR": "requirement"},
                        "Dronology prototype artefacts (JaneClelandHuang/Dronology)", DATA / "dronology-fmeca"),
    **{name: ((lambda a, name=name: req2req(Path(a.snapshot), name)), {"REQ": "requirement"},
              f"CoEST {folder} (ArDoCo REFSQ 2025 replication package, datasets/req2req/{folder})", DATA / name)
       for name, folder in REQ2REQ.items()},
    "taktflow-clauses": (lambda a: taktflow_clauses(Path(a.snapshot)), {"REQ": "requirement"},
                         "Taktflow zonal vehicle platform docs (nhuvaoanh123/taktflow-embedded)",
                         DATA / "taktflow-clauses"),
}
MIRROR = Path("/work/.mirror")
SNAPSHOTS = {"easyclinic": MIRROR / "CoEST+TraceLab" / "repo",
             "dronology-fmeca": MIRROR / "JaneClelandHuang+Dronology" / "repo",
             **{name: MIRROR / "ArDoCo+ReplicationPackage-REFSQ25_Requirements-TLR-via-RAG" / "repo"
                for name in REQ2REQ},
             "taktflow-clauses": MIRROR / "nhuvaoanh123+taktflow-embedded" / "repo"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set", choices=sorted(SETS) + ["all"])
    ap.add_argument("--snapshot", help="git directory or checkout of the source repository")
    ap.add_argument("--report", default=str(ROOT / "corpora" / "nhtsa-dot-hs-812-573-alc" / "alc_report.txt"))
    ap.add_argument("--out", help="workspace directory to write")
    args = ap.parse_args(argv)
    if args.set == "all":
        for name in SETS:
            snap = SNAPSHOTS.get(name)
            if snap is not None and not snap.exists():
                print(f"{name}: missing snapshot {snap}")
                continue
            main([name, *(["--snapshot", str(snap)] if snap else [])])
        return 0
    convert, kinds, source, default_out = SETS[args.set]
    if args.set != "nhtsa" and not args.snapshot:
        ap.error(f"{args.set} needs --snapshot")
    docs = convert(args)
    gold = None
    if isinstance(docs, tuple):  # a clause set: its gold clauses go beside the workspace
        docs, gold = docs
    out = Path(args.out) if args.out else default_out
    write_workspace(out, docs, kinds, source)
    if gold is not None:
        (out / "gold-clauses.json").write_text(json.dumps(gold, indent=1), encoding="utf-8")
    links = sum(len(r.parents) for _, reqs in docs.values() for r in reqs)
    print(f"{args.set}: {sum(len(r) for _, r in docs.values())} items, {links} links -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
