"""The corpora manifest: what ships in ``corpora/``, under which licence, and how each source is named.

``corpora/manifest.yaml`` lists every redistributable source with its title, origin, licence, version and
notice file, plus the document id the index uses for it and the files to index (globs allowed).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class ManifestError(Exception):
    pass


@dataclass(frozen=True, slots=True)
class CorpusSource:
    id: str
    kind: str  # "document" | "catalogue"
    document: str
    year: str
    title: str
    source: str
    licence: str
    version: str
    notice: str
    files: tuple[Path, ...]


def load_manifest(corpora: Path) -> list[CorpusSource]:
    import yaml

    path = corpora / "manifest.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ManifestError(f"cannot read {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise ManifestError(f"{path} is not valid YAML: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("sources"), list):
        raise ManifestError(f"{path}: expected a 'sources' list")
    out: list[CorpusSource] = []
    for item in data["sources"]:
        if not isinstance(item, dict) or "id" not in item:
            raise ManifestError(f"{path}: every source needs an 'id'")
        files: list[Path] = []
        for pattern in item.get("files", []):
            matches = sorted(p for p in corpora.glob(str(pattern)) if p.is_file())
            files.extend(matches)
        out.append(CorpusSource(
            id=str(item["id"]), kind=str(item.get("kind", "document")), document=str(item.get("document", "")),
            year=str(item.get("year", "") or ""), title=str(item.get("title", "")),
            source=str(item.get("source", "")), licence=str(item.get("licence", "")),
            version=str(item.get("version", "")), notice=str(item.get("notice", "")), files=tuple(files),
        ))
    return out
