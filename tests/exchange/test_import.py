"""``safereq import``: round trips through ReqIF, ReqIFz and needs.json give back the same items,
attributes and links; real-tool ReqIF files import; bad input is a message and exit status 2."""

from __future__ import annotations

import json

import pytest

from safereq.cli.main import main

from .conftest import comparable, records_of


def run(capsys, *args: str) -> tuple[int, str]:
    status = main(list(args))
    return status, capsys.readouterr().err


@pytest.mark.parametrize("fmt, name", [("reqif", "x.reqif"), ("reqifz", "x.reqifz"), ("needs-json", "needs.json")])
def test_export_then_import_gives_back_the_same_items(wiper, tmp_path, capsys, fmt, name):
    original = comparable(records_of([wiper]))
    exported = tmp_path / name
    assert run(capsys, "export", "wiper", "--to", fmt, "-o", str(exported))[0] == 0
    status, err = run(capsys, "import", str(exported), "-o", str(tmp_path / "back"))
    assert status == 0, err
    assert "imported 7 items" in err and "not mapped" not in err
    back = comparable(records_of([tmp_path / "back"]))
    assert back == original


def test_reimported_documents_check_like_the_originals(wiper, tmp_path, capsys):
    from safereq.cli.main import main as cli

    assert run(capsys, "export", "wiper", "--to", "reqif", "-o", str(tmp_path / "x.reqif"))[0] == 0
    assert run(capsys, "import", str(tmp_path / "x.reqif"), "-o", str(tmp_path / "back"))[0] == 0
    cli(["check", "--format", "json", "wiper"])
    before = {(f["rule"], f["message"]) for f in json.loads(capsys.readouterr().out)}
    cli(["check", "--format", "json", str(tmp_path / "back")])
    after = {(f["rule"], f["message"]) for f in json.loads(capsys.readouterr().out)}
    assert after == before and ("trace/dangling-link" in {r for r, _m in before})


def test_import_does_not_overwrite_without_force(wiper, tmp_path, capsys):
    exported = tmp_path / "x.reqif"
    run(capsys, "export", "wiper", "--to", "reqif", "-o", str(exported))
    out = tmp_path / "back"
    assert run(capsys, "import", str(exported), "-o", str(out))[0] == 0
    (out / "fsr.md").write_text("my edits\n", encoding="utf-8")
    status, err = run(capsys, "import", str(exported), "-o", str(out))
    assert status == 2 and "would overwrite" in err and "--force" in err
    assert (out / "fsr.md").read_text(encoding="utf-8") == "my edits\n"
    assert run(capsys, "import", str(exported), "-o", str(out), "--force")[0] == 0
    assert (out / "fsr.md").read_text(encoding="utf-8").startswith("# Functional safety requirements")


FOREIGN = """\
<?xml version="1.0" encoding="UTF-8"?>
<REQ-IF xmlns="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd" xmlns:xhtml="http://www.w3.org/1999/xhtml">
 <THE-HEADER><REQ-IF-HEADER IDENTIFIER="h"><CREATION-TIME>2024-01-01T00:00:00Z</CREATION-TIME>
  <REQ-IF-TOOL-ID>t</REQ-IF-TOOL-ID><REQ-IF-VERSION>1.0</REQ-IF-VERSION><SOURCE-TOOL-ID>t</SOURCE-TOOL-ID>
  <TITLE>t</TITLE></REQ-IF-HEADER></THE-HEADER>
 <CORE-CONTENT><REQ-IF-CONTENT>
  <DATATYPES>
   <DATATYPE-DEFINITION-STRING IDENTIFIER="s" LAST-CHANGE="2024-01-01T00:00:00Z" MAX-LENGTH="100"/>
   <DATATYPE-DEFINITION-XHTML IDENTIFIER="x" LAST-CHANGE="2024-01-01T00:00:00Z"/>
   <DATATYPE-DEFINITION-ENUMERATION IDENTIFIER="e" LAST-CHANGE="2024-01-01T00:00:00Z"><SPECIFIED-VALUES>
    <ENUM-VALUE IDENTIFIER="e-b" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="B"><PROPERTIES><EMBEDDED-VALUE KEY="2" OTHER-CONTENT=""/></PROPERTIES></ENUM-VALUE>
   </SPECIFIED-VALUES></DATATYPE-DEFINITION-ENUMERATION>
  </DATATYPES>
  <SPEC-TYPES>
   <SPEC-OBJECT-TYPE IDENTIFIER="ot" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="Requirement"><SPEC-ATTRIBUTES>
    <ATTRIBUTE-DEFINITION-STRING IDENTIFIER="a-id" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="ReqIF.ForeignID"><TYPE><DATATYPE-DEFINITION-STRING-REF>s</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
    <ATTRIBUTE-DEFINITION-XHTML IDENTIFIER="a-text" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="ReqIF.Text"><TYPE><DATATYPE-DEFINITION-XHTML-REF>x</DATATYPE-DEFINITION-XHTML-REF></TYPE></ATTRIBUTE-DEFINITION-XHTML>
    <ATTRIBUTE-DEFINITION-ENUMERATION IDENTIFIER="a-asil" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="ASIL" MULTI-VALUED="false"><TYPE><DATATYPE-DEFINITION-ENUMERATION-REF>e</DATATYPE-DEFINITION-ENUMERATION-REF></TYPE></ATTRIBUTE-DEFINITION-ENUMERATION>
    <ATTRIBUTE-DEFINITION-STRING IDENTIFIER="a-prio" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="Priority"><TYPE><DATATYPE-DEFINITION-STRING-REF>s</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
   </SPEC-ATTRIBUTES></SPEC-OBJECT-TYPE>
   <SPEC-RELATION-TYPE IDENTIFIER="rt" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="Satisfies"/>
   <SPECIFICATION-TYPE IDENTIFIER="st" LAST-CHANGE="2024-01-01T00:00:00Z"/>
  </SPEC-TYPES>
  <SPEC-OBJECTS>
   <SPEC-OBJECT IDENTIFIER="o1" LAST-CHANGE="2024-01-01T00:00:00Z"><VALUES>
    <ATTRIBUTE-VALUE-STRING THE-VALUE="17"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>a-id</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
    <ATTRIBUTE-VALUE-XHTML><DEFINITION><ATTRIBUTE-DEFINITION-XHTML-REF>a-text</ATTRIBUTE-DEFINITION-XHTML-REF></DEFINITION><THE-VALUE><xhtml:div><xhtml:p>The door <xhtml:b>shall</xhtml:b> unlock.</xhtml:p></xhtml:div></THE-VALUE></ATTRIBUTE-VALUE-XHTML>
    <ATTRIBUTE-VALUE-ENUMERATION><DEFINITION><ATTRIBUTE-DEFINITION-ENUMERATION-REF>a-asil</ATTRIBUTE-DEFINITION-ENUMERATION-REF></DEFINITION><VALUES><ENUM-VALUE-REF>e-b</ENUM-VALUE-REF></VALUES></ATTRIBUTE-VALUE-ENUMERATION>
    <ATTRIBUTE-VALUE-STRING THE-VALUE="high"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>a-prio</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
   </VALUES><TYPE><SPEC-OBJECT-TYPE-REF>ot</SPEC-OBJECT-TYPE-REF></TYPE></SPEC-OBJECT>
   <SPEC-OBJECT IDENTIFIER="o2" LAST-CHANGE="2024-01-01T00:00:00Z"><VALUES>
    <ATTRIBUTE-VALUE-STRING THE-VALUE="SG-3"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>a-id</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>
   </VALUES><TYPE><SPEC-OBJECT-TYPE-REF>ot</SPEC-OBJECT-TYPE-REF></TYPE></SPEC-OBJECT>
  </SPEC-OBJECTS>
  <SPEC-RELATIONS>
   <SPEC-RELATION IDENTIFIER="r1" LAST-CHANGE="2024-01-01T00:00:00Z"><SOURCE><SPEC-OBJECT-REF>o1</SPEC-OBJECT-REF></SOURCE><TARGET><SPEC-OBJECT-REF>o2</SPEC-OBJECT-REF></TARGET><TYPE><SPEC-RELATION-TYPE-REF>rt</SPEC-RELATION-TYPE-REF></TYPE></SPEC-RELATION>
  </SPEC-RELATIONS>
  <SPECIFICATIONS>
   <SPECIFICATION IDENTIFIER="sp" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="Door module"><TYPE><SPECIFICATION-TYPE-REF>st</SPECIFICATION-TYPE-REF></TYPE><CHILDREN>
    <SPEC-HIERARCHY IDENTIFIER="h1" LAST-CHANGE="2024-01-01T00:00:00Z"><OBJECT><SPEC-OBJECT-REF>o2</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>
    <SPEC-HIERARCHY IDENTIFIER="h2" LAST-CHANGE="2024-01-01T00:00:00Z"><OBJECT><SPEC-OBJECT-REF>o1</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>
   </CHILDREN></SPECIFICATION>
  </SPECIFICATIONS>
 </REQ-IF-CONTENT></CORE-CONTENT>
</REQ-IF>
"""


def test_a_foreign_file_maps_enumerations_aliases_and_reports_the_rest(tmp_path, capsys):
    source = tmp_path / "door.reqif"
    source.write_text(FOREIGN, encoding="utf-8")
    status, err = run(capsys, "import", str(source), "-o", str(tmp_path / "out"))
    assert status == 0, err
    text = (tmp_path / "out" / "door-module.md").read_text(encoding="utf-8")
    assert "## REQ-17: The door shall unlock." in text
    assert "- ASIL: B" in text and "- Derived from: SG-3" in text  # "Satisfies" is an alias of Derived from
    assert "| Priority | high |" in text and "| ReqIF identifier | o1 |" in text
    assert "'17' is not an ID safereq reads; written as REQ-17" in err
    assert "attribute 'Priority' has no safereq meaning" in err
    (record,) = [r for r in records_of([tmp_path / "out"]) if r.id == "REQ-17"]
    assert record.text == "The door shall unlock." and record.links == {"derived-from": ["SG-3"]}


@pytest.mark.parametrize("name, content, message", [
    ("bad.reqif", "<REQ-IF><unclosed>", "not a readable ReqIF file"),
    ("empty.reqif", "", "Document is empty"),
    ("other.reqif", "<html><body>hello</body></html>", "Expected root tag to be REQ-IF"),
    ("fake.reqifz", "not a zip", "not a ReqIFz archive"),
    ("needs.json", "{\"versions\": ", "not valid JSON"),
    ("other.json", "[1, 2]", "not a sphinx-needs needs.json"),
    ("needs2.json", "{\"versions\": {\"1\": {\"needs\": 3}}}", "has no \"needs\" object"),
])
def test_bad_input_is_a_message_and_exit_2(tmp_path, capsys, name, content, message):
    source = tmp_path / name
    source.write_text(content, encoding="utf-8")
    status, err = run(capsys, "import", str(source), "-o", str(tmp_path / "out"))
    assert status == 2
    assert err.startswith(f"safereq: {source}") and message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_a_missing_file_is_a_message_and_exit_2(tmp_path, capsys):
    status, err = run(capsys, "import", str(tmp_path / "nope.reqif"))
    assert status == 2 and "cannot read" in err


def test_a_foreign_needs_json_gets_ids_safereq_reads(tmp_path, capsys):
    needs = {"current_version": "1.0", "versions": {"1.0": {"needs": {
        "req_1": {"id": "req_1", "type": "req", "title": "Brake light", "content": "The lamp shall light.",
                  "status": "open", "links": [], "priority": "high", "docname": "index"},
        "SPEC_2": {"id": "SPEC_2", "type": "spec", "title": "Lamp driver", "content": "",
                   "links": ["req_1"], "tags": ["hw"]},
    }}}}
    source = tmp_path / "needs.json"
    source.write_text(json.dumps(needs), encoding="utf-8")
    status, err = run(capsys, "import", str(source), "-o", str(tmp_path / "out"))
    assert status == 0, err
    assert "need ID 'req_1' is not an ID safereq reads; written as REQ_1" in err
    assert "tags ['hw'] not mapped" in err and "plain sphinx-needs links" in err
    by_id = {r.id: r for r in records_of([tmp_path / "out"])}
    assert set(by_id) == {"REQ_1", "SPEC_2"}
    assert by_id["SPEC_2"].links == {"derived-from": ["REQ_1"]}
    assert by_id["REQ_1"].attributes == {"status": "open"}
    text = (tmp_path / "out" / "req.md").read_text(encoding="utf-8")
    assert "| priority | high |" in text and "| sphinx-needs id | req_1 |" in text


def test_an_old_needs_json_with_description_instead_of_content_keeps_the_statement(tmp_path, capsys):
    needs = {"versions": {"1.0": {"needs": {
        "FSR-1": {"id": "FSR-1", "type": "req", "title": "Hold", "description": "The brake shall hold."},
        "FSR-2": {"id": "FSR-2", "type": "req", "title": "Both", "content": "Content wins.", "description": "Kept."},
    }}}}
    source = tmp_path / "needs.json"
    source.write_text(json.dumps(needs), encoding="utf-8")
    status, err = run(capsys, "import", str(source), "-o", str(tmp_path / "out"))
    assert status == 0, err
    records = {r.id: r for r in records_of([tmp_path / "out"])}
    assert records["FSR-1"].text == "The brake shall hold." and records["FSR-2"].text == "Content wins."
    assert "field 'description' has no safereq meaning" in err  # FSR-2's, not FSR-1's
    assert "FSR-2: field 'description'" in err


def test_needs_link_conditions_and_targets_that_are_no_ids_are_named_not_written_as_links(tmp_path, capsys):
    needs = {"versions": {"": {"needs": {
        "SG-1": {"id": "SG-1", "type": "sg", "title": "Goal", "content": "The goal."},
        "FSR-1": {"id": "FSR-1", "type": "fsr", "title": "Req", "content": "The requirement.",
                  "derived_from": ['SG-1[status=="open"]', "not an id!"]},
    }}}}
    source = tmp_path / "needs.json"
    source.write_text(json.dumps(needs), encoding="utf-8")
    status, err = run(capsys, "import", str(source), "-o", str(tmp_path / "out"))
    assert status == 0 and "reads back" not in err, err
    assert "has a condition '[status==\"open\"]'; linked without it" in err
    assert "link target 'not an id!' is not an ID" in err
    (record,) = [r for r in records_of([tmp_path / "out"]) if r.id == "FSR-1"]
    assert record.links == {"derived-from": ["SG-1"]}
    assert "not an id!" in (tmp_path / "out" / "fsr.md").read_text(encoding="utf-8")
