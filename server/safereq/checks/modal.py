"""modal rules (being written)."""
