"""``safereq check``'s persistent cache: a cached run reports byte for byte what an uncached one does — after
random edits, with two runs at once, and with entries that cannot be trusted — and unchanged files are not
checked again."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from safereq.checks.engine import checker as checker_module
from safereq.checks.engine.disk_cache import DiskCache, user_key

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


@pytest.fixture
def examples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of examples/ as the working directory (its safereq.toml decides where the cache goes)."""
    target = tmp_path / "examples"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns(".safereq"))
    monkeypatch.chdir(target)
    return target


def _entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name != ".gitignore")


def _both(safereq, *args: str) -> tuple:
    """The cached and the uncached run of ``safereq check args``, as (status, stdout, stderr) each."""
    cached = safereq("check", *args)
    fresh = safereq("check", "--no-cache", *args)
    return (cached.status, cached.out, cached.err), (fresh.status, fresh.out, fresh.err)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_cached_runs_report_what_an_uncached_run_reports(examples, safereq, fmt):
    first, fresh = _both(safereq, ".", "--format", fmt)
    assert first == fresh
    assert _entries(examples / ".safereq" / "cache")
    again, fresh = _both(safereq, ".", "--format", fmt)
    assert again == fresh == first


def test_a_warm_run_checks_no_item_and_an_edit_checks_only_its_document(examples, safereq, monkeypatch):
    checked: list[str] = []
    real = checker_module.Checker._checked

    def counting(self, ctx, item):
        checked.append(item.path)
        return real(self, ctx, item)

    monkeypatch.setattr(checker_module.Checker, "_checked", counting)
    cold = safereq("check", ".")
    assert len(checked) > 10
    checked.clear()
    warm = safereq("check", ".")
    assert warm.out == cold.out and checked == []
    doc = examples / "technical-safety-concept.md"
    doc.write_text(doc.read_text(encoding="utf-8").replace(" shall ", " shall quickly ", 1), encoding="utf-8")
    edited = safereq("check", ".")
    assert set(checked) == {"technical-safety-concept.md"}
    assert edited.out == safereq("check", "--no-cache", ".").out


_EDITS = ["reword", "weaken", "asil", "rename", "drop-item", "add-link", "insert-line", "new-file", "remove-file",
          "config"]


def _random_edit(rng: random.Random, root: Path) -> str:
    """One edit of the kinds a user makes, anywhere in the workspace; what it was."""
    docs = sorted(p for p in root.rglob("*.md") if ".safereq" not in p.parts and p.name != "README.md")
    kind = rng.choice(_EDITS)
    doc = rng.choice(docs)
    text = doc.read_text(encoding="utf-8")
    lines = text.split("\n")
    if kind == "reword":
        prose = [k for k, line in enumerate(lines) if line and line[0].isalpha()]
        if prose:
            k = rng.choice(prose)
            lines[k] = lines[k].replace(" the ", " a ", 1) + rng.choice(["", " as soon as possible", " appropriately"])
    elif kind == "weaken":
        text = text.replace(" shall ", rng.choice([" should ", " must ", " will "]), 1)
        lines = text.split("\n")
    elif kind == "asil":
        asils = [k for k, line in enumerate(lines) if line.startswith("- ASIL:")]
        if asils:
            lines[rng.choice(asils)] = "- ASIL: " + rng.choice(["QM", "A", "B", "C", "D", "B(D)"])
    elif kind == "rename":
        ids = re.findall(r"^#+ ([A-Z]+-[A-Z0-9-]+):", text, re.MULTILINE)
        if ids:
            old = rng.choice(ids)
            lines = text.replace(f" {old}:", f" {old}X:", 1).split("\n")
    elif kind == "drop-item":
        heads = [k for k, line in enumerate(lines) if re.match(r"#+ [A-Z]+-", line)]
        if heads:
            k = rng.choice(heads)
            del lines[k:k + 3]
    elif kind == "add-link":
        links = [k for k, line in enumerate(lines) if line.startswith("- Derived from:")]
        if links:
            lines[rng.choice(links)] += rng.choice([", SG-1", ", SG-404", ", FSR-1"])
    elif kind == "insert-line":
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(["", "Some prose between items.", "<!-- note -->"]))
    elif kind == "new-file":
        n = rng.randrange(1000)
        (root / f"extra-{n}.md").write_text(f"# Extra\n\n## TSR-X-{n}: Added\n\nThe unit shall stop.\n\n"
                                            f"- ASIL: B\n- Derived from: SG-1\n", encoding="utf-8")
        return kind
    elif kind == "remove-file":
        if len(docs) > 2:
            doc.unlink()
        return kind
    elif kind == "config":
        config = root / "safereq.toml"
        body = config.read_text(encoding="utf-8")
        line = '"wording/vague-term" = "error"\n'
        if line in body:
            body = body.replace(line, "")
        else:
            body = body.replace("[rules]\n", "[rules]\n" + line) if "[rules]\n" in body else body + "[rules]\n" + line
        config.write_text(body, encoding="utf-8")
        return kind
    doc.write_text("\n".join(lines), encoding="utf-8")
    return f"{kind} {doc.name}"


def test_random_edits_never_make_the_cache_differ(examples, safereq):
    rng = random.Random(2626)
    history = []
    for _round in range(25):
        history.append(_random_edit(rng, examples))
        cached, fresh = _both(safereq, ".")
        assert cached == fresh, history


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "server"))
    return subprocess.run([sys.executable, "-m", "safereq", "check", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def test_two_runs_at_once_share_the_cache_safely(examples):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "server"))
    argv = [sys.executable, "-m", "safereq", "check", "."]
    procs = [subprocess.Popen(argv, cwd=examples, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outputs = [p.communicate(timeout=600) for p in procs]
    fresh = _run(["--no-cache", "."], examples)
    assert [o[0] for o in outputs] == [fresh.stdout, fresh.stdout]
    assert [p.returncode for p in procs] == [fresh.returncode] * 2
    assert not [p for p in (examples / ".safereq").rglob("*.tmp")]  # no half-written entry left behind
    warm = _run(["."], examples)
    assert warm.stdout == fresh.stdout


class _Planted:
    """Unpickling this would create a file: the proof that an untrusted entry was never unpickled."""

    def __init__(self, target: str) -> None:
        self.target = target

    def __reduce__(self):
        return (open, (self.target, "w"))


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty", "other-user", "planted"])
def test_entries_that_cannot_be_trusted_are_ignored_and_rebuilt(examples, safereq, tmp_path, damage):
    first = safereq("check", ".")
    folder = examples / ".safereq" / "cache"
    planted = tmp_path / "planted"
    other = DiskCache(folder, b"k" * 32)  # another user's key
    for entry in _entries(folder):
        blob = entry.read_bytes()
        if damage == "truncate":
            entry.write_bytes(blob[: len(blob) // 2])
        elif damage == "flip":
            entry.write_bytes(blob[:-1] + bytes([blob[-1] ^ 1]))
        elif damage == "garbage":
            entry.write_bytes(os.urandom(len(blob)))
        elif damage == "empty":
            entry.write_bytes(b"")
        elif damage == "other-user":
            other.put(entry.name, [])  # a valid entry, but signed by someone else
        else:
            good = DiskCache(folder, b"\0" * 32)
            good.put(entry.name, _Planted(str(planted)))
    again = safereq("check", ".")
    assert (again.status, again.out) == (first.status, first.out)
    assert not planted.exists()
    assert (safereq("check", ".").out, safereq("check", "--no-cache", ".").out) == (first.out, first.out)


def test_no_cache_and_the_configuration_decide_where_it_goes(examples, safereq):
    safereq("check", "--no-cache", ".")
    assert not (examples / ".safereq").exists()
    config = examples / "safereq.toml"
    body = config.read_text(encoding="utf-8")
    config.write_text('cache = false\n' + body, encoding="utf-8")
    safereq("check", ".")
    assert not (examples / ".safereq").exists()
    config.write_text('cache = "build/check-cache"\n' + body, encoding="utf-8")
    result = safereq("check", ".")
    assert result.status in (0, 1) and _entries(examples / "build" / "check-cache")
    assert not (examples / ".safereq").exists()


def test_the_signing_key_is_the_users_own(tmp_path):
    key = user_key(tmp_path / "home-cache")
    path = tmp_path / "home-cache" / "check-cache.key"
    assert key is not None and len(key) >= 32 and path.read_bytes() == key
    assert path.stat().st_mode & 0o077 == 0
    assert user_key(tmp_path / "home-cache") == key  # made once, then read


def test_an_entry_signed_by_the_key_round_trips(tmp_path):
    cache = DiskCache(tmp_path, b"s" * 32)
    cache.put("ab" * 20, {"x": [1, 2]})
    assert cache.get("ab" * 20) == {"x": [1, 2]}
    assert DiskCache(tmp_path, b"t" * 32).get("ab" * 20) is None
    assert cache.get("cd" * 20) is None
    # an entry moved under another name is refused: the name is signed too
    shutil.copy(cache._path("ab" * 20), cache._path("cd" * 20))
    assert cache.get("cd" * 20) is None


def test_a_configuration_file_is_validated_once_per_content(examples, safereq, monkeypatch):
    from safereq.checks import config as config_module

    calls: list[int] = []
    real = config_module.validated

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(config_module, "validated", counting)
    first = safereq("check", ".")
    assert calls == [1]
    assert safereq("check", ".").out == first.out and calls == [1]  # the same file: remembered
    config = examples / "safereq.toml"
    config.write_text(config.read_text(encoding="utf-8") + '"wording/vague-term" = "error"\n', encoding="utf-8")
    changed = safereq("check", ".")
    assert calls == [1, 1] and changed.out == safereq("check", "--no-cache", ".").out
    config.write_text("[rules]\n\"no-such/rule\" = \"error\"\n", encoding="utf-8")
    for _ in range(2):  # an invalid file is never remembered
        bad = safereq("check", ".")
        assert bad.status == 2 and "no-such/rule" in bad.err


def test_old_entries_are_pruned_and_todays_are_kept(tmp_path):
    cache = DiskCache(tmp_path, b"p" * 32)
    names = [f"{k:040x}" for k in range(100)]
    for name in names:
        cache.put(name, [])
    old = names[:50]
    for name in old:
        os.utime(cache._path(name), (0, 0))
    assert cache.prune({names[-1]}) == 50  # 100 entries for 1 kept: the old ones go, today's stay
    assert all(cache.get(n) is None for n in old) and all(cache.get(n) == [] for n in names[50:])
    assert cache.prune(set(names[50:])) == 0


def test_a_fifo_or_a_device_planted_as_an_entry_is_a_miss_not_a_hang(examples, safereq):
    first = safereq("check", ".")
    entries = _entries(examples / ".safereq" / "cache")
    entries[0].unlink()
    os.mkfifo(entries[0])
    entries[1].unlink()
    entries[1].symlink_to("/dev/zero")
    again = safereq("check", ".")  # would block on the FIFO or read /dev/zero for ever
    assert (again.status, again.out) == (first.status, first.out)


def test_entries_of_the_earlier_layout_are_pruned_and_the_rest_is_left(tmp_path):
    """Entries used to live in sub-folders named by their first two digits; those are pruned by age as the
    flat ones are, and nothing else in the folder (its .gitignore, a sub-folder of another name) is touched."""
    cache = DiskCache(tmp_path, b"q" * 32)
    names = [f"{k:040x}" for k in range(100)]
    for name in names:
        cache.put(name, [])
    legacy = tmp_path / "00" / ("0" * 39 + "f")
    legacy.parent.mkdir()
    legacy.write_bytes(b"old layout")
    (tmp_path / ".gitignore").write_text("*\n")
    (tmp_path / "notes").mkdir()
    for path in (legacy, tmp_path / ".gitignore", *(cache._path(n) for n in names[:50])):
        os.utime(path, (0, 0))
    assert cache.prune({names[-1]}) == 51
    assert not legacy.exists() and (tmp_path / ".gitignore").exists() and (tmp_path / "notes").is_dir()
    assert all(cache.get(n) == [] for n in names[50:])


def test_a_deviation_written_after_a_cached_run_is_reported_as_uncached(examples, safereq):
    """Only documents without an entry are scanned for deviations (an entry's document held none); a
    deviation added to one of them makes the run an uncached one, which lists what it accepted."""
    safereq("check", ".")
    doc = examples / "technical-safety-concept.md"
    text = doc.read_text(encoding="utf-8").replace("software shall saturate", "software should saturate", 1)
    doc.write_text(text, encoding="utf-8")
    safereq("check", ".")  # the edited document has an entry of its own now
    at = text.index("\n- ASIL:")
    doc.write_text(text[:at] + '\n- Deviation: modal/non-binding-verb "should": agreed with the OEM' + text[at:],
                   encoding="utf-8")
    for fmt in ("text", "sarif"):
        cached, fresh = _both(safereq, ".", "--format", fmt)
        assert cached == fresh
    assert '"suppressions"' in safereq("check", ".", "--format", "sarif").out  # the accepted finding
    before = _entries(examples / ".safereq" / "cache")
    safereq("check", ".")
    assert _entries(examples / ".safereq" / "cache") == before  # that run wrote nothing


@pytest.mark.parametrize("text", [
    "- Deviation: x", "* DEVIATION：x", "- dev\u0131ation: x", "- dev\u0130ation: x", "x\n  + deviation : y",
    "- deviations: x", "- Deviation x", "deviation: x", "- DeViAtIoN:", "no such line", "",
])
def test_the_quick_test_for_deviations_says_what_the_expression_says(text):
    from safereq.cli.check import _DEVIATION_LINE, _holds_deviation
    from safereq.workspace.loader import SourceFile

    source = SourceFile("d.md", Path("d.md"), text, "0")
    assert _holds_deviation(source) == (_DEVIATION_LINE.search(text) is not None)
