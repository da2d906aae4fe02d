"""The language server's per-document requests on the pathological shapes must stay near-linear (issue 25,
item 9: n headings sharing one ID took 53 s of code lenses at 2,500 and 395 s at 5,000).

    .venv/bin/python benchmarks/shapes/lenses.py [--n 10000] [--shapes same-id,cycle,chain]

In one process per shape and size: the document is opened in a language-server session (no client), then
code lenses and document symbols are asked once to warm up and once measured (CPU time). Prints a table of
CPU at n and 2n and the growth (2 for linear, 4 for quadratic). Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import SHAPES  # noqa: E402  (benchmarks/shapes/generate.py)


def measure(shape: str, n: int) -> float:
    """CPU seconds of code lenses plus document symbols on a document of ``shape`` with ``n`` items."""
    from lsprotocol import types

    from safereq.lsp.lens import code_lens
    from safereq.lsp.navigation import document_symbols
    from safereq.lsp.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        session = Session("utf-16", [Path(tmp)])
        uri = (Path(tmp) / "shape.md").as_uri()
        session.open_document(uri, SHAPES[shape](n), 1, "markdown")
        ls = SimpleNamespace(session=session, client_name="benchmark", client_capabilities=types.ClientCapabilities())
        doc = types.TextDocumentIdentifier(uri=uri)
        asks = (lambda: code_lens(ls, types.CodeLensParams(text_document=doc)),
                lambda: document_symbols(ls, types.DocumentSymbolParams(text_document=doc)))
        for ask in asks:
            ask()
        start = time.process_time()
        for ask in asks:
            ask()
        return time.process_time() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--shapes", default="chain,cycle,same-id,wide-attribute")
    ap.add_argument("--one", nargs=2, metavar=("SHAPE", "N"), help=argparse.SUPPRESS)  # a child's job
    args = ap.parse_args()
    if args.one:
        print(measure(args.one[0], int(args.one[1])))
        return 0
    print(f"| shape | CPU at {args.n:,} | CPU at {2 * args.n:,} | growth |\n|---|---|---|---|")
    for shape in args.shapes.split(","):
        cpu = [float(subprocess.run([sys.executable, __file__, "--one", shape, str(n)], check=True,
                                    capture_output=True, text=True).stdout) for n in (args.n, 2 * args.n)]
        print(f"| {shape} | {cpu[0]:.2f} s | {cpu[1]:.2f} s | {cpu[1] / cpu[0]:.2f}× |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
