"""Where an index lives: a local folder, or a prefix on an object store a whole team shares.

``--index-dir``, ``SAFEREQ_INDEX``, ``[index] path`` and the editor's ``safereq.index.path`` accept either a
folder or an object-store URI (``s3://bucket/prefix``, ``gs://…``, ``az://…``, ``s3+ddb://…``). A URI is kept
as an :class:`ObjectStoreURI`, never a :class:`~pathlib.Path` (which would fold ``s3://b`` into ``s3:/b``).

Credentials and the endpoint come from the environment (the variables every S3/GCS/Azure tool reads) or from
``SAFEREQ_INDEX_STORAGE_<OPTION>`` variables, and are handed to LanceDB as ``storage_options`` at connect time
only: they are never part of the URI (a URI with ``user:secret@`` is refused), the index, a report or a log
line. ``storage_options`` is the one function that reads them.

No heavy imports here: the CLI and the language server parse locations at start-up.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# The URI schemes LanceDB's object stores understand (s3+ddb: S3 with a DynamoDB commit table).
SCHEMES = ("s3", "s3+ddb", "gs", "az", "abfss")

# Environment variable -> LanceDB storage option. object_store reads some of these itself; passing them
# explicitly makes AWS_ENDPOINT_URL (the name the AWS CLI and boto3 use) work too.
_ENV_OPTIONS = (
    ("AWS_ACCESS_KEY_ID", "aws_access_key_id"),
    ("AWS_SECRET_ACCESS_KEY", "aws_secret_access_key"),
    ("AWS_SESSION_TOKEN", "aws_session_token"),
    ("AWS_ENDPOINT_URL_S3", "aws_endpoint"),
    ("AWS_ENDPOINT_URL", "aws_endpoint"),
    ("AWS_ENDPOINT", "aws_endpoint"),
    ("AWS_REGION", "aws_region"),
    ("AWS_DEFAULT_REGION", "aws_region"),
    ("AWS_ALLOW_HTTP", "allow_http"),
    ("GOOGLE_SERVICE_ACCOUNT", "google_service_account"),
    ("GOOGLE_APPLICATION_CREDENTIALS", "google_service_account"),
    ("AZURE_STORAGE_ACCOUNT_NAME", "azure_storage_account_name"),
    ("AZURE_STORAGE_ACCOUNT_KEY", "azure_storage_account_key"),
    ("AZURE_STORAGE_SAS_TOKEN", "azure_storage_sas_token"),
)
SETTING_PREFIX = "SAFEREQ_INDEX_STORAGE_"


_USERINFO_RE = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@?#'\"]*@")
_QUERY_VALUE_RE = re.compile(r"([?&;][^=\s&#;'\"<>]+=)[^&\s#;'\"<>]+")
_FRAGMENT_RE = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^\s'\"<>#]*)#[^\s'\"<>]+")


def redact_uri(text: str) -> str:
    """``text`` with every URI's ``user:secret@`` and the values of query parameters (``?sig=…``) replaced by
    ``***``, and a URI's fragment (``#access_token=…``) too: what a location may carry that must never be
    repeated in a message."""
    return _FRAGMENT_RE.sub(r"\1#***", _QUERY_VALUE_RE.sub(r"\1***", _USERINFO_RE.sub(r"\1***@", text)))


class LocationError(ValueError):
    """The index location cannot be used as written (the message says why and what to write instead)."""


@dataclass(frozen=True, slots=True)
class ObjectStoreURI:
    """An index on an object store: ``scheme://bucket/prefix`` (no trailing slash, no credentials)."""

    uri: str

    @property
    def scheme(self) -> str:
        return self.uri.split("://", 1)[0]

    def __str__(self) -> str:
        return self.uri

    def __truediv__(self, name: str) -> ObjectStoreURI:
        return ObjectStoreURI(f"{self.uri}/{name}")


IndexLocation = Path | ObjectStoreURI


def is_uri(value: object) -> bool:
    return isinstance(value, ObjectStoreURI) or (isinstance(value, str) and "://" in value)


def index_location(value: str | Path | ObjectStoreURI, base: Path | None = None) -> IndexLocation:
    """A folder (``~`` expanded, relative to ``base`` if given) or an object-store URI; LocationError if neither."""
    if isinstance(value, ObjectStoreURI):
        return value
    if isinstance(value, Path):
        return value
    text = str(value).strip()
    if "://" not in text:
        path = Path(os.path.expanduser(text))
        return base / path if base is not None and not path.is_absolute() else path
    scheme, rest = text.split("://", 1)
    scheme = scheme.lower()
    if scheme == "file":
        return Path(rest)
    if scheme not in SCHEMES:
        raise LocationError(f"the index location {redact_uri(text)!r} uses {scheme}://, which safereq cannot store an "
                            f"index on; use a folder or one of {', '.join(s + '://' for s in SCHEMES)}")
    bucket = rest.split("/", 1)[0]
    if "@" in bucket or not bucket or "#" in rest or not _allowed_query(scheme, rest):
        raise LocationError(f"the index location must be {scheme}://bucket/prefix, without credentials, a query (?…) "
                            "or a fragment (#…) in it: put credentials in the environment (AWS_ACCESS_KEY_ID, "
                            "AWS_SECRET_ACCESS_KEY, ...)")
    return ObjectStoreURI(f"{scheme}://{rest.rstrip('/')}")


def _allowed_query(scheme: str, rest: str) -> bool:
    """A query is a place for credentials (``?sig=…``): only S3+DynamoDB's own ``ddbTableName`` is accepted."""
    if "?" not in rest:
        return True
    query = rest.split("?", 1)[1]
    return scheme == "s3+ddb" and all(part.split("=", 1)[0] == "ddbTableName" for part in query.split("&"))


def storage_options(location: IndexLocation, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The LanceDB ``storage_options`` for ``location`` (empty for a folder). Holds secrets: never log it."""
    if not isinstance(location, ObjectStoreURI):
        return {}
    env = os.environ if env is None else env
    options: dict[str, str] = {}
    for var, option in _ENV_OPTIONS:
        if env.get(var) and option not in options:
            options[option] = env[var]
    for var, value in env.items():
        if var.startswith(SETTING_PREFIX) and value:
            options[var[len(SETTING_PREFIX):].lower()] = value
    return options


def may_hold_index(location: IndexLocation) -> bool:
    """Worth trying to open: a folder that exists, or any object-store URI (whether the table is there is
    only known by asking the store, which the caller does off the start-up path)."""
    return isinstance(location, ObjectStoreURI) or location.is_dir()
