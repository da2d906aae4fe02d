"""The review workflow through a real LSP client: suggestions are proposed as a review block (derived
requirements in the document where items of their kind live, written like their neighbours), and each one is
accepted or rejected with the code lens on it; accepted trace links are merged into the item's attributes.

The client here behaves like an editor: it applies the server's WorkspaceEdits to its own copy of the text
and sends the result back as didChange, so every next request sees what the user would see. The agent runs
offline over the clause catalogue (no index, no endpoint), exactly as ``safereq derive`` does on the command
line, which the equality test runs too.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from safereq.workspace import Workspace

from .conftest import SERVER_COMMAND, SERVER_ENV, copy_fixture, execute, field, start
from .editor import make_editor_client, open_doc, set_text

pytestmark = pytest.mark.asyncio(loop_scope="module")
HEADER = "> **safereq review: "


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, server_env=dict(SERVER_ENV), client_factory=make_editor_client)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_fixture("review", tmp_path_factory.mktemp("ws"))


@pytest_lsp.fixture(scope="module", config=CONFIG)
async def client(lsp_client: LanguageClient, root: Path):
    await start(lsp_client, root)
    open_doc(lsp_client, root / "fsr.md")
    yield
    await lsp_client.shutdown_session()


async def lenses(client: LanguageClient, uri: str) -> list[types.CodeLens]:
    found = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri=uri)))
    return [lens for lens in found or [] if lens.command.command.startswith("safereq.review.")]


def text_of(client: LanguageClient, root: Path, name: str) -> str:
    uri = (root / name).as_uri()
    return client.texts[uri][1] if uri in client.texts else (root / name).read_text(encoding="utf-8")


def review_lines(text: str) -> list[str]:
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(HEADER))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith(">")), len(lines))
    return lines[start:end]


def cli(root: Path, task: str, target: str) -> str:
    out = subprocess.run([sys.executable, "-m", "safereq", task, f"{root / 'fsr.md'}#{target}",
                          "--index-dir", str(root / "no-index")], capture_output=True, text=True, timeout=120,
                         env=SERVER_ENV)
    assert out.returncode == 0, out.stderr
    return out.stdout


async def test_derived_requirements_are_proposed_in_the_document_of_their_kind(client: LanguageClient, root: Path):
    before_fsr = text_of(client, root, "fsr.md")
    tsc_before = (root / "tsc.md").read_text(encoding="utf-8")
    result = await execute(client, "safereq.deriveRequirements", (root / "fsr.md").as_uri(), "FSR-1")
    count = field(result, "count")
    assert field(result, "applied") is True and count > 0
    assert field(result, "message") == (f"Derive requirements for FSR-1: {count} suggestion{'s' if count > 1 else ''} "
                                        "proposed for review in tsc.md (offline); accept or reject each one there.")
    assert text_of(client, root, "fsr.md") == before_fsr  # nothing written under the FSR
    tsc = text_of(client, root, "tsc.md")
    block = review_lines(tsc)
    assert block[0].startswith("> **safereq review: derived requirements from FSR-1** — ")
    # After TSR-2, the last TSR derived from FSR-1, before TSR-3 (derived from FSR-2).
    lines = tsc.split("\n")
    at = lines.index(block[0])
    assert lines[at - 1] == "" and lines[at - 2] == "- ASIL: B" and "TSR-2" in "\n".join(lines[at - 6:at])
    assert lines[at + len(block)] == "" and lines[at + len(block) + 1].startswith("### TSR-3:")
    assert tsc.replace("\n".join(block) + "\n\n", "") == tsc_before
    # Written like the neighbours: level-3 headings straight followed by the statement, "Derived from" before
    # "ASIL", no blank line before the attributes, prose wrapped at the document's 100 columns.
    headings = [i for i, line in enumerate(block) if line.startswith("> ### TSR-")]
    assert len(headings) == count
    for h in headings:
        assert block[h + 1].startswith("> ") and not block[h + 1].startswith("> -")
        attrs = [line for line in block[h:h + 20] if line.startswith("> - ")]
        assert attrs[0] == "> - Derived from: FSR-1" and attrs[1].startswith("> - ASIL: ")
    assert all(len(line) - 2 <= 100 for line in block if not line.startswith(("> cites ", HEADER)))
    (shown,) = client.revealed
    assert shown.uri == (root / "tsc.md").as_uri() and shown.selection.start.line == at


async def test_editor_and_cli_give_the_same_suggestions_and_citations(client: LanguageClient, root: Path):
    out = cli(root, "derive", "FSR-1")
    block = review_lines(text_of(client, root, "tsc.md"))
    editor_cites = [line[2:] for line in block if line.startswith("> cites ")]
    cli_cites = [line.strip() for line in out.split("\n") if line.startswith("  cites ")]
    assert editor_cites == cli_cites  # the refinements of FSR-1 rest on its own words: no clause is about them
    assert all(" (verified): " in c or " (summary by safereq, not the standard's words): " in c for c in cli_cites)
    rebut_cites = [line.strip() for line in cli(root, "rebut", "FSR-1").split("\n") if line.startswith("  cites ")]
    assert rebut_cites and all(re.search(r":20\d\d ", c) for c in rebut_cites)  # the edition is there
    cli_ids = [line.split(":")[0] for line in out.split("\n") if line.startswith("TSR-")]
    assert [line.split()[2].rstrip(":") for line in block if line.startswith("> ### ")] == cli_ids
    cli_statements = [out.split("\n")[i + 1].strip() for i, line in enumerate(out.split("\n")) if line.startswith("TSR-")]
    ws = Workspace()
    items = "\n".join(line[2:] for line in block if not line.startswith("> cites "))  # the entries, as items
    ws.update(str(root / "tsc.md"), items)
    assert [it.statement.text for it in ws.documents[str(root / "tsc.md")].items] == cli_statements


async def test_accepting_one_derived_requirement_writes_it_in_place(client: LanguageClient, root: Path):
    uri = (root / "tsc.md").as_uri()
    found = await lenses(client, uri)
    accepts = [lens for lens in found if lens.command.title == "Accept"]
    total = len(accepts)
    assert {lens.command.title for lens in found} >= {"Accept", "Reject", f"Accept all {total}", f"Reject all {total}"}
    block = review_lines(text_of(client, root, "tsc.md"))
    first = next(line for line in block if line.startswith("> ### "))
    new_id = first.split()[2].rstrip(":")
    result = await execute(client, accepts[0].command.command, *accepts[0].command.arguments)
    assert field(result, "applied") is True and field(result, "accepted") == 1 and field(result, "left") == total - 1
    assert field(result, "message") == (f"FSR-1: 1 suggestion accepted (1 derived requirement written into the "
                                        f"document); {total - 1} left for review.")
    tsc = text_of(client, root, "tsc.md")
    ws = Workspace()
    ws.update(str(root / "tsc.md"), tsc)
    item = ws.item(new_id)
    assert item.level == 3 and [a.key for a in item.attributes][:2] == ["derived-from", "asil"]
    assert [a.key for a in item.attributes][-2:] == ["status", "rationale"]
    assert item.attribute("derived-from").value == "FSR-1"
    assert all("UNVERIFIED" not in a.value for a in item.attributes)
    lines = tsc.split("\n")
    assert lines[item.line + 1] == (
        next(line for line in block[block.index(first) + 1:])[2:])  # the statement right under the heading
    written = lines[item.line:lines.index("", item.line)]
    assert all(len(line) <= 100 for line in written) and written[-1].startswith(("- Rationale: ", "  "))
    assert not any(line.startswith("cites ") for line in lines)  # citation lines stay in the review
    assert len(review_lines(tsc)) < len(block) and f"### {new_id}:" not in "\n".join(review_lines(tsc))
    assert f"— {total - 1} suggestion{'s' if total > 2 else ''} proposed" in review_lines(tsc)[0]


async def test_a_stale_decision_is_refused(client: LanguageClient, root: Path):
    uri = (root / "tsc.md").as_uri()
    (lens, *_) = [lens for lens in await lenses(client, uri) if lens.command.title == "Reject"]
    set_text(client, uri, client.texts[uri][1] + "\n")  # the user types something
    before = client.texts[uri][1]
    client.edits.clear()
    result = await execute(client, lens.command.command, *lens.command.arguments)
    assert field(result, "applied") is False and client.edits == [] and client.texts[uri][1] == before
    assert "changed since this suggestion was shown" in field(result, "message")


async def test_rejecting_removes_that_suggestion_then_the_block(client: LanguageClient, root: Path):
    uri = (root / "tsc.md").as_uri()
    rejects = [lens for lens in await lenses(client, uri) if lens.command.title == "Reject"]
    left = len(rejects)
    result = await execute(client, rejects[-1].command.command, *rejects[-1].command.arguments)
    assert field(result, "rejected") == 1 and field(result, "left") == left - 1
    if left - 1:
        (reject_all,) = [lens for lens in await lenses(client, uri) if lens.command.title.startswith("Reject all")] or [
            next(lens for lens in await lenses(client, uri) if lens.command.title == "Reject")]
        result = await execute(client, reject_all.command.command, *reject_all.command.arguments)
        assert field(result, "message").endswith("the review block is closed.")
    tsc = text_of(client, root, "tsc.md")
    assert HEADER not in tsc and "\n\n\n" not in tsc and await lenses(client, uri) == []


async def test_accepted_trace_links_move_into_the_attributes_without_duplicates(client: LanguageClient, root: Path):
    uri = (root / "fsr.md").as_uri()
    text = client.texts[uri][1]
    block = "\n".join([
        "> **safereq review: trace links for FSR-2** — 3 suggestions proposed (offline patterns).", ">",
        "> - Derived from: `SG-1` — Avoid unlocking the doors while the vehicle moves (score 0.50): shares doors", ">",
        "> - Derived from: `SG-2` — Avoid trapping occupants after a crash (score 0.70): shares crash", ">",
        "> - Cites: `ISO 26262-3:2018 §7.4.2` — Derivation (score 0.40): clause about derivation",
        '>   cites ISO 26262-3:2018 §7.4.2 (verified): "Requirements are derived from every safety goal"', ">",
        "> - Child: `TSR-1` — Read the vehicle speed from two sources (score 0.40): shares lock", "", ""])
    at = text.index("## FSR-3")
    set_text(client, uri, text[:at] + block + text[at:])
    # The same decisions as code actions on a suggestion's line (for editors without code lenses).
    line = client.texts[uri][1].split("\n").index("> - Derived from: `SG-1` — Avoid unlocking the doors while the vehicle moves (score 0.50): shares doors")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(types.Position(line, 3), types.Position(line, 3)),
        context=types.CodeActionContext(diagnostics=[], only=["refactor"])))
    titles = [a.title for a in actions or []]
    assert "Accept suggestion: Derived from: SG-1" in titles and "Reject suggestion: Derived from: SG-1" in titles
    assert "Reject all 4 suggestions for FSR-2" in titles
    (accept_all,) = [lens for lens in await lenses(client, uri) if lens.command.title == "Accept all 4"]
    result = await execute(client, accept_all.command.command, *accept_all.command.arguments)
    assert field(result, "accepted") == 4 and field(result, "left") == 0
    assert field(result, "message") == (
        "FSR-2: 4 suggestions accepted (FSR-2 added to TSR-1's Derived from; SG-1 added to FSR-2's Derived from; "
        "SG-2 already in FSR-2's Derived from; ISO 26262-3:2018 §7.4.2 added to FSR-2's Cites); "
        "the review block is closed.")
    fsr = client.texts[uri][1]
    assert "- Derived from: SG-2, SG-1\n- Cites: ISO 26262-3:2018 §7.4.2\n\n## FSR-3" in fsr and HEADER not in fsr
    assert "- Derived from: FSR-1, FSR-2\n" in text_of(client, root, "tsc.md")  # the child, in another document


async def test_suggested_links_are_proposed_under_the_item(client: LanguageClient, root: Path):
    uri = (root / "fsr.md").as_uri()
    before = client.texts[uri][1]
    result = await execute(client, "safereq.suggestTraceLinks", uri, "FSR-3")
    count = field(result, "count")
    assert field(result, "applied") is True and count > 0
    assert field(result, "message").startswith(f"Suggest trace links for FSR-3: {count} suggestion")
    assert "proposed for review in fsr.md" in field(result, "message")
    fsr = client.texts[uri][1]
    block = review_lines(fsr)
    assert block[0].startswith("> **safereq review: trace links for FSR-3** — ")
    assert fsr.split("\n").index(block[0]) > fsr.split("\n").index("## FSR-3: Report the lock state")
    assert fsr.replace("\n" + "\n".join(block) + "\n", "") == before
    # Every suggestion has its Accept and Reject; a second run replaces the block instead of adding one.
    assert len([lens for lens in await lenses(client, uri) if lens.command.title == "Accept"]) == count
    await execute(client, "safereq.suggestTraceLinks", uri, "FSR-3")
    assert client.texts[uri][1].count(HEADER) == 1


async def test_a_tie_between_documents_is_asked(client: LanguageClient, root: Path):
    other = root / "tsc-hardware.md"
    held = text_of(client, root, "tsc.md").count("\n### TSR-")
    other.write_text("# Hardware safety requirements\n\n" + "".join(
        f"## TSR-{n}: Hardware requirement {n}\n\nThe lock controller hardware shall do {n}.\n\n- ASIL: B\n"
        f"- Derived from: FSR-2\n\n" for n in range(11, 11 + held)), encoding="utf-8")
    open_doc(client, other)
    client.choose = "tsc-hardware.md"
    client.asked.clear()
    result = await execute(client, "safereq.deriveRequirements", (root / "fsr.md").as_uri(), "FSR-2")
    (asked,) = client.asked
    assert sorted(a.title for a in asked.actions) == ["tsc-hardware.md", "tsc.md"]
    assert "tsc-hardware.md" in field(result, "message")
    text = client.texts[other.as_uri()][1]
    block = review_lines(text)
    assert block[0].startswith("> **safereq review: derived requirements from FSR-2**")
    assert any(line.startswith("> ## TSR-") for line in block)  # level 2, like that document's items
    assert any(b.startswith("> - ASIL: ") for b in block) and block[block.index(next(b for b in block if b.startswith("> ## TSR-"))) + 1] == ">"
    client.choose = None  # dismissed: nothing is proposed
    result = await execute(client, "safereq.deriveRequirements", (root / "fsr.md").as_uri(), "FSR-3")
    assert field(result, "count") == 0 and "no document chosen" in field(result, "message")
