"""How failures reach the client: a bad request gets an error response that says what was wrong; an internal
failure is logged with its traceback and answered with an error; the server keeps running and keeps its state.
"""

from __future__ import annotations

import logging

from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams, JsonRpcRequestCancelled

log = logging.getLogger("safereq.lsp")


class RequestFailed(JsonRpcException):
    """LSP ``RequestFailed``: the request was valid but cannot be carried out (e.g. a rename onto an existing ID)."""

    CODE = -32803
    MESSAGE = "Request failed"


def invalid(message: str) -> JsonRpcInvalidParams:
    return JsonRpcInvalidParams(message=message)


def failed(message: str) -> RequestFailed:
    return RequestFailed(message=message)


def translate(method: str, exc: BaseException) -> BaseException:
    """The JSON-RPC error to answer with for an exception raised while handling ``method``."""
    from ..workspace.refactor import RenameError
    from .documents import ChangeError
    from .positions import PositionError
    from .session import UnknownDocument

    if isinstance(exc, (JsonRpcException, JsonRpcRequestCancelled)):
        return exc
    if isinstance(exc, (UnknownDocument, PositionError, ChangeError)):
        log.warning("%s: %s", method, exc)
        return invalid(str(exc))
    if isinstance(exc, RenameError):
        return failed(str(exc))
    log.error("%s failed", method, exc_info=exc)
    return JsonRpcInternalError(message=f"safereq: {method} failed: {type(exc).__name__}: {exc}")
