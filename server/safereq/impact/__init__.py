"""Change impact: what a change to a requirement puts in question.

- :mod:`.snapshot`: the parts of an item a linked item depends on (statement, ASIL, safe state, FTTI,
  allocation, and the attributes a project marks as relevant), and their fingerprint;
- :mod:`.review_state`: the committed review file that records, per trace link, which version of its target
  the linking item was last reviewed against;
- :mod:`.suspect`: the links whose target changed since that review;
- :mod:`.revisions`: documents as they were at a git revision;
- :mod:`.diff`: items added, removed, changed and renamed between two workspaces, and what lies downstream.

Protocol-free, as every core layer: the CLI (``safereq diff``, ``safereq review``), the check rule
``trace/suspect-link`` and the language server read the same functions.
"""
