"""The generated benchmark standard is read with its clause numbers (it once started at 4.1 and got none)."""

import sys
from pathlib import Path

from safereq.knowledge.indexer import chunk_job, path_jobs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "knowledge"))

from standard_pdf import clause_numbers, write_standard_pdf  # noqa: E402


def test_every_page_of_the_generated_standard_gets_its_clause(tmp_path):
    pdf = tmp_path / "standard.pdf"
    write_standard_pdf(pdf, 24)
    jobs, _roots, _problems = path_jobs([pdf], "ISO 26262-6")
    chunks, pages = chunk_job(jobs[0], pdf.read_bytes())
    assert pages == 24
    found: dict[int, set[str]] = {}
    for c in chunks:
        found.setdefault(c.page, set()).add(c.clause)
    for page, clause in enumerate(clause_numbers(24), start=1):
        assert any(x == clause or x.startswith(clause + ".") for x in found.get(page, ())), (page, clause, found.get(page))
    assert not any("Road vehicles" in c.text for c in chunks)  # the running header is dropped
