"""The workspace: every document, the items by ID, the trace graph and the ASIL facts derived from them."""

from .workspace import Reference, Workspace

__all__ = ["Reference", "Workspace"]
