"""The static HTML traceability report: one self-contained page (CSS, script and SVG inline) that opens
from the file system with no server. ``page`` lays it out, ``graph`` draws each safety goal's trace."""
