"""The command line: one module per command, each registering a sub-command on the shared parser."""
