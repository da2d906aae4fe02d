"""A team's knowledge base on object storage, against a real S3-compatible server (moto) on 127.0.0.1.

Indexing and searching through ``s3://`` URIs, credentials that never reach the objects or the logs, two
writers at once, a reader while a writer commits, and the damaged-index paths that apply to a store.
"""

from __future__ import annotations

import json
import logging
import shutil
import threading
import uuid
from collections import Counter
from pathlib import Path

import pytest

from safereq.cli.main import main
from safereq.knowledge.config import KnowledgeConfig
from safereq.knowledge.indexer import Indexer, path_jobs
from safereq.knowledge.location import LocationError, ObjectStoreURI, index_location, storage_options
from safereq.knowledge.store import Store

from .knowledge_helpers import FIXTURES, HashEmbedder
from .s3_server import SECRET, s3_endpoint

pytest.importorskip("moto.server")


@pytest.fixture(scope="module")
def s3():
    with s3_endpoint() as endpoint:
        yield endpoint


@pytest.fixture()
def uri(s3) -> str:
    """A fresh prefix per test: tests share the server, never a table."""
    return f"s3://{s3.bucket}/kb-{uuid.uuid4().hex[:8]}"


def _index(uri: str, paths: list[Path], embedder=None):
    jobs, roots, problems = path_jobs(paths)
    assert not problems
    config = KnowledgeConfig.resolve(uri, embedder="none")
    return Indexer(config, embedder=embedder or HashEmbedder()).run(jobs, prune_prefixes=[r + "/" for r in roots])


def _chunks_per_source(store: Store) -> Counter:
    return Counter(r["source"] for r in store.scan(None, ["source"]))


# -- locations --------------------------------------------------------------------------------------------
def test_locations_parse_to_uris_or_folders(tmp_path):
    assert index_location("s3://bucket/team/kb/") == ObjectStoreURI("s3://bucket/team/kb")
    assert index_location("gs://b/p").scheme == "gs" and isinstance(index_location("az://c/p"), ObjectStoreURI)
    assert index_location("file:///tmp/kb") == Path("/tmp/kb")
    assert index_location("kb", base=tmp_path) == tmp_path / "kb"
    with pytest.raises(LocationError, match="without credentials"):
        index_location("s3://AKIA:secret@bucket/kb")
    with pytest.raises(LocationError, match="ftp://"):
        index_location("ftp://host/kb")


def test_storage_options_come_from_the_environment_only_for_uris():
    env = {"AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "AWS_ENDPOINT": "http://old",
           "AWS_ENDPOINT_URL": "http://new", "AWS_ALLOW_HTTP": "true", "SAFEREQ_INDEX_STORAGE_TIMEOUT": "60s"}
    options = storage_options(ObjectStoreURI("s3://b/p"), env)
    assert options == {"aws_access_key_id": "k", "aws_secret_access_key": "s", "aws_endpoint": "http://new",
                       "allow_http": "true", "timeout": "60s"}
    assert storage_options(Path("/tmp/kb"), env) == {}


# -- one writer, readers ----------------------------------------------------------------------------------
def test_index_search_and_status_on_s3_never_write_the_secret(s3, uri, tmp_path, capsys, caplog):
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "corpus", corpus)
    caplog.set_level(logging.DEBUG)
    assert main(["index", str(corpus), "--index-dir", uri, "--embedder", "none"]) == 0
    assert main(["search", "deceleration", "--index-dir", uri, "--embedder", "none", "--json", "--limit", "2"]) == 0
    assert main(["index", "--status", "--index-dir", uri, "--json"]) == 0
    out, err = capsys.readouterr()
    first, hits_text = out.split("\n", 1)
    assert first.startswith("indexed 2 file(s)")
    decoder = json.JSONDecoder()
    hits, end = decoder.raw_decode(hits_text.lstrip())
    status = json.loads(hits_text.lstrip()[end:])
    assert hits and hits[0]["document"] == "brake-guide"
    assert status["index"] == uri and status["bytes"] is None and len(status["files"]) == 2

    prefix = uri.split("/", 3)[3]
    objects = s3.objects(prefix)
    assert any(k.endswith(".manifest") for k in objects) and any("/data/" in k for k in objects)
    assert not [k for k, body in objects.items() if SECRET.encode() in body]
    assert SECRET not in out + err + caplog.text


def test_reader_sees_a_new_version_after_it_lands_and_never_a_half_written_one(uri, tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    shutil.copy(FIXTURES / "corpus" / "brake-guide.md", first)
    shutil.copy(FIXTURES / "corpus" / "widget-standard.txt", second)
    _index(uri, [first])
    reader = Store(uri)  # opened once, like an editor's: never reopened below
    before = _chunks_per_source(reader)

    seen: list[Counter] = []
    done = threading.Event()

    def write() -> None:
        try:
            _index(uri, [first, second])
        finally:
            done.set()

    writer = threading.Thread(target=write)
    writer.start()
    while not done.is_set():
        seen.append(_chunks_per_source(reader))
    writer.join()
    after = _chunks_per_source(reader)
    new_sources = set(after) - set(before)
    assert len(new_sources) == 1 and after[next(iter(new_sources))] > 1  # the reader saw the new file land
    expected_b = {s: after[s] for s in new_sources}
    assert seen, "the reader read while the writer committed"
    for snapshot in seen:  # each read is the old version or the new one: a file's chunks all there, or none
        for source, n in snapshot.items():
            assert n == (before.get(source) or expected_b.get(source)), (source, n)


def test_two_writers_at_once_both_land(uri, tmp_path):
    folders = []
    for name in ("brake-guide.md", "widget-standard.txt"):
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        shutil.copy(FIXTURES / "corpus" / name, folder)
        folders.append(folder)
    outcomes: dict[int, object] = {}
    start = threading.Barrier(2)

    def write(i: int) -> None:
        start.wait()
        try:
            outcomes[i] = _index(uri, [folders[i]])
        except Exception as exc:  # noqa: BLE001 - the outcome under test
            outcomes[i] = exc

    threads = [threading.Thread(target=write, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # a writer that loses the race runs again by itself (each commit is atomic, the run incremental): both land
    assert all(not isinstance(o, Exception) and not o.failed for o in outcomes.values()), outcomes
    assert sorted(Path(f).name for o in outcomes.values() for f in o.indexed) == ["brake-guide.md",
                                                                                  "widget-standard.txt"]
    from safereq.knowledge.integrity import inspect

    health = inspect(index_location(uri))
    assert health.state == "ok", health
    sources = _chunks_per_source(Store(uri))
    assert {Path(s).name for s in sources} == {"brake-guide.md", "widget-standard.txt"}


# -- damage and --rebuild ----------------------------------------------------------------------------------
def test_rebuild_and_going_back_work_on_a_store(s3, uri, tmp_path, capsys):
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "corpus", corpus)
    _index(uri, [corpus])
    (corpus / "brake-guide.md").write_text((corpus / "brake-guide.md").read_text() + "\n\n## 9 Extra\n\nMore.\n")
    _index(uri, [corpus])
    # damage the latest version: remove a data file only it uses
    prefix = uri.split("/", 3)[3]
    client = s3.client()
    from safereq.knowledge.integrity import _dataset, inspect

    location = index_location(uri)
    ds = _dataset(location / "chunks.lance")
    older = {f.path for f in _dataset(location / "chunks.lance", ds.version - 1).get_fragments()
             for f in f.data_files()}
    newest = [f.path for frag in ds.get_fragments() for f in frag.data_files() if f.path not in older]
    assert newest
    client.delete_object(Bucket=s3.bucket, Key=f"{prefix}/chunks.lance/data/{newest[0]}")
    assert inspect(location).state == "damaged"
    assert main(["search", "deceleration", "--index-dir", uri, "--embedder", "none"]) == 3
    assert "is damaged" in capsys.readouterr().err

    report = _index(uri, [corpus])
    assert report.repaired.startswith("the index was damaged") and "restoring it as the latest" in report.repaired
    assert inspect(location).state == "ok"
    assert main(["index", str(corpus), "--index-dir", uri, "--embedder", "none", "--rebuild"]) == 0
    assert "rebuilt the index at " + uri in capsys.readouterr().err
    assert inspect(location).state == "ok" and sum(_chunks_per_source(Store(uri)).values()) > 0
