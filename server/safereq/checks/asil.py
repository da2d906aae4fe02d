"""asil rules (being written)."""
