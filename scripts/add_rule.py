"""Scaffold a new rule: its metadata, its documentation page, and either its word list and test row (a
word-list rule, no code) or a check function to fill in and a test that fails until it is written.

    # a word-list rule: reports each entry of a new list, data only
    python scripts/add_rule.py wording/hedge --summary "A requirement hedges (arguably, presumably ...)." \
        --list hedges --word arguably --example "The ECU shall {word} report the fault." \
        --message "'{word}' hedges the requirement: state it without reservation"

    # a rule with code (scope item, document or workspace)
    python scripts/add_rule.py trace/self-verified --scope item --severity error \
        --summary "A requirement names itself in Verified by." \
        --example "## FSR-1: Verify itself\nThe ECU shall stop.\n\n- Verified by: FSR-1\n"

It edits rules/checks/<family>.yaml, rules/docs/<family>-<name>.md and, for a word-list rule,
rules/<lang>/wording.yaml and tests/checks/test_word_list_rules.py; for a rule with code,
server/safereq/checks/families/<family>.py and tests/checks/test_rule_<family>_<name>.py. Then fill in the
documentation page (Why, Example, Fix), and for a rule with code the function, and run
``.venv/bin/python -m pytest -m fast`` and ``python scripts/gen_rule_index.py``. docs/dev/adding-a-rule.md
explains each step. ``--root`` works on another checkout (the scaffold's own test uses a copy).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCOPES = {"item": ("item_check", "item: Item"), "document": ("document_check", "doc: Document"),
          "workspace": ("workspace_check", "")}


class ScaffoldError(Exception):
    """Something the scaffold will not do (an existing rule, an unknown family): said, nothing written."""


def _yaml_scalar(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _metadata(name: str, args: argparse.Namespace) -> str:
    lines = [f"  {name}:", f"    severity: {args.severity}"]
    if args.off:
        lines.append("    enabled: false")
    lines.append(f"    summary: {_yaml_scalar(args.summary)}")
    if args.list:
        lines += [f"    lists: [{args.list}]", f"    message: {_yaml_scalar(args.message)}"]
    return "\n".join(lines) + "\n"


def _doc_page(rule: str, args: argparse.Namespace) -> str:
    example = args.example.replace("{word}", args.word or "")
    if args.list:
        example = f"## REQ-1: An example\n{example}\n"
    return (f"# {rule}\n\n**What it does.** {args.summary}\n\n**Why.** (Say what goes wrong when a requirement "
            f"is written this way.)\n\n**Example.**\n\n```markdown\n{example.rstrip()}\n```\n\n**Fix.** (Say "
            f"how to rewrite it, and whether a fix is offered.)\n")


def _add_word_list(root: Path, args: argparse.Namespace) -> None:
    path = root / "rules" / args.language / "wording.yaml"
    text = path.read_text(encoding="utf-8")
    if re.search(rf"^{re.escape(args.list)}:", text, re.MULTILINE):
        raise ScaffoldError(f"{path} already has a list {args.list}")
    path.write_text(text.rstrip("\n") + f"\n\n# {args.rule}: {args.summary}\n{args.list}:\n  - {args.word}\n",
                    encoding="utf-8")


def _add_test_row(root: Path, args: argparse.Namespace) -> None:
    path = root / "tests" / "checks" / "test_word_list_rules.py"
    text = path.read_text(encoding="utf-8")
    end = text.index("\n}\n", text.index("ROWS = {"))
    row = f"\n    {args.rule!r}: ({args.language!r}, {args.example!r}, {args.word!r}),"
    path.write_text(text[:end] + row + text[end:], encoding="utf-8")


def _add_function(root: Path, family: str, name: str, args: argparse.Namespace) -> None:
    path = root / "server" / "safereq" / "checks" / "families" / f"{family}.py"
    text = path.read_text(encoding="utf-8")
    decorator, param = SCOPES[args.scope]
    m = re.search(r"^from \.\.registry import (.+)$", text, re.MULTILINE)
    if m is None:
        raise ScaffoldError(f"{path} has no 'from ..registry import' line to extend")
    names = sorted({*(n.strip() for n in m.group(1).split(",")), decorator})
    text = text[:m.start(1)] + ", ".join(names) + text[m.end(1):]
    for needed, line in (("Item", "from ...model.document import Item"), ("Document", "from ...model.document import Document")):
        if needed in param and not re.search(rf"^from \.\.\.model\.document import .*\b{needed}\b", text, re.MULTILINE):
            text = text.replace("from __future__ import annotations\n", f"from __future__ import annotations\n\n{line}\n", 1)
    func = name.replace("-", "_")
    signature = f"ctx: CheckContext, {param}" if param else "ctx: CheckContext"
    text = text.rstrip("\n") + (
        f"\n\n\n@{decorator}({args.rule!r})\ndef {func}({signature}) -> list[Finding]:\n"
        f'    """{args.summary}"""\n'
        f"    return []  # report each case with ctx.finding({args.rule!r}, path, span, message)\n")
    path.write_text(text, encoding="utf-8")


def _add_test(root: Path, family: str, name: str, args: argparse.Namespace) -> Path:
    path = root / "tests" / "checks" / f"test_rule_{family}_{name.replace('-', '_')}.py"
    example = args.example.encode().decode("unicode_escape") if "\\n" in args.example else args.example
    path.write_text(
        f'"""{args.rule}: {args.summary}"""\n\nfrom __future__ import annotations\n\n'
        "from safereq.checks import Checker, Config\nfrom safereq.workspace import Workspace\n\n"
        f"EXAMPLE = {example!r}\n\n\n"
        f"def test_{family}_{name.replace('-', '_')}_reports_the_example():\n"
        "    ws = Workspace()\n    ws.update(\"example.md\", EXAMPLE)\n"
        f"    found = [f for f in Checker(Config(rules={{{args.rule!r}: \"on\"}})).check(ws) if f.rule == {args.rule!r}]\n"
        "    assert found, \"the rule reports nothing on its own example yet\"\n",
        encoding="utf-8")
    return path


def scaffold(args: argparse.Namespace) -> list[Path]:
    """Write the rule's files; return them. Raises ScaffoldError before writing anything it refuses."""
    root = Path(args.root)
    m = re.fullmatch(r"([a-z]+)/([a-z0-9]+(?:-[a-z0-9]+)*)", args.rule)
    if m is None:
        raise ScaffoldError(f"rule id {args.rule!r}: write family/kebab-case-name, e.g. wording/hedge")
    family, name = m.groups()
    meta = root / "rules" / "checks" / f"{family}.yaml"
    if not meta.is_file():
        raise ScaffoldError(f"no family {family} (rules/checks/{family}.yaml); families: "
                            + ", ".join(sorted(p.stem for p in meta.parent.glob("*.yaml"))))
    text = meta.read_text(encoding="utf-8")
    if re.search(rf"^  {re.escape(name)}:", text, re.MULTILINE):
        raise ScaffoldError(f"{args.rule} exists already in {meta}")
    if args.list and (family != "wording" or args.scope):
        raise ScaffoldError("a word-list rule belongs to the wording family and has no --scope")
    if args.list and not (args.word and args.message and "{word}" in args.example and "{word}" in args.message):
        raise ScaffoldError("a word-list rule needs --word, --message with {word} and --example with {word}")
    if not args.list and not args.scope:
        raise ScaffoldError("give --list (a word-list rule) or --scope item|document|workspace (a rule with code)")
    page = root / "rules" / "docs" / f"{family}-{name}.md"
    if args.list:
        _add_word_list(root, args)
    meta.write_text(text.rstrip("\n") + "\n" + _metadata(name, args), encoding="utf-8")
    page.write_text(_doc_page(args.rule, args), encoding="utf-8")
    written = [meta, page]
    if args.list:
        _add_test_row(root, args)
        written += [root / "rules" / args.language / "wording.yaml", root / "tests" / "checks" / "test_word_list_rules.py"]
    else:
        _add_function(root, family, name, args)
        written += [root / "server" / "safereq" / "checks" / "families" / f"{family}.py",
                    _add_test(root, family, name, args)]
    return written


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rule", help="the rule id, family/name")
    p.add_argument("--summary", required=True, help="one line: what the rule reports")
    p.add_argument("--severity", default="warning", choices=("error", "warning", "info", "hint"))
    p.add_argument("--off", action="store_true", help="off by default")
    p.add_argument("--list", help="a word-list rule: the name of its (new) word list")
    p.add_argument("--word", help="the list's first entry")
    p.add_argument("--language", default="en", choices=("en", "zh"), help="the language of --word")
    p.add_argument("--message", help="the finding's message, with {word}")
    p.add_argument("--scope", choices=tuple(SCOPES), help="a rule with code: what its function reads")
    p.add_argument("--example", required=True, help="a statement (word-list rule, with {word}) or a document that breaks the rule")
    p.add_argument("--root", default=str(ROOT), help="the checkout to edit (default: this one)")
    args = p.parse_args(argv)
    try:
        written = scaffold(args)
    except ScaffoldError as exc:
        print(f"add_rule: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    print("next: fill in the page's Why, Example and Fix" + ("" if args.list else ", write the function")
          + "; run .venv/bin/python -m pytest -m fast and python scripts/gen_rule_index.py")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
