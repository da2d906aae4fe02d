"""Document keys: the core's workspace keys documents by file-system path for ``file:`` URIs, by URI otherwise.

Clients spell one file's URI in several ways (``%3A`` or ``:``, upper- or lower-case hex escapes); the path
is the stable name. Unsaved buffers (``untitled:``) and virtual documents keep their URI as the key.
"""

from __future__ import annotations

import os

from pygls.uris import from_fs_path, to_fs_path, uri_scheme


def key_of(uri: str) -> str:
    """The workspace key of ``uri``."""
    if uri_scheme(uri) == "file":
        path = to_fs_path(uri)
        if path:
            return os.path.normpath(path)
    return uri


def uri_of(key: str) -> str:
    """The URI of a workspace key (a path becomes a ``file:`` URI)."""
    if os.path.isabs(key):
        return from_fs_path(key) or key
    return key


def is_path(key: str) -> bool:
    return os.path.isabs(key)
