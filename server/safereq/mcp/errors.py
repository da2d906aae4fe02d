"""The one error a tool raises on purpose: a refused request, told to the client in one clear sentence.

Kept free of the SDK so that the modules translating requests (confinement, paging) stay plain Python; the
server wiring turns it into an MCP tool error or resource error (server.py).
"""


class Refused(Exception):
    """A request the server will not or cannot answer: a bad argument, a path outside the workspace, an
    unknown ID. The message is shown to the client (and the model) as it is."""
