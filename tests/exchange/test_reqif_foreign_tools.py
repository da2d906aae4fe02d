"""Import what DOORS, ProR, Polarion, Eclipse RMF and StrictDoc write: headings that carry a foreign ID,
statements in CamelCase attributes or as HTML inside a string, a prefixed root element, StrictDoc's
escaped strings, and schema-invalid files refused with what is wrong and where."""

from __future__ import annotations

from pathlib import Path

from safereq.cli.main import main

from .conftest import records_of
from .reqif_builder import Obj, build


def _import(capsys, source: Path, out: Path) -> tuple[int, str]:
    status = main(["import", str(source), "-o", str(out)])
    return status, capsys.readouterr().err


def _write(tmp_path: Path, text: str, name: str = "in.reqif") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_doors_heading_with_a_foreign_id_is_a_chapter_with_its_requirements_below(tmp_path, capsys):
    tree = [Obj("h1", {"ReqIF.ForeignID": "1", "ReqIF.ChapterName": "<xhtml:div>Braking</xhtml:div>"}, children=[
        Obj("r2", {"ReqIF.ForeignID": "2", "ReqIF.Text": "<xhtml:div>The brake shall hold.</xhtml:div>"}),
        Obj("h3", {"ReqIF.ForeignID": "3", "ReqIF.ChapterName": "<xhtml:div>Parking</xhtml:div>"}, children=[
            Obj("r4", {"ReqIF.ForeignID": "4", "ReqIF.Text": "<xhtml:div>The park brake shall engage.</xhtml:div>"}),
        ]),
    ])]
    source = _write(tmp_path, build(tree, xhtml=frozenset({"ReqIF.Text", "ReqIF.ChapterName"})))
    status, err = _import(capsys, source, tmp_path / "out")
    assert status == 0 and "imported 2 items" in err
    records = {r.id: r for r in records_of([tmp_path / "out"])}
    assert set(records) == {"REQ-2", "REQ-4"}
    assert records["REQ-2"].chapters == ("Braking",) and records["REQ-4"].chapters == ("Braking", "Parking")
    assert records["REQ-4"].text == "The park brake shall engage."


def test_camel_case_text_attributes_are_the_statement_and_reported_once_per_name(tmp_path, capsys):
    tree = [Obj(f"o{n}", {"ReqIF.ForeignID": f"SR-{n}", "RichText": f"<xhtml:div>Function {n} shall run.</xhtml:div>",
                          "PlainText": f"Function {n} shall run.", "Criticality": "high"}) for n in range(1, 41)]
    source = _write(tmp_path, build(tree, xhtml=frozenset({"RichText"})))
    status, err = _import(capsys, source, tmp_path / "out")
    assert status == 0
    records = records_of([tmp_path / "out"])
    assert len(records) == 40 and all(r.text == f"Function {r.id[3:]} shall run." for r in records)
    # One line per unmapped attribute name, not one per value: 40 objects, two names.
    assert err.count("has no safereq meaning") == 2
    assert "attribute 'Criticality' has no safereq meaning; kept in the table of foreign attributes of 40 items" in err
    assert len(err.splitlines()) < 10


def test_html_held_in_a_string_text_becomes_the_statement(tmp_path, capsys):
    tree = [Obj("o1", {"ReqIF.ForeignID": "FSR-1", "ReqIF.Name": "Arbiter",
                       "ReqIF.Text": "<div><p>The arbiter <b>shall</b> limit the torque.</p><p>Second paragraph.</p></div>"}),
            Obj("o2", {"ReqIF.ForeignID": "FSR-2", "ReqIF.Text": "<p>Unclosed HTML<br>on two lines"})]
    source = _write(tmp_path, build(tree, xhtml=frozenset()))
    status, err = _import(capsys, source, tmp_path / "out")
    assert status == 0, err
    records = {r.id: r for r in records_of([tmp_path / "out"])}
    assert records["FSR-1"].text == "The arbiter shall limit the torque.\n\nSecond paragraph."
    assert records["FSR-2"].text == "Unclosed HTML\non two lines"


def test_a_prefixed_root_element_imports(tmp_path, capsys):
    tree = [Obj("o1", {"ReqIF.ForeignID": "FSR-1", "ReqIF.Text": "<xhtml:div>The lamp shall light.</xhtml:div>"})]
    source = _write(tmp_path, build(tree, prefix="reqif"))
    assert "<reqif:REQ-IF" in source.read_text(encoding="utf-8")
    status, err = _import(capsys, source, tmp_path / "out")
    assert status == 0, err
    assert [r.text for r in records_of([tmp_path / "out"])] == ["The lamp shall light."]


def test_a_schema_invalid_file_is_refused_with_what_is_wrong_and_where(tmp_path, capsys):
    tree = [Obj("o1", {"ReqIF.ForeignID": "FSR-1", "ReqIF.Text": "<xhtml:div>x</xhtml:div>"})]
    text = build(tree).replace('<ATTRIBUTE-VALUE-STRING THE-VALUE="FSR-1">', '<ATTRIBUTE-VALUE-STRING>')
    source = _write(tmp_path, text)
    status, err = _import(capsys, source, tmp_path / "out")
    assert status == 2
    assert "not valid ReqIF: line" in err and "ATTRIBUTE-VALUE-STRING" in err
    assert "NotImplementedError" not in err and "'NoneType'" not in err and "internal error" not in err


def test_strictdoc_escaped_strings_read_as_their_text(tmp_path, capsys):
    # StrictDoc writes string values with Python's unicode_escape: a line break as \n, "§" as \xa7; and what
    # it imported from UTF-8 it holds as Latin-1 look-alikes ("Â§"), which it escapes byte by byte.
    tree = [Obj("o1", {"ReqIF.ForeignID": "FSR-1", "ReqIF.Name": "Limit \\xc2\\xa7 torque",
                       "ReqIF.Text": "First line\\nsecond line", "ASIL": "D"})]
    source = _write(tmp_path, build(tree, xhtml=frozenset(), tool="strictdoc"))
    status, err = _import(capsys, source, tmp_path / "out")
    assert status == 0, err
    (record,) = records_of([tmp_path / "out"])
    assert record.title == "Limit § torque" and record.text == "First line\nsecond line"


ENUM = """<DATATYPE-DEFINITION-ENUMERATION IDENTIFIER="dt-e" LONG-NAME="T_Status"><SPECIFIED-VALUES>
<ENUM-VALUE IDENTIFIER="ev-1" LONG-NAME="approved"><PROPERTIES><EMBEDDED-VALUE/></PROPERTIES></ENUM-VALUE>
</SPECIFIED-VALUES></DATATYPE-DEFINITION-ENUMERATION>"""


def test_an_early_pror_file_without_last_change_is_read_and_the_gap_reported(tmp_path, capsys):
    tree = [Obj("o1", {"ReqIF.ForeignID": "FSR-1", "ReqIF.Text": "<xhtml:div>The lamp shall light.</xhtml:div>"})]
    text = build(tree).replace(' LAST-CHANGE="2024-01-01T00:00:00Z"', "").replace("</DATATYPES>", ENUM + "</DATATYPES>")
    source = _write(tmp_path, text)
    status, err = _import(capsys, source, tmp_path / "out")
    assert status == 0, err
    assert "elements have no LAST-CHANGE; 1 enumeration values have no KEY or OTHER-CONTENT, which ReqIF " \
           "requires; read anyway" in err
    assert [r.text for r in records_of([tmp_path / "out"])] == ["The lamp shall light."]


def test_a_file_the_library_cannot_read_names_the_schema_error_and_its_line(tmp_path, capsys):
    tree = [Obj("o1", {"ReqIF.ForeignID": "FSR-1"}), Obj("o2", {"ReqIF.ForeignID": "FSR-2"})]
    text = build(tree, relations=(("Derived from", "o1", "o2"),))
    text = text.replace('<TYPE><SPEC-RELATION-TYPE-REF>', '<X><SPEC-RELATION-TYPE-REF>').replace(
        '</SPEC-RELATION-TYPE-REF></TYPE>', '</SPEC-RELATION-TYPE-REF></X>')
    status, err = _import(capsys, _write(tmp_path, text), tmp_path / "out")
    assert status == 2 and "not valid ReqIF: line 20, at /REQ-IF/" in err and "SPEC-RELATION" in err, err
    assert "AssertionError" not in err and "more schema errors" not in err  # one error: no count


def test_a_pror_id_attribute_gives_the_item_its_id(tmp_path, capsys):
    tree = [Obj("rmf-1", {"ID": "UC-1", "Description": "Create a new object."})]
    source = _write(tmp_path, build(tree, xhtml=frozenset()))
    status, err = _import(capsys, source, tmp_path / "out")
    assert status == 0 and "has no safereq meaning" not in err, err
    assert [(r.id, r.text) for r in records_of([tmp_path / "out"])] == [("UC-1", "Create a new object.")]


def test_the_one_xhtml_value_of_an_object_is_its_statement_whatever_its_name(tmp_path, capsys):
    tree = [Obj("o1", {"ReqIF.ForeignID": "FSR-1", "TC1200 AttributeDefinitionXHTML": "<xhtml:p>Rich text.</xhtml:p>",
                       "TC1200 AttributeDefinitionString": "a string"})]
    source = _write(tmp_path, build(tree, xhtml=frozenset({"TC1200 AttributeDefinitionXHTML"})))
    assert _import(capsys, source, tmp_path / "out")[0] == 0
    assert [r.text for r in records_of([tmp_path / "out"])] == ["Rich text."]
