"""``safereq serve`` with a hover that always fails, to test that a failing request is answered with an error
while the server keeps running and keeps its state. Test-only: it patches the feature before serving."""

import safereq.lsp.hover as hover


def _broken_hover(ls, params):
    raise RuntimeError("injected hover failure")


hover.hover = _broken_hover

if __name__ == "__main__":
    from safereq.lsp.server import serve

    serve()
