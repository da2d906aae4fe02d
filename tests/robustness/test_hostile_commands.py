"""Every case of the generated hostile corpus (``hostile_corpus.py``, issue 25) through the real command line:
the clear message and exit status the case names, never a traceback, an "internal error" or a hang."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .hostile_corpus import CASES, Case

TIMEOUT = 300  # only a hang reaches it


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_hostile_input_gets_a_clear_answer(case: Case, tmp_path):
    argv = case.make(tmp_path)
    env = {**os.environ, "NO_COLOR": "1"}
    run = subprocess.run([sys.executable, "-m", "safereq", *argv], cwd=tmp_path, capture_output=True, text=True,
                         timeout=TIMEOUT, env=env)
    said = run.stdout + run.stderr
    assert "Traceback" not in said and "internal error" not in said, said[-3000:]
    assert run.returncode == case.status, said[-3000:]
    for words in case.says:
        assert words in said, said[-3000:]
    if case.after is not None:
        case.after(tmp_path)
