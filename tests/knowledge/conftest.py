"""Shared fixtures for the knowledge-base tests: tiny corpora, a PDF writer and one index built with the real model."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from .knowledge_helpers import FIXTURES, make_pdf


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory) -> Path:
    """A copy of the fixture corpus plus a generated two-page PDF."""
    d = tmp_path_factory.mktemp("corpus")
    for f in (FIXTURES / "corpus").iterdir():
        shutil.copy(f, d / f.name)
    (d / "pump-note.pdf").write_bytes(make_pdf([
        ["PUMP-NOTE 7", "1 Scope", "This note covers the coolant pump of the widget controller."],
        ["PUMP-NOTE 7", "2 Pump monitoring", "The coolant pump speed is monitored every 10 ms and a stalled",
         "pump switches the widget controller to its safe state."],
    ]))
    return d


@pytest.fixture(scope="session")
def e5_index(tmp_path_factory, corpus_dir) -> Path:
    """The fixture corpus and fixture catalogue indexed with the real bundled model (built once per run)."""
    from safereq.knowledge.config import KnowledgeConfig
    from safereq.knowledge.indexer import Indexer, Job, path_jobs

    index = tmp_path_factory.mktemp("e5-index")
    config = KnowledgeConfig.resolve(index, embedder="e5")
    jobs, _roots, problems = path_jobs([corpus_dir])
    assert not problems
    jobs.append(Job(FIXTURES / "catalogue" / "iso-99999-2.yaml", "fixture:catalogue", "catalogue"))
    report = Indexer(config).run(jobs)
    assert not report.failed, report.failed
    return index


@pytest.fixture(scope="session")
def kb(e5_index):
    from safereq.knowledge import open_knowledge_base

    return open_knowledge_base(e5_index)
