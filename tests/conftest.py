"""Shared test helpers: the repository root and a parser vocabulary."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def vocab():
    from safereq.model.vocabulary import load_vocabulary

    return load_vocabulary()
