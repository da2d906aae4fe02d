"""Seeded generators of hostile text and edit sequences, shared by the short tests (tests/robustness) and the
long runs (benchmarks/fuzz/run.py).

Every generator takes a ``random.Random`` so that a failure is reproduced from its seed. Edits are made at
character level (not whole lines), with the pieces that broke things before: lone surrogates, control
characters, CR and CRLF, duplicate IDs, headings split or joined, tables, fences and front matter.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

DOCS = {
    "goals.md": (
        "# Goals\n\n| ID | Hazardous event | S | E | C | ASIL | Safety goal |\n|---|---|---|---|---|---|---|\n"
        "| HE-1 | Late braking | S3 | E4 | C3 | D | SG-1 |\n| HE-2 | Roll away | S2 | E3 | C2 | B | SG-2 |\n\n"
        "## SG-1: Avoid late braking\n\nThe vehicle shall brake before a collision.\n\n- ASIL: D\n- Hazard: HE-1\n\n"
        "## SG-2: Hold the car\n\nThe vehicle shall not roll away.\n\n- ASIL: B\n"
    ),
    "reqs.md": "# Requirements 😀\n\n" + "".join(
        f"## FSR-{i}: Requirement {i}\n\nThe arbiter shall limit torque {i} quickly, TBD.\n\n"
        f"- ASIL: {'BD'[i % 2]}\n- Derived from: {'SG-1' if i % 3 else f'FSR-{i - 1}'}\n- Verified by: TC-{i}\n\n"
        for i in range(1, 12)
    ) + "## TC-1: Test\n\nThe test shall show the limit.\n\n- Derived from: FSR-1\n",
    "zh.md": "# 要求\n\n## FSR-50: 行人检测\n\n系统应在 200 ms 内检测行人，并且必须尽快报警。\n\n- ASIL: C\n- Derived from: SG-1\n",
}

# Pieces inserted by the edits: the shapes that broke incremental checking, parsing or text sync before.
PIECES = (
    "\ud83d", "\ude00", "😀", "行人", "\x00", "\x07", "\x1b", "\x0c", "\u2028", "\ufeff", "\r", "\r\n", "\n",
    "\n\n", "## ", "## FSR-3: Duplicate\n", "## SG-1: Again\n", "## FSR-2", ": ", "- Derived from: FSR-4\n",
    "- Derived from: FSR-7, SG-9\n", "- ASIL: B(D)\n", "- ASIL: X\n", "| HE-1 | x | S3 | E4 | C3 | D | SG-2 |\n",
    "|---|---|\n", "```\n", "~~~", "---\ntitle: x\n---\n", "> ", "    ", "\t", "#", "shall", "should", "TBD",
    "[link](x)", "<!-- -->", "\\|", "FSR-", "-", " ", "x",
)


def random_piece(rng: random.Random) -> str:
    """One piece, or a few glued together (so that e.g. a heading is split in the middle of an ID)."""
    return "".join(rng.choice(PIECES) for _ in range(rng.choice((1, 1, 1, 2, 3))))


@dataclass(frozen=True)
class Splice:
    """Replace ``text[start:end]`` with ``new`` (offsets in code points of the Python string)."""

    start: int
    end: int
    new: str

    def apply(self, text: str) -> str:
        return text[:self.start] + self.new + text[self.end:]


def random_splice(rng: random.Random, text: str) -> Splice:
    """An insertion, deletion or replacement anywhere, often across line ends (joining or splitting lines)."""
    start = rng.randrange(len(text) + 1)
    how = rng.random()
    if how < 0.45:
        return Splice(start, start, random_piece(rng))
    end = min(len(text), start + rng.choice((1, 1, 2, 5, 20, 80)))
    return Splice(start, end, "" if how < 0.75 else random_piece(rng))


def hostile_text(rng: random.Random, size: int = 2000) -> str:
    """A document built from the pieces and random characters: for the parser and the checks alone."""
    out: list[str] = []
    while sum(map(len, out)) < size:
        r = rng.random()
        if r < 0.6:
            out.append(random_piece(rng))
        elif r < 0.8:
            out.append(chr(rng.randrange(0x20, 0x3000)))
        else:
            out.append(rng.choice(list(DOCS.values()))[: rng.randrange(200)])
    return "".join(out)


def core_sequence(seed: int, edits: int = 20) -> str | None:
    """Random edits of a workspace, checked incrementally after most of them (a burst sometimes goes
    unchecked) and compared with a fresh parse and check of the same text. Returns what differed, or None.
    Exceptions propagate: any is a crash."""
    from safereq.checks.engine import Checker
    from safereq.workspace import Workspace

    rng = random.Random(seed)
    docs = dict(DOCS)
    ws, checker = Workspace(), Checker()
    for path, text in docs.items():
        ws.update(path, text)
    checker.check(ws)
    files = random.Random(seed + 1_000_003)  # document-level changes, drawn apart from the edits
    for step in range(edits):
        path, what = rng.choice(sorted(docs)), None
        if files.random() < 0.12:
            path, what = _change_files(files, ws, docs, path)
        else:
            what = random_splice(rng, docs[path])
            docs[path] = what.apply(docs[path])
            ws.update(path, docs[path])
        if rng.random() < 0.25 and step < edits - 1:
            continue
        got = checker.check(ws)
        want = fresh_check(docs)
        if got != want:
            return f"seed {seed}, step {step}, {path}, {what}: " + describe(got, want)
    return None


def _change_files(rng: random.Random, ws, docs: dict[str, str], path: str) -> tuple[str, str]:
    """Close or delete a document, or add a copy of one under a new name (its IDs then defined twice), as a
    file event or an editor's open and close would."""
    if len(docs) > 1 and rng.random() < 0.5:
        ws.remove(path)
        del docs[path]
        return path, "removed"
    copy = f"copy-{len(docs)}-{path}"
    docs[copy] = docs[path]
    ws.update(copy, docs[copy])
    return copy, f"copied from {path}"


_BREAK = re.compile(r"\r\n|\r|\n")


def units(ch: str, encoding: str) -> int:
    """The code units of one code point in a position encoding (a lone surrogate is one UTF-16 unit)."""
    if encoding == "utf-32":
        return 1
    return len(ch.encode("utf-16-le" if encoding == "utf-16" else "utf-8", errors="surrogatepass")) // \
        (2 if encoding == "utf-16" else 1)


class EditorModel:
    """An editor's buffer, modelled independently of the server's code: a Python string split into lines as
    LSP splits them, positions counted in the negotiated encoding's units."""

    def __init__(self, text: str, encoding: str) -> None:
        self.text, self.encoding = text, encoding

    def lines(self) -> list[str]:
        return _BREAK.split(self.text)

    def _line_starts(self) -> list[int]:
        return [0] + [m.end() for m in _BREAK.finditer(self.text)]

    def position(self, offset: int):
        from lsprotocol import types

        starts = self._line_starts()
        line = max(i for i, s in enumerate(starts) if s <= offset)
        return types.Position(line, sum(units(c, self.encoding) for c in self.text[starts[line]:offset]))

    def change(self, start: int, end: int, new: str):
        """The LSP change replacing text[start:end]; applied to the model too."""
        from lsprotocol import types

        rng = types.Range(self.position(start), self.position(end))
        self.text = self.text[:start] + new + self.text[end:]
        return types.TextDocumentContentChangePartial(range=rng, text=new)

    def random_change(self, rng: random.Random):
        """A random splice as an LSP change; a CRLF is never cut in two (LSP has no position inside one)."""
        splice = random_splice(rng, self.text)
        start, end = splice.start, splice.end
        if 0 < start < len(self.text) and self.text[start - 1:start + 1] == "\r\n":
            start -= 1
        if 0 < end < len(self.text) and self.text[end - 1:end + 1] == "\r\n":
            end += 1
        return self.change(start, max(start, end), splice.new)


def buffer_sequence(seed: int, encoding: str, batches: int = 60) -> str | None:
    """Random batches of changes applied to the server's buffer (``lsp.documents.OpenDocument``) and to the
    editor model: after each batch the server's lines must be the editor's. Returns what differed, or None."""
    from safereq.lsp.documents import OpenDocument
    from safereq.lsp.positions import Codec

    rng = random.Random(seed)
    editor = EditorModel(rng.choice(list(DOCS.values())), encoding)
    doc, codec = OpenDocument("untitled:fuzz", editor.text, 1), Codec(encoding)
    for step in range(batches):
        before = editor.text
        changes = [editor.random_change(rng) for _ in range(rng.choice((1, 1, 2, 3)))]
        doc.apply(step + 2, changes, codec)
        if doc.lines != editor.lines():
            at = next((i for i, (a, b) in enumerate(zip(doc.lines, editor.lines())) if a != b),
                      min(len(doc.lines), len(editor.lines())))
            return (f"{encoding} seed {seed} batch {step}: server has {len(doc.lines)} lines, the editor "
                    f"{len(editor.lines())}; first difference at line {at}; text before {before!r:.200}; "
                    f"changes {[(c.range, c.text) for c in changes]}")
    return None


def fresh_check(docs: dict[str, str]):
    from safereq.checks.engine import Checker
    from safereq.workspace import Workspace

    ws = Workspace()
    for path, text in docs.items():
        ws.update(path, text)
    return Checker().check(ws)


def describe(got, want) -> str:
    extra = [f"{f.rule} {f.path}:{f.span.start_line}" for f in got if f not in want]
    missing = [f"{f.rule} {f.path}:{f.span.start_line}" for f in want if f not in got]
    return f"incremental only: {extra[:5]}; fresh only: {missing[:5]}"


def nested_files(depth: int) -> dict[str, bytes]:
    """Files nested ``depth`` deep in every way Markdown (and its front matter) nests, and other hostile bytes."""
    return {
        "quotes.md": ("> " * depth + "x\n").encode(),
        "bullets.md": ("- " * depth + "x\n").encode(),
        "indented-lists.md": "".join("  " * i + "- x\n" for i in range(min(depth, 400))).encode(),
        "brackets.md": ("[" * depth + "x" + "]" * depth).encode(),
        "emphasis.md": ("*" * depth + "x" + "_" * depth).encode(),
        "html.md": ("<div>" * depth + "x" + "</div>" * depth).encode(),
        "links.md": ("[a](" * depth + "x" + ")" * depth).encode(),
        "id.md": ("## " + "A-" * depth + "1: x\n").encode(),
        "front-matter-lists.md": ("---\na:\n  " + "- " * depth + "x\n---\n# x\n").encode(),
        "front-matter-flow.md": ("---\na: " + "[" * depth + "]" * depth + "\n---\n# x\n").encode(),
        "table.md": ("| a " * depth + "|\n" + "|---" * depth + "|\n").encode(),
        "fences.md": ("```\n" * depth).encode(),
        "carriage-returns.md": ("\r" * depth + "## FSR-1: x\r").encode(),
        "links-in-attribute.md": ("## FSR-1: x\n\nThe system shall x.\n\n- Derived from: "
                                  + ", ".join(["FSR-1"] * depth) + "\n").encode(),
    }


def hostile_bytes(rng: random.Random, size: int = 4000) -> bytes:
    """Random bytes, or hostile text with invalid UTF-8 spliced in (lone surrogates encoded, stray bytes)."""
    kind = rng.randrange(3)
    if kind == 0:
        return rng.randbytes(size)
    data = hostile_text(rng, size).encode("utf-8", errors="surrogatepass")
    if kind == 1:
        return data.replace(b"\x00", b"")  # text that is not UTF-8 only where a surrogate was encoded
    at = rng.randrange(len(data) + 1)
    return data[:at] + bytes([rng.choice((0x80, 0xC0, 0xED, 0xFF))]) + data[at:]
