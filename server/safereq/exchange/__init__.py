"""Exchange with neighbouring tools: export a workspace (JSON, CSV, sphinx-needs, ReqIF, LOBSTER) and import
ReqIF and needs.json back into safereq Markdown. Every format reads and writes the neutral records of
:mod:`.records`, so the formats know nothing of the parser and the parser nothing of the formats.
"""
