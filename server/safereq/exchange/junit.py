"""Test results from JUnit XML, the format pytest, gtest, CTest and cargo-nextest write.

Only what verification evidence needs is read: each ``<testcase>``'s name and class name, its outcome
(``failure`` or ``error`` child: failed; ``skipped`` child or gtest's ``status="notrun"``: skipped; else
passed), the first line of the failure message, and the properties that name what it verifies
(``<properties><property name="requirements" value="TC-3"/></properties>``, or the same as an attribute of
the test case, as older gtest versions write ``RecordProperty``).

A result file is untrusted input: it is parsed with defusedxml (no DTDs' entities, no external resources,
so no billion laughs and no file disclosure), streamed with ``iterparse`` so that a large file does not
build a tree, and limited in size. A file that cannot be read is a :class:`JUnitError` with one line.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import ParseError

MAX_BYTES = 512 * 1024 * 1024
MAX_MESSAGE = 300
PROPERTY_NAMES = frozenset({"requirements", "requirement", "tc", "verifies", "test_case", "testcase_id"})
STATUSES = ("passed", "failed", "error", "skipped")


class JUnitError(Exception):
    """A result file that cannot be read; said in one line with the file's name."""


@dataclass(frozen=True, slots=True)
class TestCase:
    name: str
    classname: str
    status: str  # one of STATUSES
    message: str
    ids: tuple[str, ...]  # what its properties say it verifies (as written)
    file: str

    @property
    def full_name(self) -> str:
        return f"{self.classname}::{self.name}" if self.classname else self.name

    @property
    def failed(self) -> bool:
        return self.status in ("failed", "error")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _first_line(text: str | None) -> str:
    """A failure message as one line: its lines joined with "; " (gtest's first line is only file:line)."""
    line = "; ".join(part.strip() for part in (text or "")[:4 * MAX_MESSAGE].splitlines() if part.strip())
    line = "".join(c if c.isprintable() else " " for c in line)
    return line[:MAX_MESSAGE] + ("…" if len(line) > MAX_MESSAGE else "")


def _ids(value: str) -> list[str]:
    return [part for part in value.replace(";", ",").replace(" ", ",").split(",") if part]


def read(path: Path, shown: str | None = None) -> list[TestCase]:
    """Every test case of one JUnit XML file, in order; ``shown``: the file's name in messages and results."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import iterparse

    try:
        size = path.stat().st_size
    except OSError as exc:
        raise JUnitError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if size > MAX_BYTES:
        raise JUnitError(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB; not read")
    out: list[TestCase] = []
    depth_case = 0
    ids: list[str] = []
    status, message = "passed", ""
    attrs: dict[str, str] = {}
    try:
        for event, elem in iterparse(str(path), events=("start", "end"), forbid_dtd=False):
            tag = _local(elem.tag) if isinstance(elem.tag, str) else ""
            if event == "start":
                if tag == "testcase":
                    depth_case += 1
                    if depth_case == 1:
                        attrs = dict(elem.attrib)
                        ids, status, message = [], "passed", ""
                        ids += [i for key, value in attrs.items() if key.casefold() in PROPERTY_NAMES
                                for i in _ids(value)]
                        if attrs.get("status", "").casefold() in ("notrun", "disabled"):
                            status = "skipped"
                continue
            if depth_case and tag in ("failure", "error") and status in ("passed", "skipped"):
                status = "failed" if tag == "failure" else "error"
                message = _first_line(elem.get("message") or elem.text)
            elif depth_case and tag == "skipped" and status == "passed":
                status, message = "skipped", _first_line(elem.get("message") or elem.text)
            elif depth_case and tag == "property" and (elem.get("name") or "").casefold() in PROPERTY_NAMES:
                ids += _ids(elem.get("value") or elem.text or "")
            elif tag == "testcase" and depth_case:
                depth_case -= 1
                if depth_case == 0:
                    out.append(TestCase(attrs.get("name", ""), attrs.get("classname", ""), status, message,
                                        tuple(dict.fromkeys(ids)), shown or str(path)))
                    elem.clear()
            elif tag == "testsuite" and not depth_case:
                elem.clear()
    except (ParseError, DefusedXmlException) as exc:
        raise JUnitError(f"{path}: not readable JUnit XML ({type(exc).__name__}: {exc})") from None
    except OSError as exc:
        raise JUnitError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except RecursionError:
        raise JUnitError(f"{path}: nested too deeply") from None
    return out


def expand(patterns: Iterable[str], root: Path) -> list[Path]:
    """The files the glob ``patterns`` name (relative ones from ``root``), sorted, each once."""
    found: dict[str, Path] = {}
    for pattern in patterns:
        full = pattern if os.path.isabs(pattern) else str(root / pattern)
        for name in sorted(glob.glob(full, recursive=True)):
            if os.path.isfile(name):
                found.setdefault(os.path.abspath(name), Path(name))
    return list(found.values())


def read_all(patterns: Iterable[str], root: Path) -> tuple[list[TestCase], list[str], list[Path]]:
    """(test cases, problems, files) of every file the patterns name; a pattern that names no file is a problem."""
    patterns = list(patterns)
    files = expand(patterns, root)
    problems = [f"--test-results {p}: no such file" for p in patterns if not expand([p], root)]
    cases: list[TestCase] = []
    for path in files:
        relative = os.path.relpath(path, root)  # as the user wrote it, when under root
        try:
            cases.extend(read(path, str(path) if relative.startswith("..") else relative))
        except JUnitError as exc:
            problems.append(str(exc))
    return cases, problems, files
