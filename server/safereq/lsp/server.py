"""The language server's wiring: which LSP method goes to which feature module, and nothing else.

Start-up speed matters (editors wait for ``initialize``), so this module imports only pygls, lsprotocol and the
standard library. Feature modules, and through them the core (parser, checks, rule data), are imported on
first use, which :mod:`.loading` triggers right after ``initialized``; the knowledge base and the agent load
later still, only when a feature needs them. Every handler runs inside a guard that turns exceptions into
JSON-RPC errors (requests) or logged messages (notifications), so one failure never stops the server.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import FeatureRequestError, JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from .. import __version__
from . import command_names as names
from .positions import UTF16, choose_encoding

if TYPE_CHECKING:
    from .agent_client import AgentClient
    from .diagnostics import Publisher
    from .indexing import Run as IndexingRun
    from .knowledge_bridge import KnowledgeReader
    from .session import Session

log = logging.getLogger(__name__)

_NOTIFICATIONS = {
    types.INITIALIZED, types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE, types.TEXT_DOCUMENT_DID_CLOSE,
    types.TEXT_DOCUMENT_DID_SAVE, types.WORKSPACE_DID_CHANGE_WATCHED_FILES, types.WORKSPACE_DID_CREATE_FILES,
    types.WORKSPACE_DID_RENAME_FILES, types.WORKSPACE_DID_DELETE_FILES, types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS,
    types.WORKSPACE_DID_CHANGE_CONFIGURATION,
}


def _file_operations() -> types.FileOperationRegistrationOptions:
    pattern = types.FileOperationPattern
    return types.FileOperationRegistrationOptions(filters=[
        types.FileOperationFilter(pattern=pattern(glob="**/*.{md,markdown}", matches=types.FileOperationPatternKind.File)),
        types.FileOperationFilter(pattern=pattern(glob="**", matches=types.FileOperationPatternKind.Folder)),
    ])


# (method, module, function, is_async, options)
FEATURES: list[tuple[str, str, str, bool, Any]] = [
    (types.INITIALIZED, "loading", "initialized", True, None),
    (types.TEXT_DOCUMENT_DID_OPEN, "sync", "did_open", False, None),
    (types.TEXT_DOCUMENT_DID_CHANGE, "sync", "did_change", False, None),
    (types.TEXT_DOCUMENT_DID_CLOSE, "sync", "did_close", False, None),
    (types.TEXT_DOCUMENT_DID_SAVE, "sync", "did_save", False, types.SaveOptions(include_text=False)),
    (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, "sync", "did_change_watched_files", False, None),
    (types.WORKSPACE_DID_CREATE_FILES, "sync", "did_create_files", False, _file_operations()),
    (types.WORKSPACE_DID_RENAME_FILES, "sync", "did_rename_files", False, _file_operations()),
    (types.WORKSPACE_DID_DELETE_FILES, "sync", "did_delete_files", False, _file_operations()),
    (types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, "sync", "did_change_workspace_folders", True, None),
    (types.WORKSPACE_DID_CHANGE_CONFIGURATION, "config_sync", "did_change_configuration", True, None),
    (types.TEXT_DOCUMENT_HOVER, "hover", "hover", True, None),
    (types.TEXT_DOCUMENT_DEFINITION, "navigation", "definition", False, None),
    (types.TEXT_DOCUMENT_REFERENCES, "navigation", "references", True, None),
    (types.TEXT_DOCUMENT_PREPARE_RENAME, "navigation", "prepare_rename", False, None),
    (types.TEXT_DOCUMENT_RENAME, "navigation", "rename", True, None),
    (types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, "navigation", "document_symbols", False, None),
    (types.WORKSPACE_SYMBOL, "navigation", "workspace_symbols", True, None),
    (types.TEXT_DOCUMENT_COMPLETION, "completion", "completion", False,
     types.CompletionOptions(trigger_characters=[",", " ", ":", "§", "(", "-"], resolve_provider=False)),
    (types.TEXT_DOCUMENT_CODE_LENS, "lens", "code_lens", False, types.CodeLensOptions(resolve_provider=False)),
    (types.TEXT_DOCUMENT_INLAY_HINT, "lens", "inlay_hints", False, types.InlayHintOptions(resolve_provider=False)),
    (types.TEXT_DOCUMENT_CODE_ACTION, "actions", "code_actions", False,
     types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, "refactor.safereq",
                                               types.CodeActionKind.SourceFixAll, "source.fixAll.safereq"],
                            resolve_provider=False)),
]

# (command, module, function, whether it takes the command's name): ``workspace/executeCommand``. Like the
# features, each module is imported on the first call; the function takes (ls, [command,] arguments), may be
# async, and returns the command's JSON result (client-vscode/src/protocol.ts has the shapes).
COMMANDS: list[tuple[str, str, str, bool]] = [
    (names.SHOW_TRACE, "commands", "show_trace_command", True),
    (names.MARK_REVIEWED, "impact", "mark_reviewed", False),
    (names.INDEX_KNOWLEDGE_BASE, "indexing", "index_knowledge_base", False),  # in a thread of the server
    (names.DERIVE_REQUIREMENTS, "agent_actions", "run_agent_command", True),  # in the agent's worker process
    (names.SUGGEST_TRACE_LINKS, "agent_actions", "run_agent_command", True),
    (names.SUGGEST_REBUTTALS, "agent_actions", "run_agent_command", True),
    (names.REVIEW_ACCEPT, "review", "run_review_command", True),  # a plain edit of the current text
    (names.REVIEW_REJECT, "review", "run_review_command", True),
    (names.COVERAGE, "report_bridge", "run", True),
    (names.WRITE_REPORT, "report_bridge", "run", True),
    (names.ACCEPT_FINDING, "deviation_actions", "accept_finding", False),  # writes an accepted deviation
    (names.FIX_ALL, "fix_all", "fix_all_command", False),  # the safe fixes of one document
]


@dataclass(frozen=True, slots=True)
class _Malformed:
    """A message whose params could not be read; requests among them get an InvalidParams answer."""

    id: int | str | None
    method: str
    reason: str


def _reason(exc: Exception) -> str:
    """What was wrong with a message, e.g. "required field missing @ $.params.position"."""
    cause = exc.__cause__
    try:
        from cattrs import transform_error

        return "; ".join(transform_error(cause)) if cause is not None else str(exc)
    except Exception:
        return str(cause or exc)


class SafereqProtocol(LanguageServerProtocol):
    """pygls' protocol with two changes: our position-encoding preference, and text sync left to us.

    pygls would keep its own copy of every open document; :mod:`.documents` keeps ours (incremental, with
    version and range checks), so the built-in handlers only pass the notifications on.
    """

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        general = params.capabilities.general
        offered = list(general.position_encodings or []) if general else []
        chosen = choose_encoding(offered)
        if general is not None and offered:
            # pygls takes the first supported encoding in the client's list: put ours first.
            general.position_encodings = [e for e in offered if str(getattr(e, "value", e)) == chosen] + \
                [e for e in offered if str(getattr(e, "value", e)) != chosen]
        return (yield from super().lsp_initialize(params))

    def structure_message(self, data: dict[str, Any]):
        """pygls drops a request whose params do not fit the method's type without answering; answer it (and
        log it in one line: pygls' own log record of it, with a traceback, is left out)."""
        from .errors import reading_a_call

        call = isinstance(data, dict) and "method" in data
        token = reading_a_call.set(call)
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if call:
                return _Malformed(data.get("id"), str(data["method"]), _reason(exc))
            raise
        finally:
            reading_a_call.reset(token)

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Malformed):
            log.warning("malformed %s message: %s", message.method, message.reason)
            if message.id is not None:
                error = JsonRpcInvalidParams(message=f"invalid parameters for {message.method}: {message.reason}")
                self._send_response(message.id, error=error.to_response_error())
            return
        super().handle_message(message)

    def send_json_notification(self, method: str, params: dict[str, Any]) -> None:
        """Send a notification whose params are JSON data already (no lsprotocol objects to unstructure)."""
        self._send_data({"jsonrpc": self.VERSION, "method": method, "params": params})

    def _forward(self, method: str, params: Any):
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        yield from self._forward(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        yield from self._forward(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        yield from self._forward(types.TEXT_DOCUMENT_DID_CLOSE, params)


class SafereqServer(LanguageServer):
    """The pygls server plus the session (created on first use) and the diagnostics publisher."""

    def __init__(self) -> None:
        super().__init__("safereq", __version__, protocol_cls=SafereqProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.encoding = UTF16
        self.folders: list[Path] = []
        self.client_name = ""
        self.initialization_options: Any = None
        self._session: Session | None = None
        self._publisher: Publisher | None = None
        self._knowledge: KnowledgeReader | None = None
        # The agent's worker client (lsp/agent_actions.py; created on the first suggestion) and the indexing
        # run under way (lsp/indexing.py), if any.
        self.agent_client: AgentClient | None = None
        self.indexing: IndexingRun | None = None

    @property
    def session(self) -> Session:
        if self._session is None:
            from .session import Session

            self._session = Session(self.encoding, list(self.folders))
        return self._session

    protocol: SafereqProtocol

    @property
    def publisher(self) -> Publisher:
        if self._publisher is None:
            from .diagnostics import Publisher

            self._publisher = Publisher(self)
        return self._publisher

    @property
    def knowledge(self) -> KnowledgeReader:
        if self._knowledge is None:
            from .knowledge_bridge import KnowledgeReader

            self._knowledge = KnowledgeReader(on_open=self.send_status)
        return self._knowledge

    # -- messages to the client ----------------------------------------------------------------------------
    def send_status(self, state: str | None = None, message: str | None = None) -> None:
        """``safereq/status``; without arguments, the state that follows from the session."""
        from .status import METHOD, payload

        session = self._session
        indexing = self.indexing
        if state is None and indexing is not None:
            from .indexing import status_message

            state, message = "indexing", status_message(indexing)
        if state is None:
            if session is not None and session.config_error is not None:
                state, message = "error", f"configuration error: {session.config_error}"
            else:
                state = "ready" if session is not None and session.loaded else "starting"
                if message is None and session is not None:
                    docs = len(session.workspace.documents)
                    items = sum(len(d.items) for d in session.workspace.documents.values())
                    message = f"{docs} documents, {items} items"
                    if self._knowledge is not None and self._knowledge.state == "open":
                        message += "; knowledge base open"
        problem = self._knowledge.damaged if self._knowledge is not None else None
        self.protocol.notify(METHOD, payload(session, state, message or "", problem))

    def log_error(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))

    def report_setting_problems(self) -> None:
        from ..config.environment import misspelt

        problems = [*self.session.setting_problems, *misspelt()]
        if problems:
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning,
                message="safereq: some settings were ignored: " + "; ".join(problems)))

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Errors outside requests (notification handlers, transport) go to the log, not to pop-ups.

        A failed request is not reported here: its error response already tells the client.
        """
        if source is FeatureRequestError:
            return
        log.error("%s", error)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=f"safereq: {error}"))
        except Exception:  # the transport itself may be what failed
            pass


def _bind(method: str, module: str, name: str, is_async: bool):
    """A handler that imports ``module`` on first call and guards the call (see module docstring)."""
    path = f"{__package__}.{module}"
    notification = method in _NOTIFICATIONS

    def target():
        return getattr(import_module(path), name)

    def fail(ls: SafereqServer, exc: Exception):
        from .errors import translate

        error = translate(method, exc)
        if notification:
            ls.log_error(f"safereq: {method}: {getattr(error, 'message', error)}")
            return None
        raise error from exc

    if is_async:
        async def handler(ls: SafereqServer, params: Any):
            try:
                return await target()(ls, params)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                return fail(ls, exc)
    else:
        def handler(ls: SafereqServer, params: Any):
            try:
                return target()(ls, params)
            except Exception as exc:
                return fail(ls, exc)
    handler.__name__ = f"{module}_{name}"
    return handler


def _command(name: str, module: str, function: str, with_name: bool):
    """The handler of one command: imports ``module`` on first call, errors become JSON-RPC errors."""
    path = f"{__package__}.{module}"

    async def run(ls: SafereqServer, *args: Any):
        from .errors import translate

        try:
            fn = getattr(import_module(path), function)
            result = fn(ls, name, list(args)) if with_name else fn(ls, list(args))
            return await result if asyncio.iscoroutine(result) else result
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise translate(f"workspace/executeCommand {name}", exc) from exc
    run.__name__ = f"command_{module}_{function}"
    return run


def create_server() -> SafereqServer:
    ls = SafereqServer()

    @ls.feature(types.INITIALIZE)
    def initialize(ls: SafereqServer, params: types.InitializeParams) -> None:
        ls.encoding = str(ls.workspace.position_encoding or UTF16)
        ls.client_name = params.client_info.name if params.client_info else ""
        ls.initialization_options = params.initialization_options
        folders = [f.uri for f in params.workspace_folders or []] or ([params.root_uri] if params.root_uri else [])
        from pygls.uris import to_fs_path

        ls.folders = [Path(os.path.normpath(p)) for p in (to_fs_path(u) for u in folders) if p]

    @ls.feature(types.SHUTDOWN)
    def shutdown(ls: SafereqServer, params: Any) -> None:
        if ls._publisher is not None:
            ls._publisher.cancel()
        if getattr(ls, "_safereq_agent", None) is not None:
            from .agent_actions import stop

            stop(ls)

    for method, module, name, is_async, options in FEATURES:
        ls.feature(method, options)(_bind(method, module, name, is_async))
    for name, module, function, with_name in COMMANDS:
        ls.command(name)(_command(name, module, function, with_name))
    return ls


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Run the server on stdio (default) or, for debugging, on a TCP port."""
    from .errors import install_log_filter

    install_log_filter()
    ls = create_server()
    if tcp is not None:
        ls.start_tcp(*tcp)
    else:
        ls.start_io()
