"""Every ``SAFEREQ_*`` variable the code reads is listed in ``config/environment.py``, so a misspelt name can
be reported (and a new variable cannot be added without being listed)."""

from __future__ import annotations

import re
from pathlib import Path

from safereq.config.environment import PREFIXES, Environment, misspelt

SOURCE = Path(__file__).resolve().parents[2] / "server" / "safereq"
_NAME = re.compile(r"SAFEREQ_[A-Z0-9_]*[A-Z0-9]\b")


def test_every_variable_the_code_reads_is_listed():
    used = {m.group(0) for path in SOURCE.rglob("*.py") for m in _NAME.finditer(path.read_text(encoding="utf-8"))}
    used.discard("SAFEREQ_LLM_MODLE")  # the docstring's example of a typo
    unlisted = sorted(n for n in used if n not in Environment.names() and not n.startswith(PREFIXES))
    assert unlisted == []


def test_a_misspelt_setting_is_reported_and_other_names_left_alone():
    env = {"SAFEREQ_LLM_MODLE": "x", "SAFEREQ_EMBED_THREAD": "2", "SAFEREQ_LLM_MODEL": "m",
           "SAFEREQ_NVIM_ROOT": "/tmp", "SAFEREQ_INDEX_STORAGE_ENDPOINT": "http://s3", "PATH": "/bin"}
    assert misspelt(env) == [
        "SAFEREQ_EMBED_THREAD is not a safereq setting and is ignored; did you mean SAFEREQ_EMBED_THREADS?",
        "SAFEREQ_LLM_MODLE is not a safereq setting and is ignored; did you mean SAFEREQ_LLM_MODEL?",
    ]
