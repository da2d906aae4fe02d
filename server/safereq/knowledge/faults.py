"""An object store that fails, said in one line with its own exit code, under a deadline, without a secret.

LanceDB's errors for a store are several hundred characters of Rust debug output (``RetryError(…)``, request
ids, source locations), and "no index" was said for every failure to open one. Here a failure is sorted
into what the user can act on — the store does not answer, the bucket does not exist, the credentials are
refused, the index is incomplete, missing or damaged — each with one line, an exit code (documented in
docs/cli.md) and the full detail kept for the debug log. Every call to an object store runs under a deadline
(``SAFEREQ_INDEX_DEADLINE``, default 120 s): a store that accepts connections and never answers ends in a
message, not a hang. Every message passes through :func:`redact`, so no credential in a URI, a query string or
the environment is ever repeated.

No heavy imports: the CLI and the language server sort errors without loading LanceDB.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from .location import ObjectStoreURI, redact_uri, storage_options
from .store_schema import StoreError

log = logging.getLogger(__name__)

DEFAULT_DEADLINE = 120.0

# Exit codes of `safereq index` and `safereq search` (2: usage, configuration, no index; 3: damaged).
INCOMPLETE, UNREACHABLE, NO_BUCKET, CREDENTIALS = 4, 5, 6, 7


class IndexMissing(StoreError):
    """No index at the location (nothing was ever indexed there)."""


class IndexIncomplete(StoreError):
    """An index whose first run (or whose last run's full-text index) did not finish: resume it."""

    exit_code = INCOMPLETE


class StoreUnreachable(StoreError):
    """The store refused the connection, was not found, or did not answer before the deadline."""

    exit_code = UNREACHABLE


class BucketMissing(StoreError):
    exit_code = NO_BUCKET


class CredentialsRefused(StoreError):
    exit_code = CREDENTIALS


# -- redaction ------------------------------------------------------------------------------------------
_SECRET_OPTION_RE = re.compile(r"secret|token|key|password|sas|signature|credential|service_account", re.I)


def redact(text: str, location: object = None) -> str:
    """``text`` without credentials: a URI's ``user:secret@``, the values of query parameters (``?sig=…``) and
    every secret storage option of ``location`` (or of any object store, from the environment)."""
    text = redact_uri(text)
    options = storage_options(location if isinstance(location, ObjectStoreURI) else ObjectStoreURI("s3://x"))
    for name, value in options.items():
        if _SECRET_OPTION_RE.search(name) and len(value) >= 4:
            text = text.replace(value, "***")
    return text


# -- sorting a store's error ----------------------------------------------------------------------------
_XML_CODE_RE = re.compile(r"<Code>([^<]+)</Code>(?:\s*<Message>([^<]+)</Message>)?")
_STATUS_RE = re.compile(r"\bstatus: (\d{3})\b")
_CREDENTIAL_CODES = ("InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "ExpiredToken", "InvalidToken",
                     "AuthorizationHeaderMalformed", "AuthenticationFailed", "AuthorizationFailure",
                     "InvalidClientTokenId", "UnrecognizedClientException", "Forbidden")
_UNREACHABLE_WORDS = ("connection refused", "error trying to connect", "dns error", "failed to lookup address",
                      "tcp connect error", "timed out", "operation timed out", "connection reset",
                      "no route to host", "network is unreachable", "error sending request")


def endpoint(location: ObjectStoreURI) -> str:
    """Where requests for ``location`` go: the configured endpoint, or the provider's (no credentials)."""
    options = storage_options(location)
    url = options.get("aws_endpoint") or options.get("endpoint") or options.get("azure_storage_endpoint")
    return redact(url) if url else f"{location.scheme}://{location.uri.split('://', 1)[1].split('/', 1)[0]}"


def network_fault(exc: BaseException, location: ObjectStoreURI, doing: str) -> StoreError | None:
    """The fault ``exc`` (raised by LanceDB for ``location``) is, when it is one of the store's, else None."""
    text = f"{exc}"
    log.debug("object store error while %s: %s", doing, redact(text, location))
    bucket = location.uri.split("://", 1)[1].split("/", 1)[0]
    xml = _XML_CODE_RE.search(text)
    code = xml.group(1) if xml else ""
    status = _STATUS_RE.search(text)
    lowered = text.lower()
    if code in ("NoSuchBucket", "ContainerNotFound") or "bucket does not exist" in lowered:
        return BucketMissing(f"the bucket {bucket!r} does not exist at {endpoint(location)} (while {doing}): create "
                             "it, or correct the index location")
    if code in _CREDENTIAL_CODES or (status and status.group(1) in ("401", "403")):
        said = f"{code}: {xml.group(2)}" if xml and xml.group(2) else code or f"HTTP {status.group(1)}"  # type: ignore[union-attr]
        return CredentialsRefused(redact(
            f"the object store at {endpoint(location)} refused the credentials (while {doing}: {said}); check "
            "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or your provider's variables)", location))
    if any(w in lowered for w in _UNREACHABLE_WORDS):
        return StoreUnreachable(f"cannot reach the object store at {endpoint(location)} (while {doing}): check the "
                                "endpoint (AWS_ENDPOINT_URL) and the network")
    return None


def one_line(exc: BaseException, location: object = None) -> str:
    """A store error's gist on one line (code and message of an XML error, else its first line), redacted."""
    text = f"{exc}"
    xml = _XML_CODE_RE.search(text)
    if xml:
        gist = f"{xml.group(1)}: {xml.group(2)}" if xml.group(2) else xml.group(1)
    else:
        gist = re.split(r"[,:]?\s*(?:IO \{|Generic \{|RetryError|LanceError\(|source:)", text, maxsplit=1)[0]
        gist = re.sub(r",?\s*/\S+\.rs:\d+(:\d+)?", "", gist).strip().splitlines()[0] if gist.strip() else ""
        gist = gist or type(exc).__name__
    return redact(gist[:200], location)


# -- deadline -------------------------------------------------------------------------------------------
def deadline_seconds() -> float:
    from ..config.environment import Environment

    return Environment.read().index_deadline_seconds or DEFAULT_DEADLINE


T = TypeVar("T")


def under_deadline(location: object, doing: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``; for an object store on a worker thread, given up after the deadline (the thread
    is left to the store client's own timeouts), and with the store's faults sorted (:func:`network_fault`)."""
    if not isinstance(location, ObjectStoreURI):
        return fn(*args, **kwargs)
    seconds = deadline_seconds()
    box: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread below
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name=f"safereq-store: {doing}", daemon=True).start()
    if not done.wait(seconds):
        raise StoreUnreachable(f"the object store at {endpoint(location)} did not answer within {seconds:g} s (while "
                               f"{doing}); check the endpoint and the network, or set SAFEREQ_INDEX_DEADLINE")
    error = box.get("error")
    if error is None:
        return box["value"]
    if isinstance(error, StoreError) or not isinstance(error, Exception):
        raise error
    fault = network_fault(error, location, doing)
    if fault is not None:
        raise fault from None
    raise error


def store_call(doing: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A method of an object with an ``index_dir``, run :func:`under_deadline` (a no-op for a folder)."""
    def wrap(method: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(method)
        def call(self, *args: Any, **kwargs: Any) -> T:
            return under_deadline(self.index_dir, doing, method, self, *args, **kwargs)
        return call
    return wrap


def exit_code(exc: BaseException) -> int:
    """The exit status for a store error: its class's code, 2 otherwise (usage, configuration, no index)."""
    return int(getattr(exc, "exit_code", 2))


__all__ = ["BucketMissing", "CredentialsRefused", "IndexIncomplete", "IndexMissing", "StoreUnreachable", "endpoint",
           "exit_code", "network_fault", "one_line", "redact", "store_call", "under_deadline"]
