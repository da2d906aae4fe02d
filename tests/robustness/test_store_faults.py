"""A store that fails is said in one line with its own exit code, never as "no index" and never by hanging
(issue 25, items 6, 8 and 13).

Real LanceDB against a real S3-compatible server (moto, on 127.0.0.1) that is missing a bucket or is stopped,
a listener that accepts and never answers, and a server that refuses the credentials; a real local index
whose first run was interrupted. The deadline (``SAFEREQ_INDEX_DEADLINE``) is 2 s against the silent store,
which can never answer, and a generous 60 s elsewhere, where the store answers (or refuses) at once: no
outcome depends on the machine's load.
"""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest

from safereq.cli.main import main
from safereq.knowledge import IndexCancelled
from safereq.knowledge.config import KnowledgeConfig
from safereq.knowledge.indexer import Indexer, path_jobs

from .hostile_locations import SECRET
from .store_faults import closed_port, refusing_store, silent_store

pytest.importorskip("moto.server")
from knowledge.s3_server import s3_endpoint  # noqa: E402 - tests/knowledge, next to this folder

CORPUS = Path(__file__).resolve().parents[1] / "knowledge" / "fixtures" / "corpus"
ENV = {"AWS_ACCESS_KEY_ID": "safereq-test-key", "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_REGION": "us-east-1",
       "AWS_ALLOW_HTTP": "true"}


def _run(capsys, *args: str) -> tuple[int, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # a location refused while parsing the options
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


def _commands(where: str) -> list[list[str]]:
    return [["search", "watchdog", "--index-dir", where, "--embedder", "none"],
            ["index", "--status", "--index-dir", where],
            ["index", str(CORPUS), "--index-dir", where, "--embedder", "none"]]


def _assert_one_clear_line(text: str) -> None:
    lines = text.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 400, text
    assert SECRET not in text and "RetryError" not in text and ".rs:" not in text and "Traceback" not in text, text


@pytest.fixture
def store_env(monkeypatch):
    for k, v in ENV.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("SAFEREQ_INDEX_DEADLINE", "60")
    return monkeypatch


@pytest.fixture(scope="module")
def s3():
    with s3_endpoint() as endpoint:
        yield endpoint


# -- item 8: a store that stops answering ---------------------------------------------------------------
def test_a_store_that_never_answers_ends_every_command_with_exit_5(store_env, capsys):
    store_env.setenv("SAFEREQ_INDEX_DEADLINE", "2")
    with silent_store() as url:
        store_env.setenv("AWS_ENDPOINT_URL", url)
        for args in _commands("s3://bucket/kb"):
            code, text = _run(capsys, *args)
            assert code == 5 and f"the object store at {url} did not answer within 2 s" in text, (args, text)
            _assert_one_clear_line(text)


def test_a_stopped_store_is_unreachable_not_no_index(s3, store_env, capsys, tmp_path):
    uri = f"s3://{s3.bucket}/kb-{uuid.uuid4().hex[:8]}"
    assert main(["index", str(CORPUS), "--index-dir", uri, "--embedder", "none"]) == 0
    capsys.readouterr()
    store_env.setenv("AWS_ENDPOINT_URL", closed_port())  # the same index, its server gone
    for args in _commands(uri):
        code, text = _run(capsys, *args)
        assert code == 5 and "object store at http://127.0.0.1:" in text and "no index" not in text, (args, text)
        _assert_one_clear_line(text)


# -- item 6: missing bucket, refused credentials, incomplete index --------------------------------------
def test_a_missing_bucket_is_said_with_exit_6(s3, store_env, capsys):
    store_env.setenv("AWS_ENDPOINT_URL", s3.url)
    for args in _commands("s3://no-such-bucket/kb"):
        code, text = _run(capsys, *args)
        assert code == 6 and "the bucket 'no-such-bucket' does not exist" in text, (args, text)
        _assert_one_clear_line(text)


def test_refused_credentials_are_said_with_exit_7_and_never_repeated(store_env, capsys):
    with refusing_store() as url:
        store_env.setenv("AWS_ENDPOINT_URL", url)
        for args in _commands("s3://bucket/kb"):
            code, text = _run(capsys, *args)
            assert code == 7 and "refused the credentials" in text and "InvalidAccessKeyId" in text, (args, text)
            _assert_one_clear_line(text)


def test_an_empty_prefix_on_a_store_is_no_index(s3, store_env, capsys):
    store_env.setenv("AWS_ENDPOINT_URL", s3.url)
    code, text = _run(capsys, "search", "x", "--index-dir", f"s3://{s3.bucket}/nothing-here", "--embedder", "none")
    assert code == 2 and "no index at" in text, text


@pytest.mark.parametrize("stop_at", [0, 1], ids=["before-any-file", "after-one-file"])
def test_an_interrupted_first_index_is_incomplete_with_exit_4_and_resumes(tmp_path, capsys, stop_at):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    config = KnowledgeConfig.resolve(tmp_path / "index", embedder="none")
    jobs, roots, _ = path_jobs([corpus])

    def interrupt(event):
        if event.phase == "index" and event.done == stop_at:
            raise IndexCancelled()

    assert Indexer(config, interrupt).run(jobs, prune_prefixes=[r + "/" for r in roots]).cancelled
    where = ["--index-dir", str(tmp_path / "index")]
    for args in (["search", "watchdog", "--mode", "fts", *where], ["index", "--status", *where]):
        code, text = _run(capsys, *args)
        assert code == 4 and "is incomplete" in text and "run 'safereq index' again" in text, (args, text)
    code, text = _run(capsys, "index", str(corpus), "--embedder", "none", *where)
    assert code == 0, text
    code, text = _run(capsys, "search", "watchdog", "--mode", "fts", *where)
    assert code == 0 and "watchdog" in text.lower(), text
