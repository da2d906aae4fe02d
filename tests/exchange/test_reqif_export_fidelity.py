"""ReqIF export details that receiving tools depend on: one spec object type per role (StrictDoc makes one
field set per type), no empty XHTML statement, line breaks that survive flattening, every definition of a
duplicated ID, and XML that stays XML when a title holds a control character."""

from __future__ import annotations

import re
from pathlib import Path

from safereq.cli.main import main

from .conftest import comparable, records_of
from .test_export import _reqif_schema


def _export(capsys, *args: str) -> tuple[int, str]:
    status = main(["export", *args])
    return status, capsys.readouterr().err


def _content(path: Path):
    from reqif.parser import ReqIFParser

    bundle = ReqIFParser.parse(str(path))
    assert not bundle.exceptions
    return bundle.core_content.req_if_content


def _names(content) -> dict[str, str]:
    return {d.identifier: d.long_name for t in content.spec_types for d in (getattr(t, "attribute_definitions", None) or [])}


def test_items_and_chapters_are_objects_of_two_types_each_with_one_title(wiper, tmp_path, capsys):
    target = tmp_path / "x.reqif"
    assert _export(capsys, "wiper", "--to", "reqif", "-o", str(target))[0] == 0
    content = _content(target)
    by_type: dict[str, set[str]] = {}
    for spec_type in content.spec_types:
        if type(spec_type).__name__ == "ReqIFSpecObjectType":
            by_type[spec_type.long_name] = {d.long_name for d in spec_type.attribute_definitions}
    assert set(by_type) == {"safereq item", "safereq chapter"}
    assert by_type["safereq chapter"] == {"ReqIF.ChapterName"}
    assert "ReqIF.Name" in by_type["safereq item"] and "ReqIF.ChapterName" not in by_type["safereq item"]


def _values(tmp_path: Path, capsys, identifier: str) -> tuple[dict[str, str], str]:
    """The exported values of one spec object by long name, and the whole file's text."""
    target = tmp_path / "x.reqif"
    assert _export(capsys, "wiper", "--to", "reqif", "-o", str(target))[0] == 0
    content = _content(target)
    names = _names(content)
    spec_object = next(o for o in content.spec_objects if o.identifier == identifier)
    return {names[a.definition_ref]: a.value for a in spec_object.attributes}, target.read_text(encoding="utf-8")


def test_a_hara_row_has_no_empty_statement_value(wiper, tmp_path, capsys):
    values, text = _values(tmp_path, capsys, "safereq.HE-10")
    assert "ReqIF.Text" not in values and "<xhtml:div />" not in text


def test_a_line_break_keeps_the_words_apart_when_xhtml_is_flattened(wiper, tmp_path, capsys):
    xhtml = _values(tmp_path, capsys, "safereq.FSR-10")[0]["ReqIF.Text"]
    flattened = " ".join(re.sub(r"<[^>]+>", "", xhtml).split(" "))  # what a tool that drops tags sees
    assert "200 ms\nwhen" in flattened and "mswhen" not in flattened


def test_every_definition_of_a_duplicated_id_is_exported_and_named(wiper, tmp_path, capsys):
    (wiper / "more.md").write_text("# More\n\n## FSR-10: A second definition\nThe second text shall stay.\n",
                                   encoding="utf-8")
    target = tmp_path / "x.reqif"
    status, err = _export(capsys, "wiper", "--to", "reqif", "-o", str(target))
    assert status == 0 and "exported 8 items" in err
    assert "FSR-10 is defined 2 times" in err and "wiper/more.md:3" in err
    assert "The second text shall stay." in target.read_text(encoding="utf-8")
    errors = list(_reqif_schema().iter_errors(str(target)))  # two definitions, still valid ReqIF
    assert not errors, str(errors[0])[:800]
    content = _content(target)
    names = _names(content)
    foreign = [a.value for o in content.spec_objects for a in o.attributes if names[a.definition_ref] == "ReqIF.ForeignID"]
    assert foreign.count("FSR-10") == 2


def test_a_format_that_cannot_hold_a_duplicate_says_which_definition_is_left_out(wiper, tmp_path, capsys):
    (wiper / "more.md").write_text("# More\n\n## FSR-10: A second definition\nThe second text shall stay.\n",
                                   encoding="utf-8")
    status, err = _export(capsys, "wiper", "--to", "needs-json", "-o", str(tmp_path / "needs.json"))
    assert status == 0
    assert "exported 7 of 8 items (1 not exported" in err and "NOT exported: wiper/more.md:3" in err


def test_a_control_character_in_a_title_gives_xml_that_imports_again(wiper, tmp_path, capsys):
    fsr = wiper / "fsr.md"
    fsr.write_text(fsr.read_text(encoding="utf-8").replace("Detect heavy rain", "Detect\x01heavy\x1frain"),
                   encoding="utf-8")
    target = tmp_path / "x.reqif"
    status, err = _export(capsys, "wiper", "--to", "reqif", "-o", str(target))
    assert status == 0 and "FSR-10 holds characters XML cannot represent" in err
    assert main(["import", str(target), "-o", str(tmp_path / "back")]) == 0
    assert "imported 7 items" in capsys.readouterr().err
    back = {r.id: r for r in records_of([tmp_path / "back"])}
    assert back["FSR-10"].title == "Detect\u2401heavy\u241frain"
    original = comparable(records_of([wiper]))
    del original["FSR-10"]
    assert {k: v for k, v in comparable(list(back.values())).items() if k != "FSR-10"} == original
