"""Precomputed embeddings of the shipped corpora, so ``safereq index`` does not spend minutes on them.

Embedding the ~1,500 shipped chunks with the bundled model takes several minutes on a 2-core machine. The
vectors depend only on the chunk text (plus contextual header) and the model, so we ship them:
``corpora/embeddings/<model>.npz`` maps embed hashes to float16 vectors. The indexer looks there after the
table's own cache and embeds only what is missing (e.g. catalogue entries edited since the seed was made).

Regenerate after changing the shipped corpora, the chunker or the model:

    safereq index                      # builds ./.safereq/index
    python -m safereq.knowledge.seed   # writes corpora/embeddings/<model>.npz from it
"""

from __future__ import annotations

import argparse
import re
import sys
from functools import lru_cache
from pathlib import Path

from .paths import SHIPPED_PREFIX, corpora_dir


def seed_path(model_id: str, corpora: Path | None = None) -> Path:
    slug = re.sub(r"[^A-Za-z0-9.-]+", "_", model_id).strip("_")
    return (corpora or corpora_dir()) / "embeddings" / f"{slug}.npz"


@lru_cache(maxsize=4)
def load_seed(path: Path) -> dict[str, list[float]]:
    """embed hash → vector from a seed file; an unreadable or missing file is simply an empty cache."""
    if not path.is_file():
        return {}
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            hashes = data["hashes"].tolist()
            vectors = data["vectors"].astype("float32")
    except (OSError, ValueError, KeyError):
        return {}
    return {h: v.tolist() for h, v in zip(hashes, vectors, strict=False)}


def write_seed(index_dir: Path, corpora: Path | None = None) -> tuple[Path, int]:
    """Write the seed for the shipped-corpus rows of the index at ``index_dir``; returns (path, vectors)."""
    import numpy as np

    from .store import Store

    store = Store(index_dir)
    model, dim = store.model()
    if not dim:
        raise SystemExit("the index has no vectors (built with --embedder none)")
    tbl = (store.table.search().where(f"source LIKE '{SHIPPED_PREFIX}%'").select(["embed_hash", "vector"])
           .limit(None).to_arrow())
    seen: dict[str, list[float]] = {}
    for h, v in zip(tbl.column("embed_hash").to_pylist(), tbl.column("vector").to_pylist(), strict=True):
        seen.setdefault(h, v)
    hashes = sorted(seen)
    path = seed_path(model, corpora)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, hashes=np.array(hashes, dtype="U32"),
                        vectors=np.array([seen[h] for h in hashes], dtype="float16"))
    return path, len(hashes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write corpora/embeddings/<model>.npz from an index")
    parser.add_argument("--index-dir", default=".safereq/index")
    args = parser.parse_args(argv)
    path, n = write_seed(Path(args.index_dir))
    print(f"wrote {n} vectors to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
