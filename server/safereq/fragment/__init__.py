"""Fragments: one repository's check, written so that a merge step can check many repositories as one.

A vehicle programme keeps its requirements in many repositories; each CI job checks its own documents and
writes a fragment (``safereq check --fragment OUT``), and one merge step (``safereq merge FRAGMENT...``)
runs the rules that need every repository — links between them, ASIL inheritance across them, duplicate
IDs, coverage — once. This is the shape of LOBSTER's and of Bazel's builds: each part's output is an input
of the next step, content-addressed so that an unchanged part is not redone.

- :mod:`.format`: the fragment file (stable JSON) and what goes in it;
- :mod:`.merge`: the merged workspace and its findings.
"""
