"""safereq: checks, navigation and suggestions for safety requirements written in Markdown."""

__version__ = "0.1.0"
