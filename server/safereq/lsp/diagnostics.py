"""Findings → ``textDocument/publishDiagnostics``, debounced, for the edited documents and every document whose
findings changed because of the edit (a fixed ID clears a dangling link elsewhere; a raised ASIL flags children).

Publishing waits for a short pause in typing (``SAFEREQ_LSP_DEBOUNCE_MS``, default 150 ms, at most 1 s behind a
continuous burst). The edited documents are always published, so a client can wait for the notification;
other documents only when their findings differ from what was last sent. Conversion is cached per finding
object (findings of unchanged items are the very same objects from one check to the next) and goes straight
to JSON data: a 2,000-requirement document carries hundreds of diagnostics, and building and unstructuring
lsprotocol objects for all of them on every keystroke would cost more than the rest of the LSP layer.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from ..checks.findings import Finding
from ..data import rules_dir
from .uris import uri_of

if TYPE_CHECKING:
    from .server import SafereqServer
    from .session import Session

log = logging.getLogger(__name__)

DEFAULT_DELAY = 0.150
MAX_DELAY = 1.0
SOURCE = "safereq"
_TAGS = {"unnecessary": types.DiagnosticTag.Unnecessary, "deprecated": types.DiagnosticTag.Deprecated}


def _delay_from_env() -> float:
    raw = os.environ.get("SAFEREQ_LSP_DEBOUNCE_MS")
    try:
        return max(0.0, float(raw) / 1000) if raw else DEFAULT_DELAY
    except ValueError:
        return DEFAULT_DELAY


def rule_page(rule_id: str) -> str | None:
    """A link to the rule's documentation page (the shipped Markdown file), when there is one."""
    path = rules_dir() / "docs" / f"{rule_id.replace('/', '-')}.md"
    return path.as_uri() if path.is_file() else None


class Converter:
    """Turns findings into Diagnostics for one client's capabilities."""

    def __init__(self, session: Session, capabilities: types.ClientCapabilities) -> None:
        self.session = session
        pd = capabilities.text_document.publish_diagnostics if capabilities.text_document else None
        self.related = bool(pd and pd.related_information)
        self.code_description = bool(pd and pd.code_description_support)
        tag_support = pd.tag_support if pd else None
        self.tags = set(tag_support.value_set) if tag_support else set()
        self._pages: dict[str, str | None] = {}

    def _page(self, rule: str) -> str | None:
        if rule not in self._pages:
            self._pages[rule] = rule_page(rule)
        return self._pages[rule]

    def diagnostic(self, f: Finding, lines: list[str]) -> dict[str, Any]:
        """The Diagnostic of ``f`` as JSON data (the shape of ``lsprotocol.types.Diagnostic``)."""
        session = self.session
        codec = session.codec
        out: dict[str, Any] = {"range": codec.range_json(lines, f.span), "message": f.message,
                               "severity": int(f.severity), "code": f.rule, "source": SOURCE}
        page = self._page(f.rule) if self.code_description else None
        if page:
            out["codeDescription"] = {"href": page}
        if self.related and f.related:
            out["relatedInformation"] = [
                {"location": {"uri": session.uri(r.path), "range": codec.range_json(session.lines(r.path), r.span)},
                 "message": r.message}
                for r in f.related
            ]
        tags = [int(_TAGS[t]) for t in sorted(f.tags) if t in _TAGS and _TAGS[t] in self.tags]
        if tags:
            out["tags"] = tags
        return out


class Publisher:
    """Schedules checks after edits and publishes what changed."""

    def __init__(self, server: SafereqServer) -> None:
        self.server = server
        self.delay = _delay_from_env()
        self._converter: Converter | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._first_request: float | None = None
        self._edited: set[str] = set()
        self._published: dict[str, list[Finding]] = {}
        self._cache: dict[str, dict[int, tuple[Finding, dict[str, Any]]]] = {}
        self._config_uris: set[str] = set()  # the configuration files that have diagnostics now
        self.timings: list[float] = []  # seconds of work per flush, for benchmarks and the debug log

    @property
    def converter(self) -> Converter:
        if self._converter is None:
            self._converter = Converter(self.server.session, self.server.client_capabilities)
        return self._converter

    def schedule(self, keys: set[str] | frozenset[str] = frozenset(), *, now: bool = False) -> None:
        """Publish after the debounce delay (or on the next loop turn with ``now``); ``keys`` were edited."""
        self._edited |= set(keys)
        if not self.server.session.loaded:
            return  # the initial load publishes everything once it is complete
        loop = asyncio.get_running_loop()
        if self._first_request is None:
            self._first_request = loop.time()
        if self._handle is not None:
            self._handle.cancel()
        wait = 0.0 if now else min(self.delay, max(0.0, self._first_request + MAX_DELAY - loop.time()))
        self._handle = loop.call_later(wait, self.flush)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def flush(self) -> None:
        """Check and publish now; a failure is logged and leaves the previous diagnostics in place."""
        self._handle = None
        self._first_request = None
        start = time.perf_counter()
        try:
            self._publish_changes()
        except Exception:
            log.exception("checking the workspace failed")
            self.server.log_error("safereq: checking the workspace failed; see the server log for details")
        self.timings.append(time.perf_counter() - start)
        if len(self.timings) > 1000:
            del self.timings[:500]
        log.debug("diagnostics flush took %.1f ms", self.timings[-1] * 1000)

    def _publish_changes(self) -> None:
        session = self.server.session
        edited, self._edited = self._edited, set()
        findings = session.findings()
        for key in sorted(set(findings) | set(self._published) | edited):
            new = findings.get(key, [])
            if key not in edited and self._published.get(key, []) == new:
                continue
            known = key in session.workspace.documents or key in session.problems or key in session.open
            if (not known or key in session.ignored) and not self._published.get(key):
                continue  # nothing to say, and nothing said before: a non-Markdown buffer gets no diagnostics
            self._publish(key, new)
            if new:
                self._published[key] = new
            else:
                self._published.pop(key, None)
                self._cache.pop(key, None)

    def _publish(self, key: str, found: list[Finding]) -> None:
        session = self.server.session
        lines = session.lines(key)
        old = self._cache.get(key, {})
        cache: dict[int, tuple[Finding, dict[str, Any]]] = {}
        diagnostics = []
        for f in found:
            hit = old.get(id(f))
            if hit is None or hit[0] is not f:
                hit = (f, self.converter.diagnostic(f, lines))
            cache[id(f)] = hit
            diagnostics.append(hit[1])
        self._cache[key] = cache
        self._send(session.uri(key), diagnostics, session.version(key))

    def forget(self, key: str) -> None:
        """A document left the workspace: clear its diagnostics on the next flush."""
        self._edited.add(key)

    def publish_config_error(self) -> None:
        """Each configuration file's error as a diagnostic on that file, at the offending line (or cleared).

        One file per workspace folder (folders.py): an error is an Error; [kinds] a folder cannot use, a Warning.
        """
        session = self.server.session
        errors = list(session.config_errors) or ([session.config_error] if session.config_error else [])
        by_uri: dict[str, list[dict[str, Any]]] = {}
        for err in errors:
            if err.path is None:
                continue
            line = max(0, (err.line or 1) - 1)
            unused_kinds = bool(session.folder_configs) and all(err is not c.error for c in session.folder_configs)
            severity = types.DiagnosticSeverity.Warning if unused_kinds else types.DiagnosticSeverity.Error
            by_uri.setdefault(uri_of(os.path.abspath(err.path)), []).append(
                {"range": {"start": {"line": line, "character": 0}, "end": {"line": line + 1, "character": 0}},
                 "message": err.message, "severity": int(severity), "code": "config", "source": SOURCE})
        for old in self._config_uris - set(by_uri):
            self._send(old, [])
        for uri, diagnostics in by_uri.items():
            self._send(uri, diagnostics)
        self._config_uris = set(by_uri)

    def _send(self, uri: str, diagnostics: list[dict[str, Any]], version: int | None = None) -> None:
        params: dict[str, Any] = {"uri": uri, "diagnostics": diagnostics}
        if version is not None:
            params["version"] = version
        self.server.protocol.send_json_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)
