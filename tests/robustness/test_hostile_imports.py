"""``safereq import`` on hostile files (issue 25, items 3, 11 and 12). The cases are generated here, not
copied: imported text that looks like Markdown structure (an attribute line, an item heading, a code fence,
an HTML comment, a table) stays data that reads as the same words; needs.json files that nest deeply, hold
huge numbers, lone surrogates or wrong types are a message, never an internal error; the import never
writes through a symbolic link, and an interrupted import leaves no document that blocks the next run."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from safereq.cli.main import main
from safereq.exchange.records import collect
from safereq.workspace import Workspace
from safereq.workspace.loader import load

# Text that Markdown, or safereq's reading of it, would take for structure.
PAYLOADS = [
    "ASIL: QM", "Verified by: TC-9", "- ASIL: QM", "* Derived from: SG-9", "**ASIL**: QM", "ASIL：QM",
    "```", "~~~ python", "<!--", "<!-- hidden -->", "<div>", "<script>alert(1)</script>", "# FSR-99: injected",
    "## Chapter", "FSR-98: looks like a heading", "| a | b |\n|---|---|\n| c | d |", "> quoted", "1. listed",
    "---", "===", "    indented", "[ref]: https://example.invalid", "trailing \\", "&amp; &lt;b&gt;", "`code",
    "S: S3", "Hazard: HE-9",
]


def _records(folder: Path):
    loaded = load([str(folder)], cwd=folder)
    ws = Workspace()
    ws.update_many((s.path, s.text) for s in loaded.sources)
    return [r for d in collect(ws) for r in d.records]


def _needs(contents: list[str], chapter: str = "") -> dict:
    needs = {}
    for number, content in enumerate(contents, start=1):
        need_id = f"FSR-{number}"
        needs[need_id] = {"id": need_id, "type": "fsr", "title": f"Item {number} {content.splitlines()[0]}",
                          "content": f"The function shall run.\n{content}\nThe end of item {number}.",
                          "safereq_chapters": chapter}
    return {"current_version": "", "versions": {"": {"needs": needs}}}


def test_imported_text_that_looks_like_markdown_structure_stays_data(tmp_path, capsys):
    source = tmp_path / "needs.json"
    source.write_text(json.dumps(_needs(PAYLOADS, chapter="FSR-77: a chapter title")), encoding="utf-8")
    assert main(["import", str(source), "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert f"imported {len(PAYLOADS)} items" in err and "reads back" not in err, err
    records = {r.id: r for r in _records(tmp_path / "out")}
    # Every item, and no other: no chapter title or statement line became an item.
    assert set(records) == {f"FSR-{n}" for n in range(1, len(PAYLOADS) + 1)}
    for number, payload in enumerate(PAYLOADS, start=1):
        record = records[f"FSR-{number}"]
        assert record.attributes == {} and record.links == {}, (payload, record)
        words = [" ".join(line.split()) for line in payload.splitlines()]
        assert record.text == "\n".join(["The function shall run.", *words, f"The end of item {number}."]), payload
        assert record.chapters == ("FSR-77: a chapter title",)


REQIF = """<?xml version="1.0" encoding="UTF-8"?>
<REQ-IF xmlns="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<THE-HEADER><REQ-IF-HEADER IDENTIFIER="h"><REQ-IF-TOOL-ID>t</REQ-IF-TOOL-ID></REQ-IF-HEADER></THE-HEADER>
<CORE-CONTENT><REQ-IF-CONTENT>
<DATATYPES><DATATYPE-DEFINITION-STRING IDENTIFIER="s" LAST-CHANGE="2024-01-01T00:00:00Z" MAX-LENGTH="1000"/>
<DATATYPE-DEFINITION-XHTML IDENTIFIER="x" LAST-CHANGE="2024-01-01T00:00:00Z"/></DATATYPES>
<SPEC-TYPES><SPEC-OBJECT-TYPE IDENTIFIER="t" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="Requirement"><SPEC-ATTRIBUTES>
<ATTRIBUTE-DEFINITION-STRING IDENTIFIER="id" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="ReqIF.ForeignID"><TYPE><DATATYPE-DEFINITION-STRING-REF>s</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
<ATTRIBUTE-DEFINITION-STRING IDENTIFIER="ch" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="ReqIF.ChapterName"><TYPE><DATATYPE-DEFINITION-STRING-REF>s</DATATYPE-DEFINITION-STRING-REF></TYPE></ATTRIBUTE-DEFINITION-STRING>
<ATTRIBUTE-DEFINITION-XHTML IDENTIFIER="tx" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="ReqIF.Text"><TYPE><DATATYPE-DEFINITION-XHTML-REF>x</DATATYPE-DEFINITION-XHTML-REF></TYPE></ATTRIBUTE-DEFINITION-XHTML>
</SPEC-ATTRIBUTES></SPEC-OBJECT-TYPE><SPECIFICATION-TYPE IDENTIFIER="st" LAST-CHANGE="2024-01-01T00:00:00Z"/></SPEC-TYPES>
<SPEC-OBJECTS>{objects}</SPEC-OBJECTS>
<SPECIFICATIONS><SPECIFICATION IDENTIFIER="sp" LAST-CHANGE="2024-01-01T00:00:00Z" LONG-NAME="Spec"><TYPE><SPECIFICATION-TYPE-REF>st</SPECIFICATION-TYPE-REF></TYPE>
<CHILDREN><SPEC-HIERARCHY IDENTIFIER="hc" LAST-CHANGE="2024-01-01T00:00:00Z"><OBJECT><SPEC-OBJECT-REF>c</SPEC-OBJECT-REF></OBJECT><CHILDREN>{nodes}</CHILDREN></SPEC-HIERARCHY></CHILDREN>
</SPECIFICATION></SPECIFICATIONS></REQ-IF-CONTENT></CORE-CONTENT></REQ-IF>
"""


def _object(identifier: str, values: str) -> str:
    return (f'<SPEC-OBJECT IDENTIFIER="{identifier}" LAST-CHANGE="2024-01-01T00:00:00Z"><VALUES>{values}</VALUES>'
            '<TYPE><SPEC-OBJECT-TYPE-REF>t</SPEC-OBJECT-TYPE-REF></TYPE></SPEC-OBJECT>')


def test_xhtml_lists_and_fences_in_a_reqif_statement_do_not_become_attributes_or_hide_items(tmp_path, capsys):
    markup = ["<xhtml:ul><xhtml:li>ASIL: QM</xhtml:li><xhtml:li>Verified by: TC-9</xhtml:li></xhtml:ul>",
              "<xhtml:p>```</xhtml:p>", "<xhtml:p>&lt;!--</xhtml:p>", "<xhtml:p>&lt;!-- x --&gt; shown</xhtml:p>"]
    objects = [_object("c", '<ATTRIBUTE-VALUE-STRING THE-VALUE="FSR-50: not an item"><DEFINITION>'
                            '<ATTRIBUTE-DEFINITION-STRING-REF>ch</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION>'
                            '</ATTRIBUTE-VALUE-STRING>')]
    nodes = []
    for number, body in enumerate(markup + ["<xhtml:p>The last item shall stay.</xhtml:p>"], start=1):
        objects.append(_object(f"o{number}", f'<ATTRIBUTE-VALUE-STRING THE-VALUE="FSR-{number}"><DEFINITION>'
                                             '<ATTRIBUTE-DEFINITION-STRING-REF>id</ATTRIBUTE-DEFINITION-STRING-REF>'
                                             '</DEFINITION></ATTRIBUTE-VALUE-STRING><ATTRIBUTE-VALUE-XHTML><DEFINITION>'
                                             '<ATTRIBUTE-DEFINITION-XHTML-REF>tx</ATTRIBUTE-DEFINITION-XHTML-REF>'
                                             f'</DEFINITION><THE-VALUE><xhtml:div>{body}</xhtml:div></THE-VALUE>'
                                             '</ATTRIBUTE-VALUE-XHTML>'))
        nodes.append(f'<SPEC-HIERARCHY IDENTIFIER="h{number}" LAST-CHANGE="2024-01-01T00:00:00Z"><OBJECT>'
                     f'<SPEC-OBJECT-REF>o{number}</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>')
    source = tmp_path / "in.reqif"
    source.write_text(REQIF.format(objects="".join(objects), nodes="".join(nodes)), encoding="utf-8")
    assert main(["import", str(source), "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "imported 5 items" in err and "reads back" not in err, err
    records = {r.id: r for r in _records(tmp_path / "out")}
    assert set(records) == {"FSR-1", "FSR-2", "FSR-3", "FSR-4", "FSR-5"}
    assert records["FSR-1"].attributes == {} and records["FSR-1"].links == {}
    assert records["FSR-1"].text == "ASIL: QM\n\nVerified by: TC-9"
    assert records["FSR-4"].text == "<!-- x --> shown"
    assert records["FSR-5"].text == "The last item shall stay." and records["FSR-5"].chapters == ("FSR-50: not an item",)


HOSTILE_NEEDS = {
    "deep": "[" * 200_000 + "]" * 200_000,
    "deep-in-a-need": json.dumps({"versions": {"": {"needs": {"FSR-1": {"id": "FSR-1", "x": 0}}}}}).replace(
        '"x": 0', '"x": ' + "[" * 900 + "]" * 900),
    "huge-int": '{"versions": {"": {"needs": {"FSR-1": {"id": "FSR-1", "asil": ' + "9" * 5000 + "}}}}}",
    "surrogates": '{"versions": {"": {"needs": {"FSR-1": {"id": "FSR-1", "title": "a\\ud800b", '
                  '"content": "x\\udfffy", "asil": "\\ud83d"}}}}}',
    "surrogate-id": '{"versions": {"": {"needs": {"\\ud800": {"id": "\\ud800", "title": "t"}}}}}',
    "wrong-types": json.dumps({"current_version": ["x"], "versions": {"": {"needs": {
        "FSR-1": {"id": {"a": 1}, "title": [1, 2], "content": 5, "type": None, "status": {"s": 1},
                  "derived_from": {"a": 1}, "verified_by": [None, 3, {"x": 1}, "TC-1"], "asil": ["D"],
                  "safereq_chapters": 7, "safereq_document": ["a"], "links": "SG-1", "tags": "x"},
        "FSR-2": "not an object", "FSR-3": {"id": 12345, "title": True}}}}}),
    "wrong-top": json.dumps({"versions": {"": {"needs": []}}}),
    "version-not-object": json.dumps({"versions": {"": 5}}),
    "number-keys": '{"versions": {"": {"needs": {"1e999": {"id": 1e999, "title": NaN}}}}}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE_NEEDS))
def test_a_hostile_needs_json_is_a_message_or_an_import_never_an_internal_error(tmp_path, capsys, name):
    source = tmp_path / "needs.json"
    source.write_text(HOSTILE_NEEDS[name], encoding="utf-8", errors="surrogatepass")
    status = main(["import", str(source), "-o", str(tmp_path / "out"), "--format", "needs-json"])
    err = capsys.readouterr().err
    assert status in (0, 2), err
    assert "internal error" not in err and "Traceback" not in err, err
    if status == 0:
        for path in (tmp_path / "out").glob("*.md"):
            path.read_text(encoding="utf-8")  # valid UTF-8: no lone surrogate was written


def test_import_never_writes_through_a_symbolic_link_in_the_output_folder(tmp_path, capsys):
    source = tmp_path / "needs.json"
    source.write_text(json.dumps(_needs(["x"])), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n", encoding="utf-8")
    (out / "fsr.md").symlink_to(outside)
    for extra in ([], ["--force"]):
        status = main(["import", str(source), "-o", str(out), *extra])
        err = capsys.readouterr().err
        assert status == 2 and "symbolic link" in err, err
        assert outside.read_text(encoding="utf-8") == "precious\n"
        assert (out / "fsr.md").is_symlink()


def test_an_interrupted_import_leaves_no_document_that_blocks_the_next_run(tmp_path, capsys, monkeypatch):
    source = tmp_path / "needs.json"
    data = _needs(["x"])
    data["versions"][""]["needs"]["TC-1"] = {"id": "TC-1", "type": "tc", "title": "A test", "content": "Run it."}
    source.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "out"
    real_fsync, calls = os.fsync, []

    def interrupted(fd: int) -> None:  # the second document's write is interrupted (Ctrl-C, a full disk)
        calls.append(fd)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", interrupted)
    assert main(["import", str(source), "-o", str(out)]) != 0  # the CLI reports the interruption
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert len(calls) == 2 and "interrupted" in capsys.readouterr().err
    left = sorted(p.name for p in out.iterdir())
    assert all(p.stat().st_size > 0 for p in out.iterdir()), left  # no empty document
    assert not [n for n in left if n.endswith(".safereq-tmp")], left
    # A killed import (no clean-up at all) leaves its temporary file; the next run removes it.
    (out / ".tc.md.abc123.safereq-tmp").write_text("half a docu", encoding="utf-8")
    # The same import again completes without --force: what is there is what it would write.
    assert main(["import", str(source), "-o", str(out)]) == 0, capsys.readouterr().err
    assert {r.id for r in _records(out)} == {"FSR-1", "TC-1"}
    assert not list(out.glob("*.safereq-tmp")) and not list(out.glob(".*.safereq-tmp"))
