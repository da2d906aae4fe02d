"""A generated, standard-like PDF for indexing benchmarks: numbered clauses, requirement tables, some Chinese.

The text is our own: sentences assembled deterministically (seeded) from a small safety-engineering
vocabulary, so the benchmark needs no licensed document and gives the same file on every machine. Each page
carries a clause heading ("7.4.12 Verification of the software unit design"), two or three paragraphs,
and every fourth page a small table of requirement IDs and ASILs; every tenth page has a paragraph in
Chinese (rendered with a CJK system font when one is installed, left out otherwise).

    .venv/bin/python benchmarks/knowledge/standard_pdf.py OUT.pdf [--pages 1000]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

SUBJECTS = ["the item", "the system", "the software unit", "the hardware element", "the safety mechanism",
            "the supplier", "the verification report", "the safety case", "the technical safety concept",
            "each safety requirement", "the integration test", "the diagnostic coverage", "the safety plan"]
VERBS = ["shall specify", "shall verify", "shall document", "shall justify", "shall allocate", "shall detect",
         "shall be reviewed against", "shall be traceable to", "shall be consistent with", "shall mitigate"]
OBJECTS = ["the safety goals", "the hazardous events", "random hardware faults", "systematic faults",
           "the freedom from interference", "the fault tolerant time interval", "the safe state",
           "the operating modes", "the warning and degradation concept", "the dependent failures",
           "the confirmation measures", "the tool confidence level", "the configuration data",
           "the calibration parameters", "the latent fault metric", "the single-point fault metric"]
TAILS = ["before the start of production", "for each ASIL", "with sufficient independence",
         "in accordance with the safety plan", "at the system level", "for every operating mode",
         "using the methods listed in the table", "so that the residual risk is acceptable", ""]
TITLES = ["General", "Objectives", "Prerequisites", "Requirements and recommendations", "Work products",
          "Verification of the software unit design", "Hardware architectural metrics",
          "Safety analyses", "Dependent failure analysis", "Confirmation review", "Tool qualification",
          "Specification of the technical safety requirements", "Integration and testing",
          "Safety validation", "Production and operation", "Interfaces within distributed developments"]
CHINESE = ["功能安全要求应分配给系统架构中的各个要素。", "应验证安全机制能够在故障容错时间间隔内检测到故障。",
           "软件单元的设计应与技术安全概念保持一致。", "应对相关失效进行分析，以证明免于干扰。",
           "每个安全目标应具有相应的汽车安全完整性等级。"]
CJK_FONTS = ["/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/truetype/arphic/uming.ttc"]
LATIN_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def sentence(rng: random.Random) -> str:
    tail = rng.choice(TAILS)
    return f"{rng.choice(SUBJECTS).capitalize()} {rng.choice(VERBS)} {rng.choice(OBJECTS)}{' ' + tail if tail else ''}."


FRONT = ["1", "2", "3"]  # Scope, Normative references, Terms: a part starts at clause 1, as real ones do


def clause_numbers(pages: int) -> list[str]:
    """One clause per page, numbered like a standard: 1, 2, 3, then 4.1.1 … 4.1.6, 4.2.1, … 4.8.6, 5.1.1, …

    Each page's paragraphs are numbered below its clause (4.1.1.1, 4.1.1.2), so a page's clause is a leaf and
    no paragraph number collides with the next page's clause. Starting at 1 matters: the structure detector
    accepts a first heading only if it plausibly opens a document, so a PDF that began at 4.1 (as this one
    did) got no clause numbers at all.
    """
    out: list[str] = FRONT[:pages]
    major, minor, sub = 4, 1, 1
    while len(out) < pages:
        out.append(f"{major}.{minor}.{sub}")
        sub += 1
        if sub > 6:
            sub, minor = 1, minor + 1
        if minor > 8:
            major, minor = major + 1, 1
    return out


def write_standard_pdf(out: Path, pages: int = 1000, seed: int = 26262) -> dict:
    """Write the PDF; returns what it holds (pages, clauses, whether Chinese text is in it)."""
    from fpdf import FPDF

    rng = random.Random(seed)
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    latin = "Helvetica"
    if Path(LATIN_FONT).exists():
        pdf.add_font("body", fname=LATIN_FONT)
        latin = "body"
    cjk = next((f for f in CJK_FONTS if Path(f).exists()), None)
    if cjk:
        pdf.add_font("cjk", fname=cjk)
    for n, clause in enumerate(clause_numbers(pages), start=1):
        pdf.add_page()
        pdf.set_font(latin, size=8)
        pdf.cell(0, 6, "Road vehicles - Functional safety (generated) - Part 6", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(latin, size=12)
        pdf.cell(0, 9, f"{clause} {rng.choice(TITLES)}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(latin, size=10)
        for p in range(rng.randint(2, 3)):
            pdf.multi_cell(0, 5, f"{clause}.{p + 1} " + " ".join(sentence(rng) for _ in range(rng.randint(3, 5))),
                           new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        if n % 4 == 0:
            with pdf.table(col_widths=(30, 120, 20), line_height=5, first_row_as_headings=False) as table:
                for row in [("ID", "Requirement", "ASIL")] + [
                        (f"SR-{n}-{i}", sentence(rng), rng.choice("ABCD")) for i in range(3)]:
                    cells = table.row()
                    for value in row:
                        cells.cell(value)
        if n % 10 == 0 and cjk:
            pdf.set_font("cjk", size=10)
            pdf.multi_cell(0, 5, "".join(rng.sample(CHINESE, 3)), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(latin, size=8)
        pdf.set_y(-15)
        pdf.cell(0, 6, f"Page {n}", align="C")
    pdf.output(str(out))
    return {"pages": pages, "chinese": bool(cjk), "bytes": out.stat().st_size}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--pages", type=int, default=1000)
    args = ap.parse_args()
    print(write_standard_pdf(args.out, args.pages))


if __name__ == "__main__":
    main()
