"""``safereq check``: check requirement documents and report findings as text, JSON or SARIF.

Every file given (or found under a folder given) is loaded into one workspace, so links between documents
are checked. Exit status: 0 when no error-severity finding remains, 1 when one does, 2 for a usage or
configuration problem (or an internal error). See docs/cli.md.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI imports the core lazily, so that `safereq --help` stays instant
    from ..checks.config import Config
    from ..checks.engine import Checker
    from ..checks.engine.deviations import Accepted
    from ..checks.findings import Finding, Fix, Severity
    from ..checks.registry import RuleInfo
    from ..model.document import Document
    from ..workspace import Workspace
    from ..workspace.loader import LoadResult

from .errors import UsageError

MAX_FIX_ROUNDS = 10


def _size(text: str) -> int:
    from ..workspace.loader import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _rule_setting(text: str) -> tuple[str, str]:
    rule, sep, severity = text.partition("=")
    if not sep or not rule.strip() or not severity.strip():
        raise argparse.ArgumentTypeError(f"expected ID=SEVERITY (e.g. wording/vague-term=error), got {text!r}")
    return rule.strip(), severity.strip().lower()


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes (1 or more), got {text!r}")
    return value


def _id_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _gate(text: str):
    from ..report.coverage import Gate

    try:
        return Gate.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_report_options(p: argparse.ArgumentParser) -> None:
    """``--format`` and ``--output``, which every command reporting findings takes (:func:`_render`, :func:`_emit`)."""
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text", help="output format (default: text)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of standard output")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check", help="check requirement documents",
        description="Check Markdown requirement documents and report findings. Folders are searched for *.md "
                    "and *.markdown files (hidden folders, node_modules and virtual environments are skipped). "
                    "Exit status: 0 no errors, 1 errors found, 2 usage or configuration error.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to check (default: .)")
    add_report_options(p)
    p.add_argument("--fix", action="store_true", help="apply safe fixes in place, then report what remains")
    p.add_argument("--config", metavar="FILE", help="use this safereq.toml or pyproject.toml instead of searching")
    p.add_argument("--select", metavar="IDS", type=_id_list, action="append", default=[],
                   help="report only these rules or families (comma-separated; enables rules that are off by default)")
    p.add_argument("--ignore", metavar="IDS", type=_id_list, action="append", default=[],
                   help="do not report these rules or families (comma-separated)")
    p.add_argument("--rule", metavar="ID=SEVERITY", type=_rule_setting, action="append", default=[],
                   help="set a rule's or family's severity: error, warning, info, hint, on or off (repeatable)")
    p.add_argument("--max-file-size", metavar="SIZE", type=_size, default=None,
                   help="skip documents larger than SIZE, e.g. 20MB (default: 10MB)")
    p.add_argument("--max-memory", metavar="SIZE", type=_size, default=None,
                   help="stop checking once it uses more than SIZE of memory, e.g. 4GB (default: 10 times the "
                        "documents' size, at least 512MB; see docs/reliability.md)")
    p.add_argument("-j", "--jobs", metavar="N", type=_jobs, default=0,
                   help="processes to check with (default: one per core, for large workspaces on Linux)")
    p.add_argument("-q", "--quiet", action="store_true", help="print findings only: no summary or notices")
    p.add_argument("--coverage-min", metavar="KIND=PCT", type=_gate, action="append", default=[],
                   help="fail (exit 1) when a kind's trace coverage is below PCT: SG=100, TSR.verified=90, "
                        "all.refined=80 (repeatable; see docs/report.md)")
    p.add_argument("--test-results", metavar="GLOB", action="append", default=[],
                   help="JUnit XML test results (repeatable; default: the configuration's 'test-results'): failed "
                        "or missing results are findings, and --coverage-min takes KIND.passed")
    p.add_argument("--baseline", metavar="FILE",
                   help="report only findings not in FILE (created with today's findings when missing; default: "
                        "the configuration's 'baseline')")
    p.add_argument("--update-baseline", nargs="?", const="prune", choices=("prune", "all"), metavar="all",
                   help="remove the baseline's entries that are fixed; with =all, record every current finding")
    p.add_argument("--fragment", metavar="OUT", help="also write this repository's fragment for `safereq merge` "
                                                     "(reused as it is when its inputs did not change; *.gz gzipped)")
    p.add_argument("--fragment-name", metavar="NAME", help="the name the fragment's paths are shown under after a "
                                                          "merge (default: the checked folder's name)")
    p.add_argument("--no-cache", action="store_true",
                   help="neither read nor write the check cache (.safereq/cache; see docs/cli.md)")
    p.set_defaults(handler=run, fast_exit=True)


def run(args: argparse.Namespace) -> int:
    from ..impact.review_state import ReviewStateError
    from ..workspace.memory import MemoryLimitExceeded
    from .errors import guarded

    return guarded(_run, args, ReviewStateError, MemoryLimitExceeded)



def _load_config(args: argparse.Namespace, paths: list[str]) -> Config:
    from ..checks.config import Config, find_config, load_config_file

    if args.config:
        config_path: Path | None = Path(args.config)
        assert config_path is not None
        if not config_path.is_file():
            raise UsageError(f"{args.config}: configuration file not found")
    else:
        config_path = find_config(Path(os.path.commonpath([os.path.abspath(p) for p in paths])).resolve())
        if config_path is None:
            return Config()
    if getattr(args, "no_cache", False):  # commands other than check have no cache to bypass
        return load_config_file(config_path)
    from ..checks.engine.cached import load_config_cached

    return load_config_cached(config_path, load_config_file)


def _apply_overrides(args: argparse.Namespace, config: Config) -> tuple[Config, dict[str, Severity | None]]:
    """The configuration with --select, --ignore and --rule on top, plus the io rules' severities."""
    from ..checks.findings import Severity
    from ..checks import io_rule_infos
    from ..checks.registry import rule_infos

    known = rule_infos()
    io_infos = io_rule_infos()
    io_sev: dict[str, Severity | None] = {rid: info.severity for rid, info in io_infos.items()}
    rules: dict[str, str] = {}

    def expand(rule_id: str) -> list[str]:
        """The rule ids a rule or family names; an unknown name is a usage error, with a suggestion."""
        found = [r for r in (*known, *io_infos) if r == rule_id or r.startswith(rule_id + "/")]
        if not found:
            from rapidfuzz import process

            guess = process.extractOne(rule_id, [*known, *io_infos])
            hint = f"; did you mean '{guess[0]}'?" if guess and guess[1] > 70 else ""
            raise UsageError(f"unknown rule '{rule_id}'{hint}")
        return found

    selected = [r for group in args.select for r in group]
    if selected:
        chosen = {rid for s in selected for rid in expand(s)}
        for rid in known:
            current = config.rules.get(rid)
            rules[rid] = (current if current not in (None, "off") else "on") if rid in chosen else "off"
    for rid in (r for group in args.ignore for r in group):
        for r in expand(rid):
            rules[r] = "off"
    for rid, severity in args.rule:
        for r in expand(rid):
            rules[r] = severity
    for rid in [r for r in rules if r in io_infos]:
        setting = rules.pop(rid)
        try:
            io_sev[rid] = None if setting == "off" else io_infos[rid].severity if setting == "on" else Severity.parse(setting)
        except ValueError as exc:
            raise UsageError(f"rule '{rid}': {exc}") from None
    return config.merged({"rules": rules}) if rules else config, io_sev


def _run(args: argparse.Namespace) -> int:
    from ..checks.engine import Checker
    from ..checks.findings import Severity
    from ..checks import all_rule_infos, io_findings
    from ..checks import default_jobs, parse_and_check
    from ..model.vocabulary import load_vocabulary
    from ..workspace import Workspace
    from ..workspace.loader import DEFAULT_MAX_BYTES, Excluder, load
    from ..workspace.memory import Guard, gc_paused, limit_for, resident_now

    before = resident_now()  # the limit counts what checking adds to the interpreter and safereq
    paths = args.paths or ["."]
    config = _load_config(args, paths)
    config, io_severities = _apply_overrides(args, config)
    cwd = Path.cwd()
    excluder = Excluder(config.exclude, config.source.parent if config.source else cwd)
    loaded = load(paths, excluder=excluder, max_bytes=args.max_file_size or DEFAULT_MAX_BYTES, cwd=cwd,
                  max_memory=args.max_memory)
    limit = limit_for(sum(len(source.text) for source in loaded.sources), args.max_memory)

    fragment = _fragment_plan(args, paths, config, loaded, cwd) if args.fragment else None
    with Guard(limit, before), gc_paused():
        workspace = Workspace(load_vocabulary(config.kinds) if config.kinds else None)
        checker = Checker(config)
        checker.set_review(_review_state(config, paths))
        cache = _check_cache(args, config, cwd, loaded)
        if fragment is not None and fragment.reused is not None:
            findings = fragment.reused.local + fragment.reused.workspace
        elif cache is not None:
            from ..checks.engine.cached import check_with_cache

            findings = check_with_cache(loaded.sources, workspace, checker, args.jobs or default_jobs(), cache,
                                        uncacheable=_holds_deviation)
        else:
            findings = parse_and_check(loaded.sources, workspace, checker, args.jobs or default_jobs())
            if fragment is not None:
                fragment.write(loaded.sources, workspace, checker, findings)
        # Held by the arguments, so that it outlives this function: the command exits without freeing it
        # (see fast_exit in cli.main.console).
        args.retained = (workspace, checker, loaded)
        fixed: int | None = None
        if args.fix:
            findings, fixed = _fix(workspace, checker, loaded, findings, quiet=args.quiet)
        evidence = _evidence(args, config, workspace, loaded, cwd)
        if evidence is not None:
            from ..report.test_evidence import findings as evidence_findings

            findings = findings + evidence_findings(workspace, evidence, checker.severities)
        findings = sorted(findings + io_findings(loaded.problems, io_severities), key=lambda f: f.sort_key())
        findings, baselined = _baselined(args, config, workspace, loaded, findings, cwd)
        severities = {rid: checker.severities.get(rid) for rid in checker.rules} | io_severities
        texts = {s.path: ("\ufeff" if s.bom else "") + s.text for s in loaded.sources}  # not parsed when cached
        texts.update({path: ("\ufeff" if path in loaded.by_path and loaded.by_path[path].bom else "") + doc.text
                      for path, doc in workspace.documents.items()})
        accepted = [] if fragment is not None and fragment.reused is not None else checker.accepted()
        report = _render(args.format, findings, all_rule_infos(), severities, cwd, texts, accepted)
    _emit(report, args.output)
    if not args.quiet:
        _print_summary(args, findings, len(loaded.sources), fixed, paths, accepted=len(accepted), baselined=baselined)
    for rule, error in sorted(checker.failures.items()):
        print(f"safereq: internal error in rule {rule} ({error}); its findings are missing from this report. "
              "Please report this bug (SAFEREQ_DEBUG=1 shows the traceback).", file=sys.stderr)
    if checker.failures:
        return 2
    short = _coverage_failures(args.coverage_min, workspace, loaded, evidence)
    return 1 if short or any(f.severity == Severity.ERROR for f in findings) else 0


def _baselined(args: argparse.Namespace, config: Config, workspace: Workspace, loaded: LoadResult,
               findings: list[Finding], cwd: Path) -> tuple[list[Finding], int]:
    """The findings not in the baseline (``--baseline`` or the configuration's), and how many were in it.

    A missing baseline file is created with every current finding; ``--update-baseline`` removes the
    entries no finding matches any more, ``--update-baseline=all`` records every current finding."""
    from ..report.baseline import Baseline, BaselineError

    path = Path(args.baseline) if args.baseline else (config.root or cwd) / config.baseline if config.baseline else None
    if path is None:
        if args.update_baseline:
            raise UsageError("--update-baseline needs a baseline: give --baseline FILE or set 'baseline' in the "
                             "configuration")
        return findings, 0
    if not workspace.documents and loaded.sources:  # a reused fragment: nothing was parsed
        workspace.update_many((source.path, source.text) for source in loaded.sources)
    try:
        try:
            baseline = Baseline.load(path)
        except FileNotFoundError:
            baseline = Baseline(path).updated(findings, workspace, cwd, add=True)
            baseline.write()
            if not args.quiet:
                print(f"safereq: recorded {baseline.size} findings in the new baseline {path}", file=sys.stderr)
            return [], len(findings)
        if args.update_baseline:
            before = baseline.size
            baseline = baseline.updated(findings, workspace, cwd, add=args.update_baseline == "all")
            baseline.write()
            if not args.quiet:
                change = baseline.size - before
                print(f"safereq: baseline {path}: {abs(change)} {'added' if change > 0 else 'removed'}, "
                      f"{baseline.size} kept", file=sys.stderr)
    except BaselineError as exc:
        raise UsageError(str(exc)) from None
    new, known = baseline.split(findings, workspace, cwd)
    return new, len(known)


def _evidence(args: argparse.Namespace, config: Config, workspace: Workspace, loaded: LoadResult, cwd: Path):
    """The test results (``--test-results``, else the configuration's ``test-results``) matched to the
    verification items, or None when none are given; the test cases that match none are listed on standard
    error. A pattern that names no file, or a file that is not JUnit XML, is a usage error."""
    if args.test_results:
        patterns, root = list(args.test_results), cwd
    elif config.test_results:
        patterns, root = list(config.test_results), config.root or cwd
    else:
        return None
    if not workspace.documents and loaded.sources:  # a reused fragment: nothing was parsed
        workspace.update_many((source.path, source.text) for source in loaded.sources)
    from ..report.test_evidence import load

    evidence = load(patterns, root, workspace, config.test_id_pattern)
    if evidence.problems:
        raise UsageError("; ".join(evidence.problems))
    if evidence.unmatched and not args.quiet:
        shown = ", ".join(c.full_name for c in evidence.unmatched[:10])
        more = f" and {len(evidence.unmatched) - 10} more" if len(evidence.unmatched) > 10 else ""
        print(f"safereq: {len(evidence.unmatched)} of {len(evidence.cases)} test cases name no verification item: "
              f"{shown}{more}", file=sys.stderr)
    return evidence


def _coverage_failures(gates: list, workspace: Workspace, loaded: LoadResult, evidence=None) -> list[str]:
    """The coverage gates (``--coverage-min``) that fail, each printed on standard error."""
    if not gates:
        return []
    if len(workspace.documents) < len(loaded.sources):  # a reused fragment or cache: not everything was parsed
        workspace.update_many((source.path, source.text) for source in loaded.sources)
    from ..exchange.records import collect
    from ..report.coverage import compute

    coverage = compute(collect(workspace), evidence.statuses() if evidence is not None else None)
    failures = [line for gate in gates for line in gate.failures(coverage)]
    for line in failures:
        print(f"safereq: {line}", file=sys.stderr)
    return failures


class _FragmentPlan:
    """Where this run's fragment goes, its content address, and the fragment already there if it matches."""

    def __init__(self, out: Path, name: str, inputs: str, prefix: str, reused, config: dict) -> None:
        self.out, self.name, self.inputs, self.prefix, self.reused = out, name, inputs, prefix, reused
        self.config = config

    def write(self, sources, workspace, checker, findings) -> None:
        from ..fragment.build import build
        from ..fragment.format import write

        try:
            write(build(self.name, self.inputs, sources, workspace, checker, findings, self.prefix, self.config),
                  self.out)
        except OSError as exc:
            raise UsageError(f"cannot write {self.out}: {exc.strerror or exc}") from None


def _fragment_plan(args: argparse.Namespace, paths: list[str], config: Config, loaded: LoadResult,
                   cwd: Path) -> _FragmentPlan:
    from ..fragment.build import config_key, prefix_of, relative, reusable, root_of
    from ..fragment.format import FragmentError, inputs_digest
    from ..workspace.loader import digest_of

    if args.fix:
        raise UsageError("--fragment and --fix cannot be combined: fix first, then write the fragment")
    root = root_of(paths)
    prefix = prefix_of(root, cwd)
    review = (config.source.parent if config.source else root) / "safereq-review.jsonl"
    key = config_key(config) | {"review": digest_of(review.read_bytes()) if review.is_file() else None}
    try:
        inputs = inputs_digest(((relative(s.path, prefix), s.digest) for s in loaded.sources), key)
    except FragmentError as exc:
        raise UsageError(str(exc)) from None
    out = Path(args.fragment)
    name = args.fragment_name or root.resolve().name or "workspace"
    found = reusable(out, inputs, prefix)
    return _FragmentPlan(out, name, inputs, prefix, found if found is not None and found.source == name else None,
                         key)


# An attribute line that writes an accepted deviation (checks/engine/deviations.py, key "deviation").
_DEVIATION_LINE = re.compile(r"^[ \t]*[-*+][ \t]+deviation[ \t]*[:：]", re.IGNORECASE | re.MULTILINE)


def _holds_deviation(source) -> bool:
    """Whether a document writes an accepted deviation: then the run is not cached (the report lists what it
    accepted, which a cached run does not know). Asked only of documents without a cache entry: one that has
    an entry held none when it was written (check_with_cache's ``uncacheable``), which spares a warm re-run
    this scan of every line (a fifth of its CPU on 7 MB).

    The expression runs only on a text that can match it: one whose bytes, ASCII letters lower-cased, hold
    ``deviation``, or that holds one of the two non-ASCII letters a case-insensitive ``i`` also matches
    (İ, ı). Lower-casing bytes costs a third of the expression's search of every line start."""
    data = source.text.encode("utf-8", "surrogatepass")
    if b"deviation" not in data.lower() and "\u0130" not in source.text and "\u0131" not in source.text:
        return False
    return _DEVIATION_LINE.search(source.text) is not None


def _check_cache(args: argparse.Namespace, config: Config, cwd: Path, loaded: LoadResult):
    """The persistent cache of this run (see checks/engine/cached.py), or None: ``--no-cache``, turned off in
    the configuration, or a run that needs every document parsed anyway: ``--fix``, ``--fragment``, test results
    or a baseline (both read the parsed items). Documents holding an accepted deviation are found by
    check_with_cache (:func:`_holds_deviation`)."""
    if args.no_cache or args.fix or args.fragment:
        return None
    if getattr(args, "test_results", None) or config.test_results or args.baseline or config.baseline:
        return None
    folder = config.cache_dir(cwd)
    if folder is None:
        return None
    from ..checks.engine.cached import open_check_cache

    return open_check_cache(folder)


def _review_state(config: Config, paths: list[str]):
    """The workspace's review file (``trace/suspect-link`` compares against it), beside the configuration
    file, else in the folder checked; None when the rule is off, so nothing is read."""
    from ..impact import review_state

    if config.rules.get("trace/suspect-link") == "off":
        return None
    root = config.source.parent if config.source else Path(os.path.commonpath([os.path.abspath(p) for p in paths]))
    return review_state.load(root if root.is_dir() else root.parent)


def _render(fmt: str, findings: Sequence[Finding], rules: Mapping[str, RuleInfo],
            severities: Mapping[str, Severity | None], cwd: Path, texts: Mapping[str, str] | None = None,
            accepted: Sequence[Accepted] = ()) -> str:
    """The report in ``fmt``; ``texts`` (documents by path) give SARIF its line hashes and UTF-16 columns,
    else it reads the files from disk. ``accepted`` findings (deviations) are written as suppressed results in
    SARIF; the other formats leave them out."""
    if fmt == "json":
        from ..report import json as report_json

        return report_json.render(findings)
    if fmt == "sarif":
        from ..report import sarif

        return sarif.render(findings, rules, severities, cwd, texts,
                            accepted=[(a.finding, a.deviation.reason, a.deviation.item_id) for a in accepted])
    from ..report import text

    return text.render(findings)


def _emit(report: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(report)
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(report, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror or exc}") from None


def _print_summary(args: argparse.Namespace, findings: Sequence[Finding], files: int, fixed: int | None,
                   paths: list[str], *, accepted: int = 0, baselined: int = 0) -> None:
    from ..report.text import summary

    if files == 0 and not findings:
        print(f"safereq: no Markdown files found in {' '.join(paths)}", file=sys.stderr)
        return
    if args.format == "text" or args.output:
        fixable = sum(1 for f in findings if f.fix is not None and f.fix.safe)
        print(summary(findings, files, fixed=fixed, fixable=fixable, accepted=accepted, baselined=baselined),
              file=sys.stderr)


def _fix(workspace: Workspace, checker: Checker, loaded: LoadResult, findings: list[Finding], *,
         quiet: bool) -> tuple[list[Finding], int]:
    """Apply safe fixes until none is left (or a round changes nothing); return remaining findings and count.

    A file is written only if its bytes are still those that were read, and only if the round leaves every
    ID, ASIL, link and number of it as it was (``changed_commitment``: a fix that would change one is a bug,
    and is refused rather than written); otherwise it is left alone and named on standard error. Each fix
    applied is named on standard error with its place and item. Fixes are re-planned after each round
    because applying one can make another (which overlapped it) applicable, or unnecessary.
    """
    from ..checks import apply_edits, plan_fixes
    from ..model.commitments import changed_commitment
    from ..model.printable import printable
    from ..workspace.loader import CannotKeepLineEnds, ChangedOnDisk, write_source

    sources = dict(loaded.by_path)
    fixed = 0
    for _ in range(MAX_FIX_ROUNDS):
        plan = plan_fixes(findings, paths=sources)
        written: set[str] = set()
        before = {path: workspace.documents[path] for path in plan.edits}
        for path, edits in plan.edits.items():
            old = before[path].text
            new = apply_edits(old, edits)
            if new == old:
                continue
            reason = changed_commitment(before[path], workspace.update(path, new))
            if reason is None:
                try:
                    sources[path] = write_source(sources[path], new)
                except (ChangedOnDisk, CannotKeepLineEnds, OSError) as exc:
                    reason = ("changed on disk since it was read" if isinstance(exc, ChangedOnDisk) else
                              "its line ends mix lone CRs with others, which a fix would change (save it with "
                              "one kind of line end)" if isinstance(exc, CannotKeepLineEnds) else
                              exc.strerror or str(exc))
            else:
                reason = f"{reason} (a safe fix must not: please report this bug)"
            if reason is not None:
                workspace.update(path, old)
                if not quiet:
                    print(printable(f"safereq: {path}: not fixed: {reason}"), file=sys.stderr)
                del sources[path]
                continue
            written.add(path)
        if not written:
            break
        done = [fix for fix in plan.fixes if all(e.path in written for e in fix.edits)]
        if not quiet:
            for fix in done:
                print(printable(f"safereq: fixed {_fix_place(before, fix)}: {fix.title}"), file=sys.stderr)
        fixed += len(done)
        findings = checker.check(workspace)
    return findings, fixed


def _fix_place(documents: dict[str, Document], fix: Fix) -> str:
    """``path:line ITEM`` of a fix's first edit, as the document was before it (the item when there is one)."""
    edit = fix.edits[0]
    item = documents[edit.path].item_at(edit.span.start_line)
    return f"{edit.path}:{edit.span.start_line + 1}" + (f" {item.id}" if item is not None else "")
