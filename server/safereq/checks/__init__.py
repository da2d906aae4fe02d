"""Checks: pure functions from the workspace to findings, one module per family of rules."""
