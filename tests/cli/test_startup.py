"""Start-up: a command imports its own module and what it needs, not every other command's (issue 26)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from safereq.cli.main import COMMANDS, build_parser

SERVER = Path(__file__).resolve().parents[2] / "server"


def test_check_imports_no_other_command(tmp_path):
    doc = tmp_path / "a.md"
    doc.write_text("# Goals\n\n## SG-1: Avoid unintended braking\n\nThe system shall not brake unintentionally.\n\n"
                   "- ASIL: D\n", encoding="utf-8")
    code = ("import json, sys\nfrom safereq.cli.main import main\nstatus = main(['check', '--no-cache', sys.argv[1]])\n"
            "print(json.dumps([status, sorted(m for m in sys.modules if m.startswith(('safereq.cli.', 'safereq.agent',"
            " 'lancedb', 'pyarrow', 'pydantic')))]))")
    done = subprocess.run([sys.executable, "-c", code, str(doc)], cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(SERVER), "PATH": "/usr/bin:/bin"}, timeout=300)
    status, modules = json.loads(done.stdout.strip().splitlines()[-1])
    assert status == 0
    assert [m for m in modules if m.startswith("safereq.cli.") and m not in (
        "safereq.cli.main", "safereq.cli.check", "safereq.cli.errors", "safereq.cli.loading")] == []
    assert not [m for m in modules if not m.startswith("safereq.cli.")]  # pydantic too: no configuration file


def test_the_settings_a_check_does_not_read_are_still_there():
    from safereq.checks.config import CATEGORIES, Config
    from safereq.config import CorporaSettings, IndexSettings, LLMConfig

    config = Config()
    assert config.index == IndexSettings() and config.llm == LLMConfig() and config.corpora == CorporaSettings()
    assert "requirement" in CATEGORIES


def test_help_and_unknown_commands_still_see_every_command(capsys):
    parser = build_parser(["--help"])
    text = parser.format_help()
    assert all(name.rstrip("_") in text for name in COMMANDS)
    assert "derive" in build_parser(["chekc"]).format_help()
    only = build_parser(["check", "docs"]).format_help()
    assert "check" in only
