"""A multi-root workspace: each folder checked with its own safereq.toml, links resolved across the folders,
and a broken configuration file reported on that file."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import capabilities, codes, server_config, wait_until

pytestmark = pytest.mark.asyncio(loop_scope="module")

GOALS_A = """# Safety goals of team A

## SG-1: Keep the vehicle in its lane

The vehicle shall not leave its lane unintentionally.

- ASIL: B

## SG-2: Avoid unintended braking

The braking system shall not apply an unintended deceleration above 0.3 g.

- ASIL: C
"""

DRAFT_A = """# Draft

## FSR-90: Draft requirement

The draft function shall limit its output to 5 Nm.

- ASIL: B
- Derived from: SG-404
"""

FSR_B = """# Functional safety requirements of team B

## FSR-1: Monitor the lane-keeping torque

The lane-keeping function shall limit its steering torque to 3 Nm.

- ASIL: B
- Derived from: SG-1

## FSR-2: Monitor the actuator

The actuator monitor shall detect a stuck actuator within 50 ms.

- ASIL: B
- Derived from: SG-77
"""

GOALS_B = """# Safety goals of team B

## SG-10: Avoid unintended acceleration

The powertrain shall not accelerate the vehicle unintentionally.

- ASIL: C
"""


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("multi")
    a, b = root / "team-a", root / "team-b"
    (a / "drafts").mkdir(parents=True)
    (b / "drafts").mkdir(parents=True)
    (a / "safereq.toml").write_text('[rules]\n"trace/goal-without-children" = "off"\n', encoding="utf-8")
    (b / "safereq.toml").write_text('exclude = ["drafts/**"]\n', encoding="utf-8")
    (a / "goals.md").write_text(GOALS_A, encoding="utf-8")
    (a / "drafts" / "notes.md").write_text(DRAFT_A, encoding="utf-8")
    (b / "fsr.md").write_text(FSR_B, encoding="utf-8")
    (b / "goals.md").write_text(GOALS_B, encoding="utf-8")
    (b / "drafts" / "notes.md").write_text(DRAFT_A.replace("FSR-90", "FSR-91"), encoding="utf-8")
    return a, b


@pytest_lsp.fixture(scope="module", config=server_config())
async def client(lsp_client: LanguageClient, folders: tuple[Path, Path]):
    a, b = folders
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities(), root_uri=a.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in (a, b)],
    ))
    await wait_until(lsp_client, lambda: any(s.get("state") in ("ready", "error") for s in lsp_client.statuses),
                     method="safereq/status")
    yield
    await lsp_client.shutdown_session()


async def test_links_resolve_across_folders_and_each_folder_keeps_its_rules(client: LanguageClient,
                                                                            folders: tuple[Path, Path]):
    a, b = folders
    fsr_b = (b / "fsr.md").as_uri()
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, fsr_b))
    dangling = [d for d in client.diagnostics[fsr_b] if d.code == "trace/dangling-link"]
    assert len(dangling) == 1 and "SG-77" in dangling[0].message  # SG-1 (team A) resolved; SG-77 does not exist
    # trace/goal-without-children is off in team A only: team B's childless goal is reported, team A's is not
    await wait_until(client, lambda: "trace/goal-without-children" in codes(client, (b / "goals.md").as_uri()))
    assert "trace/goal-without-children" not in codes(client, (a / "goals.md").as_uri())
    # excludes are per folder: team B leaves drafts/ out, team A checks them
    await wait_until(client, lambda: "trace/dangling-link" in codes(client, (a / "drafts" / "notes.md").as_uri()))
    assert not client.diagnostics.get((b / "drafts" / "notes.md").as_uri())


async def test_a_broken_configuration_is_reported_on_its_own_folders_file(client: LanguageClient,
                                                                         folders: tuple[Path, Path]):
    a, b = folders
    config = b / "safereq.toml"
    good = config.read_text(encoding="utf-8")
    config.write_text(good + '[rules]\n"trace/no-such-rule" = "error"\n', encoding="utf-8")
    event = types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[event]))
    await wait_until(client, lambda: client.diagnostics.get(config.as_uri()))
    (diag,) = client.diagnostics[config.as_uri()]
    assert "trace/no-such-rule" in diag.message and diag.range.start.line == 2
    assert not client.diagnostics.get((a / "safereq.toml").as_uri())
    # team A's configuration still applies while team B's file is broken
    assert "trace/goal-without-children" not in codes(client, (a / "goals.md").as_uri())
    config.write_text(good, encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[event]))
    await wait_until(client, lambda: not client.diagnostics.get(config.as_uri()))


async def test_kinds_that_differ_from_the_first_folders_are_a_warning_on_that_file(client: LanguageClient,
                                                                                  folders: tuple[Path, Path]):
    a, b = folders
    for folder, name in ((a, "system requirement"), (b, "subsystem requirement")):
        toml = folder / "safereq.toml"
        toml.write_text(toml.read_text(encoding="utf-8") + f'\n[kinds]\nSYSR = {{ name = "{name}" }}\n',
                        encoding="utf-8")
    event = types.FileEvent(uri=(b / "safereq.toml").as_uri(), type=types.FileChangeType.Changed)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[event]))
    uri = (b / "safereq.toml").as_uri()
    await wait_until(client, lambda: client.diagnostics.get(uri))
    (diag,) = client.diagnostics[uri]
    assert diag.severity == types.DiagnosticSeverity.Warning and "not used" in diag.message
    assert diag.range.start.line == 2  # the [kinds] line
    assert not client.diagnostics.get((a / "safereq.toml").as_uri())
