"""The OpenAI-compatible embedding backend, against a local fake endpoint; remote endpoints need consent."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from safereq.knowledge.config import KnowledgeConfig
from safereq.knowledge.embeddings import EmbeddingError, OpenAIEmbedder
from safereq.knowledge.indexer import index_paths


class _Handler(BaseHTTPRequestHandler):
    requests: list[dict] = []

    def do_POST(self):  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
        data = [{"index": i, "embedding": [float(len(t) % 7), 1.0, float(i)]} for i, t in enumerate(body["input"])]
        payload = json.dumps({"object": "list", "data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture()
def server():
    _Handler.requests = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    thread.join(timeout=5)


def test_batches_and_auth(server):
    emb = OpenAIEmbedder(server, "test-model", api_key="sk-test", batch_size=2)
    vectors = emb.embed_passages(["a", "bb", "ccc"])
    assert len(vectors) == 3 and emb.dim == 3
    posts = [r for r in _Handler.requests if r["input"] != ["dimension probe"]]
    assert sorted(len(r["input"]) for r in posts) == [1, 2]  # two batches, sent concurrently (any order)
    assert all(r["path"] == "/v1/embeddings" and r["auth"] == "Bearer sk-test" and r["model"] == "test-model"
               for r in posts)
    emb.embed_query("q")
    emb.embed_query("q")
    assert sum(r["input"] == ["q"] for r in _Handler.requests) == 1  # query cache


def test_index_and_search_through_the_endpoint(server, corpus_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("SAFEREQ_EMBEDDER", "openai")
    monkeypatch.setenv("SAFEREQ_EMBED_URL", server)
    monkeypatch.setenv("SAFEREQ_EMBED_MODEL", "test-model")
    config = KnowledgeConfig.resolve(tmp_path / "idx")
    report = index_paths(config, [corpus_dir / "brake-guide.md"])
    assert report.embedded > 0 and not report.failed
    from safereq.knowledge import open_knowledge_base

    kb = open_knowledge_base(config=config)
    assert kb.has_vectors and kb.search("braking", limit=1, mode="vector")


def test_remote_endpoint_needs_explicit_consent():
    with pytest.raises(EmbeddingError, match="must not leave this machine"):
        OpenAIEmbedder("https://embeddings.example.com/v1", "m")
    OpenAIEmbedder("https://embeddings.example.com/v1", "m", allow_remote=True)  # constructing sends nothing


def test_unreachable_endpoint_is_a_message():
    emb = OpenAIEmbedder("http://127.0.0.1:9/v1", "m", timeout=2)
    with pytest.raises(EmbeddingError, match="unreachable"):
        emb.embed_passages(["x"])


class _BusyHandler(BaseHTTPRequestHandler):
    """Answers 503 to the first try of every batch, then vectors; the first wave must arrive together."""

    seen: set = set()
    in_flight = 0
    peak = 0
    lock = threading.Lock()
    wave: threading.Barrier

    def do_POST(self):  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cls = type(self)
        with cls.lock:
            cls.in_flight += 1
            cls.peak = max(cls.peak, cls.in_flight)
            first_try = body["input"][0] not in cls.seen
            cls.seen.add(body["input"][0])
        if first_try:
            try:
                cls.wave.wait(timeout=120)  # only passes if `parties` requests are in flight at once
            except threading.BrokenBarrierError:
                pass
        with cls.lock:  # before answering: the client sends its next request only after the answer
            cls.in_flight -= 1
        if first_try:
            self.send_response(503)
            self.send_header("Retry-After", "0")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        data = [{"index": i, "embedding": [float(t.split()[-1]), 1.0]} for i, t in enumerate(body["input"])]
        payload = json.dumps({"data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


def test_bulk_embedding_is_concurrent_bounded_retried_and_in_order():
    _BusyHandler.seen, _BusyHandler.in_flight, _BusyHandler.peak = set(), 0, 0
    _BusyHandler.wave = threading.Barrier(3)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _BusyHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        emb = OpenAIEmbedder(f"http://127.0.0.1:{httpd.server_address[1]}/v1", "m", dim=2, batch_size=2,
                             concurrency=3, backoff=0.0)
        texts = [f"chunk {i}" for i in range(12)]
        vectors = emb.embed_passages(texts)
    finally:
        httpd.shutdown()
        thread.join(timeout=5)
    assert [v[0] for v in vectors] == [float(i) for i in range(12)]  # every batch retried, order kept
    assert not _BusyHandler.wave.broken  # three requests were in flight together
    assert _BusyHandler.peak == 3  # and never more than the bound


def test_client_errors_are_not_retried(server):
    class _Bad(BaseHTTPRequestHandler):
        calls = 0

        def do_POST(self):  # noqa: N802
            type(self).calls += 1
            self.send_response(400)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Bad)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        emb = OpenAIEmbedder(f"http://127.0.0.1:{httpd.server_address[1]}/v1", "m", dim=2, backoff=0.0)
        with pytest.raises(EmbeddingError, match="HTTP 400"):
            emb.embed_passages(["a"])
    finally:
        httpd.shutdown()
        thread.join(timeout=5)
    assert _Bad.calls == 1
