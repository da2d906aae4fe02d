"""The language server: LSP adapters over the core (see server.py for the wiring)."""
