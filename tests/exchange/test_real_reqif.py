"""Import the anonymized ReqIF files of real tools (DOORS, Polarion, ReqIF Studio, Enterprise Architect,
Capella, Eclipse RMF) that the ``reqif`` project publishes in its test data.

The files are read from a snapshot of that repository and are not part of safereq (they were given to that
project by its users; their licence for redistribution is not clear). Point ``SAFEREQ_REQIF_SAMPLES`` at a
checkout of github.com/strictdoc-project/reqif, or at a bare clone; the test skips when neither is there.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from safereq.cli.main import main

from .conftest import records_of

DEFAULT = "/work/.mirror/strictdoc-project+reqif/repo"
FOLDERS = ("tests/integration/reqif_software", "tests/integration/examples")


def _samples(tmp: Path) -> list[Path]:
    root = Path(os.environ.get("SAFEREQ_REQIF_SAMPLES", DEFAULT))
    if (root / "tests").is_dir():  # a checkout
        return sorted(p for f in FOLDERS for p in (root / f).rglob("*.reqif*"))
    if not (root / "HEAD").is_file():
        return []
    names = subprocess.run(["git", "-C", str(root), "ls-tree", "-r", "--name-only", "HEAD", *FOLDERS],
                           capture_output=True, text=True, check=True).stdout.split()
    out = []
    for name in names:
        if name.endswith((".reqif", ".reqifz")):
            target = tmp / name.replace("tests/integration/", "").replace("/", "__")
            target.write_bytes(subprocess.run(["git", "-C", str(root), "show", f"HEAD:{name}"],
                                              capture_output=True, check=True).stdout)
            out.append(target)
    return out


@pytest.fixture(scope="module")
def samples(tmp_path_factory) -> list[Path]:
    found = _samples(tmp_path_factory.mktemp("reqif-samples"))
    if not found:
        pytest.skip("no snapshot of the reqif project's test data (set SAFEREQ_REQIF_SAMPLES)")
    return found


def test_every_real_tool_sample_imports_into_documents_safereq_reads(samples, tmp_path, capsys):
    from reqif.parser import ReqIFParser, ReqIFZParser

    tools = {p.name.split("__")[1] for p in samples if p.name.startswith("reqif_software__")}
    assert {"Doors", "Polarion", "ReqIF_Studio"} <= tools
    for number, sample in enumerate(samples):
        out = tmp_path / str(number)
        status = main(["import", str(sample), "-o", str(out)])
        err = capsys.readouterr().err
        assert status == 0, f"{sample.name}: {err}"
        assert "Traceback" not in err and "internal error" not in err
        if sample.suffix == ".reqifz":
            bundles = list(ReqIFZParser.parse(str(sample)).reqif_bundles.values())
        else:
            bundles = [ReqIFParser.parse(str(sample))]
        objects = sum(len(b.core_content.req_if_content.spec_objects or []) for b in bundles)
        records = records_of([out]) if out.exists() else []
        # Every spec object is an item or a chapter heading; none is lost, and every ID is unique. A
        # specification of headings only (a DOORS module's outline) is named on standard error.
        assert len(records) <= objects, sample.name
        assert records or "no items" in err, sample.name
        assert len({r.id for r in records}) == len(records), sample.name
        assert f"imported {len(records)} items" in err, sample.name


def test_polarion_sample_keeps_text_and_structure(samples, tmp_path, capsys):
    from reqif.parser import ReqIFParser

    (sample,) = [p for p in samples if p.name.startswith("reqif_software__Polarion__01")]
    content = ReqIFParser.parse(str(sample)).core_content.req_if_content
    heading_types = {t.identifier for t in content.spec_types if (t.long_name or "").casefold() == "heading"}
    names = {d.identifier: d.long_name for t in content.spec_types for d in (getattr(t, "attribute_definitions", None) or [])}

    def is_heading(spec_object) -> bool:  # a "Heading" object, or one with a chapter name and no text (the title)
        values = {names.get(a.definition_ref): a.value for a in spec_object.attributes}
        return spec_object.spec_object_type in heading_types or (
            bool(values.get("ReqIF.ChapterName")) and not values.get("ReqIF.Text"))

    headings = sum(1 for o in content.spec_objects if is_heading(o))
    assert main(["import", str(sample), "-o", str(tmp_path)]) == 0
    capsys.readouterr()
    records = records_of([tmp_path])
    # Polarion's headings become chapter headings, every other object an item with its text.
    assert headings > 0 and len(records) == len(content.spec_objects) - headings
    assert sum(1 for r in records if r.text.strip()) > len(records) // 2
    assert sum(1 for r in records if r.chapters) > len(records) // 2
