"""A baseline: the findings a legacy specification had when safereq was adopted, so CI fails only on new ones.

Each finding is recorded by a fingerprint that does not depend on where it is: its rule, the item it is
in (by ID) and the text it marks, words and white space normalised. Lines moving (an item inserted above)
or edits elsewhere in the item leave it unchanged; a change of the marked words, of the item's ID or of
the rule makes it a new finding. Identical fingerprints in one item are counted, so a second *quickly* in
the same requirement is new. Paths are stored relative to the baseline file's folder, so the file works
from any working directory and in any clone.

The file is JSON, sorted, one entry per line, so that its diff in review shows exactly which findings went:
``{"schema": "safereq-baseline", "version": 1, "findings": [{"path", "rule", "item", "text",
"fingerprint", "count"}]}``. Updating it only removes entries (fixed findings) unless asked to take every
current finding (``--update-baseline=all``).
"""

from __future__ import annotations

import hashlib
import json
import os
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..checks.findings import Finding
from ..model.document import Document
from ..workspace import Workspace

SCHEMA = "safereq-baseline"
VERSION = 1
MAX_BYTES = 256 * 1024 * 1024  # a baseline of a million findings is about 200 MB
_EXCERPT = 80

Key = tuple[str, str, str]  # path relative to the baseline's folder, rule, fingerprint


class BaselineError(Exception):
    """The baseline file cannot be read or written; said in one line."""


@dataclass
class _Entry:
    item: str
    text: str
    count: int


class _Locator:
    """Finds a finding's item and marked text in its document quickly: 15,000 findings in a document of
    20,000 items would otherwise walk the items once per finding."""

    def __init__(self, doc: Document | None) -> None:
        self.doc = doc
        self.items = doc.items if doc is not None else []
        self.lines_of = [item.line for item in self.items]
        self._text = doc.text.split("\n") if doc is not None else []

    def item(self, line: int) -> str:
        k = bisect_right(self.lines_of, line) - 1
        while k >= 0:
            item = self.items[k]
            if item.line <= line <= item.end_line:
                return item.id
            k -= 1
        return ""

    def marked(self, finding: Finding) -> str:
        s = finding.span
        if not 0 <= s.start_line < len(self._text):
            return ""
        if s.start_line == s.end_line:
            text = self._text[s.start_line][s.start_col:s.end_col]
        else:
            text = "\n".join([self._text[s.start_line][s.start_col:], *self._text[s.start_line + 1:s.end_line],
                              self._text[min(s.end_line, len(self._text) - 1)][:s.end_col]])
        return " ".join(text.split()).casefold()


def _fingerprint(rule: str, item: str, text: str, message: str) -> str:
    # A finding that marks no text (an insertion point) is told apart by its message instead.
    basis = text if text else " ".join(message.split())
    return hashlib.sha256(f"{rule}\0{item}\0{basis}".encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _relative(path: str, cwd: Path, root: Path) -> str:
    absolute = os.path.abspath(os.path.join(cwd, path))
    try:
        rel = os.path.relpath(absolute, root)
    except ValueError:  # another drive on Windows
        return PurePosixPath(Path(absolute)).as_posix()
    return PurePosixPath(Path(rel)).as_posix()


def fingerprints(findings: Iterable[Finding], workspace: Workspace, cwd: Path,
                 root: Path) -> list[tuple[Key, str, str]]:
    """(key, item, excerpt) of each finding, in order."""
    locators: dict[str, _Locator] = {}
    relative: dict[str, str] = {}
    out = []
    for f in findings:
        loc = locators.get(f.path)
        if loc is None:
            loc = locators[f.path] = _Locator(workspace.documents.get(f.path))
            relative[f.path] = _relative(f.path, cwd, root)
        item = loc.item(f.span.start_line)
        text = loc.marked(f)
        out.append(((relative[f.path], f.rule, _fingerprint(f.rule, item, text, f.message)), item, text[:_EXCERPT]))
    return out


class Baseline:
    """The entries of one baseline file, by key."""

    def __init__(self, path: Path, entries: dict[Key, _Entry] | None = None) -> None:
        self.path = path
        self.root = Path(os.path.abspath(path.parent))
        self.entries: dict[Key, _Entry] = entries or {}

    @property
    def size(self) -> int:
        return sum(e.count for e in self.entries.values())

    @classmethod
    def load(cls, path: Path) -> Baseline:
        """The baseline in ``path``; BaselineError for a file that is not one (nothing of it is trusted)."""
        try:
            if path.stat().st_size > MAX_BYTES:
                raise BaselineError(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB; not a baseline")
            data = json.loads(path.read_bytes())
        except BaselineError:
            raise
        except FileNotFoundError:
            raise
        except (OSError, ValueError, RecursionError) as exc:
            raise BaselineError(f"{path}: cannot read the baseline ({type(exc).__name__}: {exc})") from None
        if not isinstance(data, dict) or data.get("schema") != SCHEMA or not isinstance(data.get("findings"), list):
            raise BaselineError(f"{path}: not a safereq baseline (no \"schema\": \"{SCHEMA}\" with \"findings\")")
        if data.get("version") != VERSION:
            raise BaselineError(f"{path}: baseline version {data.get('version')!r}; this safereq reads version {VERSION}")
        entries: dict[Key, _Entry] = {}
        for k, raw in enumerate(data["findings"]):
            fields = ("path", "rule", "fingerprint", "item", "text")
            if (not isinstance(raw, dict) or not all(isinstance(raw.get(f), str) for f in fields)
                    or not isinstance(raw.get("count"), int) or isinstance(raw.get("count"), bool) or raw["count"] < 1):
                raise BaselineError(f"{path}: entry {k + 1} is malformed (path, rule, item, text, fingerprint and a "
                                    "positive count are needed)")
            key = (raw["path"], raw["rule"], raw["fingerprint"])
            entry = entries.get(key)
            if entry is None:
                entries[key] = _Entry(raw["item"], raw["text"], raw["count"])
            else:
                entry.count += raw["count"]
        return cls(path, entries)

    def split(self, findings: Sequence[Finding], workspace: Workspace,
              cwd: Path) -> tuple[list[Finding], list[Finding]]:
        """(new, baselined): the findings the baseline does not hold, and those it does, each in order."""
        left = {key: e.count for key, e in self.entries.items()}
        new, known = [], []
        for finding, (key, _item, _text) in zip(findings, fingerprints(findings, workspace, cwd, self.root)):
            if left.get(key, 0) > 0:
                left[key] -= 1
                known.append(finding)
            else:
                new.append(finding)
        return new, known

    def updated(self, findings: Sequence[Finding], workspace: Workspace, cwd: Path, *, add: bool) -> Baseline:
        """The baseline after this run: entries no finding matches any more removed, counts lowered to what
        was found; with ``add`` every current finding instead (new ones included)."""
        current: Counter[Key] = Counter()
        about: dict[Key, tuple[str, str]] = {}
        for key, item, text in fingerprints(findings, workspace, cwd, self.root):
            current[key] += 1
            about.setdefault(key, (item, text))
        entries: dict[Key, _Entry] = {}
        for key, count in current.items():
            kept = count if add else min(count, self.entries[key].count if key in self.entries else 0)
            if kept:
                entries[key] = _Entry(*about[key], kept)
        return Baseline(self.path, entries)

    def write(self) -> None:
        """Write the file in one step (a temporary file moved over it), sorted so that diffs are minimal."""
        rows = [{"path": p, "rule": r, "item": e.item, "text": e.text, "fingerprint": fp, "count": e.count}
                for (p, r, fp), e in sorted(self.entries.items(), key=lambda kv: (kv[0][0], kv[1].item, kv[0][1],
                                                                                   kv[1].text, kv[0][2]))]
        body = ('{"schema": "%s", "version": %d, "findings": [\n' % (SCHEMA, VERSION)
                + ",\n".join(json.dumps(row, ensure_ascii=False) for row in rows) + ("\n" if rows else "") + "]}\n")
        tmp = self.path.with_name(self.path.name + ".safereq-tmp")
        try:
            tmp.write_text(body, encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise BaselineError(f"cannot write the baseline {self.path}: {exc.strerror or exc}") from None
