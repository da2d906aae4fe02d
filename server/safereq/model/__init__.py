"""The document model: Markdown requirement documents parsed into items with exact source ranges.

No I/O and no protocol types live here. Columns are counted in Unicode code points; conversion to UTF-16
or UTF-8 offsets happens once, in the LSP adapter.
"""
