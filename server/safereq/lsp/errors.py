"""How failures reach the client: a bad request gets an error response that says what was wrong; an internal
failure is logged with its traceback and answered with an error; the server keeps running and keeps its state.

A refusal (a rename onto an existing ID, invalid parameters, a cancelled request) is the user's business, not
a fault: the log gets one line for it, never a traceback (pygls logs every error response with one; see
:class:`OneLineRefusals`).
"""

from __future__ import annotations

import contextvars
import logging
import sys

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


class OneLineRefusals(logging.Filter):
    """On pygls' JSON-RPC logger: an error response our handlers chose gets one line, without traceback.

    Refusals (every code but InternalError) become INFO; an internal error stays ERROR, its traceback having
    been logged once already by :func:`translate`.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, (JsonRpcException, JsonRpcRequestCancelled)):
            return True
        internal = isinstance(exc, JsonRpcInternalError)
        args = record.args if isinstance(record.args, tuple) else ()
        method = f" {args[1]}" if len(args) >= 2 and isinstance(args[1], str) else ""
        request = f"request {args[0]}{method}" if args else "a request"
        record.msg, record.args, record.exc_info, record.exc_text = (
            "%s %s: %s", (request, "failed" if internal else "refused", getattr(exc, "message", exc)), None, None)
        if not internal:
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


# True while pygls structures a message that names a method: a message that does not fit its type is then
# answered and logged in one line by the protocol (server.SafereqProtocol), so pygls' own record of it, with
# a traceback of the validation, is left out (issue 25, item 14: 868 tracebacks in one fuzz run).
reading_a_call = contextvars.ContextVar("reading_a_call", default=False)


class OneLineMalformed(logging.Filter):
    """On pygls' JSON-RPC logger: drop its "Unable to deserialize message" record, with the traceback of the
    validation, for a message the protocol rejects in one line. Any other failure to read a message keeps
    its traceback (an internal error)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not (isinstance(record.msg, str) and record.msg.startswith("Unable to deserialize message")):
            return True
        from cattrs.errors import BaseValidationError

        return not (reading_a_call.get() and isinstance(sys.exc_info()[1], BaseValidationError))


def install_log_filter() -> None:
    logging.getLogger("pygls.protocol.json_rpc").addFilter(OneLineRefusals())
    logging.getLogger("pygls.protocol.json_rpc").addFilter(OneLineMalformed())
