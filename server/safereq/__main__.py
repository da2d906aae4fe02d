"""``python -m safereq``: the same as the ``safereq`` command."""

from .cli.main import console

console()
