"""Shared test helpers: the repository root and a parser vocabulary; the ``fast`` marker of the core loop."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The fast loop (``pytest -m fast``, well under a minute): the model, the workspace, the checks and the layering, which
# need no language server, no index and no subprocess. docs/dev/architecture.md says when to run what.
FAST = ("model", "workspace", "checks", "architecture")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = Path(str(item.fspath)).relative_to(ROOT / "tests").parts
        if parts and parts[0] in FAST:
            item.add_marker(pytest.mark.fast)


@pytest.fixture(scope="session", autouse=True)
def _user_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The user's cache folder (the check cache's key, link vectors) is a temporary one, never the real home's."""
    import os

    os.environ.setdefault("SAFEREQ_CACHE_DIR", str(tmp_path_factory.mktemp("user-cache")))


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def vocab():
    from safereq.model.vocabulary import load_vocabulary

    return load_vocabulary()
