"""trace rules (being written)."""
