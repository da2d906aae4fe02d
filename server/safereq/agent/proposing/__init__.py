"""Proposing and placing: the text report, the review block, and where a derived requirement is written."""
