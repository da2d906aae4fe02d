"""ears rules (being written)."""
