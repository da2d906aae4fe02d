"""Cross-check the ISO 26262:2018 entries of the clause catalogue against a public clause list of that edition.

The reference is the structure data of the standards-atlas project (github.com/shetze/standards-atlas,
``data/ISO26262``, LGPL-3.0-only): clause numbers and titles of all twelve parts of ISO 26262:2018. Nothing of
it is copied into safereq: this script reads it from a snapshot at run time and compares. What it writes is our
own list of the catalogue's clause numbers that it found in the reference
(``corpora/catalogue/confirmed/iso-26262-2018.txt``), which ``tests/knowledge/test_catalogue_data.py`` and the
catalogue loader use.

Usage:
    python scripts/check_catalogue.py [--snapshot /work/.mirror/shetze+standards-atlas/repo] [--write]

Without ``--write`` it only prints the differences: numbers the reference lacks, and titles that differ (after
folding case, punctuation and white space). Requirement paragraphs (x.y.z.n) have no title in the standard; the
catalogue's own titles for them (``title_is_ours``) name a subject the reference cannot confirm, so they stay
unconfirmed, as do tables (not in the reference).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "corpora" / "catalogue"
CONFIRMED = CATALOGUE / "confirmed" / "iso-26262-2018.txt"
SNAPSHOT = Path("/work/.mirror/shetze+standards-atlas/repo")
_TOC = re.compile(r"^TOC;[0-9a-f]{32};ISO 26262-(\d+):2018 (\S+);([^;]*);")
# Titles the reference misspells (a letter dropped, swapped or changed); checked by hand, ours are right.
REFERENCE_TYPOS = {("2", "5.4.3"), ("6", "6.4"), ("8", "4.5"), ("8", "6"), ("8", "6.4.1")}


def reference(snapshot: Path) -> dict[tuple[str, str], str]:
    """(part, clause) -> title of the reference list, read from the snapshot's git directory or checkout."""
    if (snapshot / "data" / "ISO26262").is_file():
        text = (snapshot / "data" / "ISO26262").read_text(encoding="utf-8")
    else:
        text = subprocess.run(["git", "--git-dir", str(snapshot), "show", "HEAD:data/ISO26262"],
                              check=True, capture_output=True, text=True).stdout
    out: dict[tuple[str, str], str] = {}
    for line in text.splitlines():
        if m := _TOC.match(line):
            out[(m.group(1), m.group(2))] = m.group(3).strip()
    return out


def _fold(title: str) -> str:
    return re.sub(r"[^0-9a-z]+", " ", title.lower().replace("&", " and ")).strip()


def catalogue_entries() -> list[tuple[str, str, str, bool]]:
    """(part, clause, title, title_is_ours) for every ISO 26262 entry of the catalogue."""
    out = []
    for path in sorted(CATALOGUE.glob("iso-26262-*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        part = data["document"].rsplit("-", 1)[1]
        for e in data["clauses"]:
            out.append((part, str(e["clause"]), str(e["title"]), bool(e.get("title_is_ours"))))
    return out


def compare(ref: dict[tuple[str, str], str]) -> tuple[list[str], list[str], list[str]]:
    """Confirmed ids, numbers missing from the reference, and title differences."""
    confirmed, missing, titles = [], [], []
    for part, clause, title, ours in catalogue_entries():
        if clause.startswith("Table"):
            continue
        annex = re.match(r"^Annex ([A-Z])$", clause)
        ref_title = ref.get((part, annex.group(1) if annex else clause))
        if ref_title is None:
            missing.append(f"ISO 26262-{part} {clause}: {title}")
            continue
        if ours:
            continue  # a requirement paragraph: the number exists, but the subject we gave it is unchecked
        if ref_title != "REQUIREMENT" and _fold(ref_title) != _fold(title) and (part, clause) not in REFERENCE_TYPOS:
            titles.append(f"ISO 26262-{part} {clause}: ours {title!r}, edition {ref_title!r}")
            continue
        confirmed.append(f"ISO 26262-{part}:2018 {clause}")
    return confirmed, missing, titles


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--snapshot", type=Path, default=SNAPSHOT)
    ap.add_argument("--write", action="store_true", help="write the confirmed list")
    args = ap.parse_args(argv)
    if not args.snapshot.exists():
        print(f"no snapshot at {args.snapshot}", file=sys.stderr)
        return 2
    confirmed, missing, titles = compare(reference(args.snapshot))
    for line in missing:
        print("not in the 2018 clause list:", line)
    for line in titles:
        print("title differs:", line)
    print(f"{len(confirmed)} confirmed, {len(missing)} numbers not found, {len(titles)} titles differ")
    if args.write:
        CONFIRMED.parent.mkdir(parents=True, exist_ok=True)
        header = ("# ISO 26262:2018 clause numbers of the safereq catalogue confirmed (number and, where the\n"
                  "# edition has one, title) against a public clause list of the edition; see ../README.md.\n"
                  "# Written by scripts/check_catalogue.py --write. One 'document:edition clause' a line.\n")
        CONFIRMED.write_text(header + "".join(f"{k}\n" for k in confirmed), encoding="utf-8")
    return 1 if missing or titles else 0


if __name__ == "__main__":
    sys.exit(main())
