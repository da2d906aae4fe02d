"""A real S3-compatible server (moto's, which implements conditional writes) on 127.0.0.1, for tests and benchmarks.

``s3_endpoint()`` starts one on a free port, waits until the port answers (no sleeps), creates a bucket and
sets the usual AWS_* environment variables the way a team's CI job would. The secret is a marker the tests
search for in every written object and in the logs.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass

SECRET = "s3cr3t-do-not-leak-7f3a"
KEY_ID = "safereq-test-key"
BUCKET = "safereq-kb"


@dataclass(frozen=True)
class S3Endpoint:
    url: str
    bucket: str

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.url, aws_access_key_id=KEY_ID, aws_secret_access_key=SECRET,
                            region_name="us-east-1")

    def objects(self, prefix: str = "") -> dict[str, bytes]:
        """Every object under ``prefix``: key → content."""
        c = self.client()
        out: dict[str, bytes] = {}
        for page in c.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix):
            for obj in page.get("Contents", []):
                out[obj["Key"]] = c.get_object(Bucket=self.bucket, Key=obj["Key"])["Body"].read()
        return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the S3 test server did not open port {port}") from None


ENV = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_ENDPOINT_URL", "AWS_REGION", "AWS_ALLOW_HTTP")


@contextlib.contextmanager
def s3_endpoint() -> Iterator[S3Endpoint]:
    """A running server with an empty bucket and the AWS_* variables pointing at it (restored afterwards)."""
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    saved = {k: os.environ.get(k) for k in ENV}
    try:
        _wait_for_port(port)
        url = f"http://127.0.0.1:{port}"
        os.environ.update(AWS_ACCESS_KEY_ID=KEY_ID, AWS_SECRET_ACCESS_KEY=SECRET, AWS_ENDPOINT_URL=url,
                          AWS_REGION="us-east-1", AWS_ALLOW_HTTP="true")
        endpoint = S3Endpoint(url, BUCKET)
        endpoint.client().create_bucket(Bucket=BUCKET)
        yield endpoint
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        server.stop()
