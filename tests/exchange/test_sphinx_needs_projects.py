"""sphinx-needs as a user sets it up: the ``conf.py`` of docs/exchange.md with ``needs_external_needs`` and a
need of the project's own (a safereq-style ID) under ``sphinx-build -W``, external needs that link to their
document, and a needs.json of a project with its own link types imported without losing the trace."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from safereq.cli.main import main

from .conftest import records_of

ROOT = Path(__file__).resolve().parents[2]


def _documented_conf() -> str:
    """The ``conf.py`` blocks of docs/exchange.md, as a reader copies them."""
    text = (ROOT / "docs" / "exchange.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    conf = next(b for b in blocks if b.startswith("# conf.py"))
    external = next(b for b in blocks if b.startswith("needs_external_needs"))
    return conf + external


def _build(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", ".", "_build"],
                          cwd=project, capture_output=True, text=True, timeout=300)


def test_documented_external_needs_with_a_local_need_build_under_w_and_link_to_their_page(wiper, tmp_path, capsys):
    fsr = wiper / "fsr.md"  # a dangling link is a (correct) Sphinx warning: not this test's subject
    fsr.write_text(fsr.read_text(encoding="utf-8").replace("SG-10, SG-99", "SG-10"), encoding="utf-8")
    project = tmp_path / "sphinx"
    project.mkdir()
    assert main(["export", str(wiper), "--to", "needs-json", "-o", str(project / "needs.json")]) == 0
    capsys.readouterr()
    (project / "conf.py").write_text('project = "wiper"\n' + _documented_conf(), encoding="utf-8")
    (project / "index.rst").write_text(
        "Wiper\n=====\n\n.. fsr:: Wipe at low speed after a fault\n   :id: FSR-100\n   :derived_from: SG-10\n\n"
        "   The wiper control shall wipe at low speed after a motor fault.\n\n"
        ".. needtable::\n   :columns: id, title, derived_from\n", encoding="utf-8")
    run = _build(project)
    assert run.returncode == 0, run.stdout + run.stderr
    page = (project / "_build" / "index.html").read_text(encoding="utf-8")
    assert "FSR-100" in page and "__error__" not in page
    assert "https://example.com/requirements/wiper/fsr.html#FSR-10" in page


NEEDS_CONF = """\
project = "brake"
extensions = ["sphinx_needs"]
needs_types = [dict(directive="req", title="Requirement", prefix="REQ-", color="#BFD8D2", style="node"),
               dict(directive="test", title="Test", prefix="TC-", color="#DCB239", style="node")]
needs_id_regex = r"^[A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)*$"
needs_links = {"verifies": {"incoming": "is verified by", "outgoing": "verifies"},
               "implements": {"incoming": "is implemented by", "outgoing": "implements"}}
needs_build_json = True
"""

NEEDS_INDEX = """\
Brake
=====

.. req:: Hold the brake
   :id: REQ-1

   The brake controller shall hold the brake pressure.

.. req:: Release the brake
   :id: REQ-2
   :implements: REQ-1

   The brake controller shall release the pressure on request.

.. test:: Hold test
   :id: TC-1
   :verifies: REQ-1, REQ-2

   Park on a slope and check that the vehicle stays.
"""


def test_a_sphinx_needs_link_type_is_mapped_or_reported_never_dropped(tmp_path, capsys):
    project = tmp_path / "brake"
    project.mkdir()
    (project / "conf.py").write_text(NEEDS_CONF, encoding="utf-8")
    (project / "index.rst").write_text(NEEDS_INDEX, encoding="utf-8")
    run = _build(project)
    assert run.returncode == 0, run.stdout + run.stderr
    built = project / "_build" / "needs.json"
    assert "verifies" in json.loads(built.read_text(encoding="utf-8"))["versions"][""]["needs"]["TC-1"]
    assert main(["import", str(built), "-o", str(tmp_path / "back")]) == 0
    err = capsys.readouterr().err
    records = {r.id: r for r in records_of([tmp_path / "back"])}
    # "TC-1 verifies REQ-1" is "REQ-1 verified by TC-1": the verification trace is kept.
    assert records["REQ-1"].links.get("verified-by") == ["TC-1"]
    assert records["REQ-2"].links.get("verified-by") == ["TC-1"]
    # A link type safereq has no key for is named as such, and kept in the item's table.
    assert "link type 'implements' has no safereq meaning" in err
    assert "implements" in (tmp_path / "back" / "req.md").read_text(encoding="utf-8")
