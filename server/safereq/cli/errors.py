"""How every command reports what went wrong: a user's mistake in one line, a bug in one line unless debugging.

A command's ``run`` is ``guarded(_run, args, SomeInputError, ...)``: the command-line problem
(:class:`UsageError`), a configuration problem (with ``path:line`` so editors can jump to it) and the
command's own input errors (a broken fragment, an unknown revision, a malformed ReqIF file) exit with status 2
and one line on standard error; anything else is a bug in safereq, also one line (``SAFEREQ_DEBUG=1`` shows the
traceback). Standard library only: ``safereq --help`` stays instant.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..checks.config import ConfigError


class UsageError(Exception):
    """A problem with the command line: reported on one line, exit status 2."""


def config_error(exc: ConfigError) -> str:
    """``path:line: message`` with the path as the user would type it, so editors can jump to it."""
    from ..workspace.loader import display_path

    if exc.path is None:
        return f"safereq: {exc.message}"
    where = display_path(Path(exc.path)) + (f":{exc.line}" if exc.line else "")
    return f"{where}: {exc.message}"


def guarded(body: Callable[[argparse.Namespace], int], args: argparse.Namespace,
            *user_errors: type[BaseException]) -> int:
    """``body(args)``, with every error turned into one line and exit status 2 (see the module docstring)."""
    from ..checks.config import ConfigError

    from ..model.printable import printable

    try:
        return body(args)
    except (UsageError, *user_errors) as exc:
        print(printable(f"safereq: {exc}"), file=sys.stderr)  # names from input (a fragment's) may hold escapes
        return 2
    except ConfigError as exc:
        print(config_error(exc), file=sys.stderr)
        return 2
    except Exception as exc:  # a bug in safereq, not the user's input: one line, unless debugging
        if os.environ.get("SAFEREQ_DEBUG"):
            raise
        print(f"safereq: internal error: {type(exc).__name__}: {exc} (please report it; set SAFEREQ_DEBUG=1 "
              "to see the traceback)", file=sys.stderr)
        return 2
