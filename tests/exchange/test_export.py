"""``safereq export``: each format, read back by the tool it is for (reqif and its XSD, lobster-report,
Sphinx with sphinx-needs), plus the JSON and CSV field sets."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from safereq.cli.main import main

BIN = Path(sys.executable).parent


def export(capsysbinary, *args: str) -> tuple[int, bytes, str]:
    status = main(["export", *args])
    captured = capsysbinary.readouterr()
    return status, captured.out, captured.err.decode("utf-8")


def test_json_has_every_item_with_attributes_and_links(wiper, capsysbinary):
    status, out, _err = export(capsysbinary, "wiper", "--to", "json")
    assert status == 0
    body = json.loads(out)
    assert body["schema"] == "safereq-export" and body["version"] == 1
    items = {i["id"]: i for i in body["items"]}
    assert set(items) == {"HE-10", "HE-11", "SG-10", "FSR-10", "FSR-11", "TC-10", "FSR-ZH-1"}
    assert items["FSR-11"]["links"] == {"derived-from": ["SG-10", "SG-99"]}
    assert items["FSR-11"]["attributes"]["allocated-to"] == "body controller"
    assert items["FSR-10"]["document"] == "wiper/fsr.md" and items["FSR-10"]["line"] == 7
    assert items["SG-10"]["category"] == "safety-goal"


def test_csv_has_a_column_per_attribute_and_link_key(wiper, capsysbinary):
    status, out, _err = export(capsysbinary, "wiper", "--to", "csv")
    assert status == 0
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(out.decode("utf-8")))}
    assert rows["FSR-11"]["derived-from"] == "SG-10, SG-99"
    assert rows["HE-10"]["safety-goal"] == "SG-10" and rows["HE-10"]["severity"] == "S2"
    assert "\n\n" in rows["FSR-10"]["text"]  # paragraphs kept inside the quoted cell
    assert rows["FSR-10"]["chapter"] == "Rain detection"


def _reqif_schema():
    import reqif
    import xmlschema

    package = Path(reqif.__file__).parent
    old = os.getcwd()
    os.chdir(package.parent)  # the schema imports its XHTML modules by relative paths
    try:
        return xmlschema.XMLSchema(str(package / "reqif_schema" / "reqif.xsd"))
    finally:
        os.chdir(old)


def test_reqif_is_valid_against_the_reqif_schema_and_parses(wiper, tmp_path, capsysbinary):
    from reqif.parser import ReqIFParser

    target = tmp_path / "out.reqif"
    status, _out, err = export(capsysbinary, "wiper", "--to", "reqif", "-o", str(target))
    assert status == 0 and "exported 7 items" in err
    errors = list(_reqif_schema().iter_errors(str(target)))
    assert not errors, str(errors[0])[:800]
    bundle = ReqIFParser.parse(str(target))
    assert not bundle.exceptions
    content = bundle.core_content.req_if_content
    names = {d.identifier: d.long_name for t in content.spec_types for d in (getattr(t, "attribute_definitions", None) or [])}
    assert {"ReqIF.ForeignID", "ReqIF.Name", "ReqIF.Text", "ReqIF.ChapterName", "ASIL"} <= set(names.values())
    objects = {o.identifier: o for o in content.spec_objects}
    fsr = objects["safereq.FSR-10"]
    values = {names[a.definition_ref]: a.value for a in fsr.attributes}
    assert values["ReqIF.ForeignID"] == "FSR-10" and values["ASIL"] == "A"
    assert "<xhtml:br" in values["ReqIF.Text"] and values["ReqIF.Text"].count("<xhtml:p>") == 3
    relation_types = {t.identifier: t.long_name for t in content.spec_types if type(t).__name__ == "ReqIFSpecRelationType"}
    links = {(r.source, relation_types[r.relation_type_ref], r.target) for r in content.spec_relations}
    assert ("safereq.FSR-10", "Derived from", "safereq.SG-10") in links
    assert ("safereq.HE-10", "Safety goal", "safereq.SG-10") in links
    # The dangling SG-99 cannot be a relation: it is kept as an attribute.
    assert {names[a.definition_ref]: a.value for a in objects["safereq.FSR-11"].attributes}[
        "safereq.UnresolvedLinks"] == "derived-from: SG-99"
    # Chapters are spec objects with ReqIF.ChapterName, parents of their items in the hierarchy.
    (spec,) = [s for s in content.specifications if s.long_name.startswith("Functional safety")]
    (chapter, _motor) = spec.children
    assert {names[a.definition_ref]: a.value for a in objects[chapter.spec_object].attributes} == {
        "ReqIF.ChapterName": "Rain detection"}
    assert [c.spec_object for c in chapter.children] == ["safereq.FSR-10"]


def test_reqif_identifiers_are_stable_across_exports(wiper, tmp_path, capsysbinary):
    import re

    first, second = tmp_path / "a.reqif", tmp_path / "b.reqif"
    export(capsysbinary, "wiper", "--to", "reqif", "-o", str(first))
    export(capsysbinary, "wiper", "--to", "reqif", "-o", str(second))
    strip = lambda p: re.sub(r'(LAST-CHANGE="|<CREATION-TIME>)[^"<]*', "", p.read_text(encoding="utf-8"))
    assert strip(first) == strip(second)


def test_reqifz_is_a_zip_with_the_reqif_inside(wiper, tmp_path, capsysbinary):
    from reqif.parser import ReqIFZParser

    target = tmp_path / "out.reqifz"
    assert export(capsysbinary, "wiper", "--to", "reqifz", "-o", str(target))[0] == 0
    assert zipfile.ZipFile(target).namelist() == ["requirements.reqif"]
    bundle = ReqIFZParser.parse(str(target))
    (inner,) = bundle.reqif_bundles.values()
    assert len(inner.core_content.req_if_content.spec_objects) == 7 + 2  # items and two chapters


def test_lobster_report_accepts_the_lobster_file(wiper, tmp_path, capsysbinary):
    target = tmp_path / "safereq.lobster"
    assert export(capsysbinary, "wiper", "--to", "lobster", "-o", str(target))[0] == 0
    data = json.loads(target.read_text(encoding="utf-8"))
    assert (data["schema"], data["version"]) == ("lobster-req-trace", 4)
    by_tag = {item["tag"]: item for item in data["data"]}
    assert by_tag["req FSR-10"]["refs"] == ["req SG-10"]
    assert by_tag["req SG-10"]["refs"] == ["req HE-10"]  # the goal traces up to its hazardous events
    assert by_tag["req TC-10"]["refs"] == ["req FSR-10"]  # a test traces up to what it verifies
    assert "ASIL: A" in by_tag["req FSR-10"]["text"]
    (tmp_path / "lobster.conf").write_text(f'requirements "Safety requirements" {{\n  source: "{target.name}";\n}}\n')
    report = tmp_path / "report.lobster"
    run = subprocess.run([str(BIN / "lobster-report"), "--lobster-config", "lobster.conf", "--out", str(report)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    levels = json.loads(report.read_text(encoding="utf-8"))["levels"]
    items = {i["tag"]: i for i in levels[0]["items"]}
    assert len(items) == 7 and items["req FSR-10"]["ref_up"] == ["req SG-10"]
    # FSR-11 names SG-99, which nothing defines: LOBSTER reports it, as safereq check does.
    assert any("SG-99" in m for m in items["req FSR-11"]["messages"])


SPHINX_CONF = """\
project = "wiper"
extensions = ["sphinx_needs"]
needs_types = [dict(directive=t.lower(), title=t, prefix=t + "-", color="#BFD8D2", style="node")
               for t in ["HE", "SG", "FSR", "TC"]]
needs_fields = {{name: {{"nullable": True}} for name in {fields!r}}}
needs_links = {{o: {{"incoming": o + " (incoming)", "outgoing": o}}
               for o in ["derived_from", "verified_by", "hazard", "safety_goal"]}}
"""


@pytest.mark.parametrize("how", ["needimport", "external"])
def test_sphinx_needs_builds_the_exported_needs_without_warnings(wiper, tmp_path, capsysbinary, how):
    from safereq.exchange.needs_json import extra_options

    # A dangling link would be a (correct) Sphinx warning: drop it for this build.
    fsr = wiper / "fsr.md"
    fsr.write_text(fsr.read_text(encoding="utf-8").replace("SG-10, SG-99", "SG-10"), encoding="utf-8")
    project = tmp_path / "sphinx"
    project.mkdir()
    assert export(capsysbinary, "wiper", "--to", "needs-json", "-o", str(project / "needs.json"))[0] == 0
    conf = SPHINX_CONF.format(fields=extra_options())
    if how == "external":
        conf += 'needs_external_needs = [{"base_url": "https://example.invalid/req", "json_path": "needs.json"}]\n'
        index = "Wiper\n=====\n\n.. needtable::\n   :columns: id, title, asil, derived_from\n"
    else:
        index = "Wiper\n=====\n\n.. needimport:: needs.json\n"
    conf += "needs_build_json = True\n"  # sphinx-needs writes its own needs.json of the build
    (project / "conf.py").write_text(conf, encoding="utf-8")
    (project / "index.rst").write_text(index, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", ".", "_build"],
                         cwd=project, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    page = (project / "_build" / "index.html").read_text(encoding="utf-8")
    for need_id in ("FSR-10", "SG-10", "HE-10", "FSR-ZH-1"):
        assert need_id in page
    assert "雨量传感器故障检测" in page
    if how == "needimport":
        # The needs.json sphinx-needs wrote (with its own fields added) imports back to the same items.
        from .conftest import comparable, records_of

        status = main(["import", str(project / "_build" / "needs.json"), "-o", str(tmp_path / "back")])
        err = capsysbinary.readouterr().err.decode("utf-8")
        assert status == 0 and "not mapped" not in err, err
        assert comparable(records_of([tmp_path / "back"])) == comparable(records_of([wiper]))


def test_export_of_a_folder_without_documents_is_empty_not_an_error(tmp_path, monkeypatch, capsysbinary):
    monkeypatch.chdir(tmp_path)
    status, out, _err = export(capsysbinary, ".", "--to", "json")
    assert status == 0 and json.loads(out)["items"] == []


def test_export_to_an_unwritable_place_is_a_usage_error(wiper, capsysbinary):
    status, _out, err = export(capsysbinary, "wiper", "--to", "csv", "-o", "no/such/dir/out.csv")
    assert status == 2 and err.startswith("safereq: cannot write no/such/dir/out.csv")


def test_lobster_tools_are_installed():
    assert shutil.which("lobster-report", path=str(BIN)), "install bmw-lobster-core (the dev extra)"
