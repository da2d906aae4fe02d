"""Helpers shared by the knowledge-base tests: a minimal PDF writer and a deterministic test embedder."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def make_pdf(pages: list[list[str]]) -> bytes:
    """A minimal valid PDF whose pages carry the given lines in a text layer (Helvetica, one line each)."""
    objects: list[bytes] = []
    n_pages = len(pages)
    font_id = 3 + 2 * n_pages
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    for i, lines in enumerate(pages):
        content = "BT /F1 11 Tf 14 TL 50 780 Td " + " ".join(
            "(" + ln.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ") '" for ln in lines) + " ET"
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents {4 + 2 * i} 0 R "
                       f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode())
        data = content.encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


class HashEmbedder:
    """A deterministic stand-in for the embedding model (bag of hashed words), counting what it embeds.

    Used where a test is about indexing mechanics (skips, cache reuse, atomic writes), not about ranking.
    """

    model_id = "test:hash-bow-64"
    dim = 64

    def __init__(self, fail_after: int | None = None):
        self.embedded = 0
        self.fail_after = fail_after

    def _vec(self, text: str) -> list[float]:
        v = [0.0] * self.dim
        for w in text.lower().split():
            v[int(hashlib.md5(w.encode()).hexdigest(), 16) % self.dim] += 1.0
        norm = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / norm for x in v]

    def embed_passages(self, texts: list[str]) -> list[list[float]]:
        if self.fail_after is not None and self.embedded + len(texts) > self.fail_after:
            from safereq.knowledge.embeddings import EmbeddingError

            raise EmbeddingError("simulated embedding failure")
        self.embedded += len(texts)
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)
