"""wording rules (being written)."""
