"""The client's ``safereq`` settings: pulled with ``workspace/configuration`` when the client supports it,
else taken from ``workspace/didChangeConfiguration``; applied live (every document is checked again).

Clients that neither answer ``workspace/configuration`` nor push settings can pass the same object as
``initializationOptions``. Settings (client-vscode/package.json): ``safereq.rules`` (rule id → off/error/warning/info/hint, over the
configuration file), ``safereq.llm.baseUrl``, ``safereq.llm.model``, ``safereq.index.path``,
``safereq.corpora.paths``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types

if TYPE_CHECKING:
    from .server import SafereqServer

log = logging.getLogger(__name__)

SECTION = "safereq"
_PULL_TIMEOUT = 5.0


def _can_pull(ls: SafereqServer) -> bool:
    ws = ls.client_capabilities.workspace
    return bool(ws and ws.configuration)


async def pull(ls: SafereqServer) -> None:
    """Ask the client for the ``safereq`` section (no-op when it cannot answer such requests)."""
    if not _can_pull(ls):
        return
    scope = ls.session.folders[0].as_uri() if ls.session.folders else None
    params = types.ConfigurationParams(items=[types.ConfigurationItem(scope_uri=scope, section=SECTION)])
    try:
        result = await asyncio.wait_for(ls.workspace_configuration_async(params), timeout=_PULL_TIMEOUT)
    except Exception as exc:
        log.warning("workspace/configuration failed: %s", exc)
        return
    value = plain(result[0]) if result else None
    if value is not None:  # a client without settings for us answers null: keep what we have
        ls.session.apply_settings(_section(value))


def from_initialization_options(ls: SafereqServer, options: Any) -> None:
    """Settings passed as ``initializationOptions`` (the section itself or ``{"safereq": {...}}``)."""
    value = _section(options)
    if isinstance(value, dict) and value:
        ls.session.apply_settings(value)


async def did_change_configuration(ls: SafereqServer, params: types.DidChangeConfigurationParams) -> None:
    if _can_pull(ls):
        await pull(ls)
    else:
        ls.session.apply_settings(_section(params.settings))
    ls.report_setting_problems()
    ls.publisher.schedule(now=True)
    ls.send_status()


def plain(value: Any) -> Any:
    """JSON-like data as dicts and lists (pygls hands some untyped payloads over as named tuples)."""
    if hasattr(value, "_asdict"):
        value = value._asdict()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def _section(settings: Any) -> Any:
    """The ``safereq`` part of pushed settings (clients send either the section or the whole tree)."""
    settings = plain(settings)
    if isinstance(settings, dict) and isinstance(settings.get(SECTION), dict):
        return settings[SECTION]
    return settings
