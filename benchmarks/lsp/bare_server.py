"""The baseline for the start-up benchmark: a pygls 2 server with no features, started like safereq's.

It answers ``initialize`` with pygls' defaults and nothing else, so the difference between its time and
``safereq serve``'s is what safereq adds on top of importing pygls and lsprotocol.
"""

from pygls.lsp.server import LanguageServer

if __name__ == "__main__":
    LanguageServer("bare", "0").start_io()
