"""Where docsgen keeps its caches: outside the docs folder, so a build never writes into the sources."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def cache_root() -> Path:
    """Return the cache root: $DOCSGEN_CACHE_DIR, else $XDG_CACHE_HOME/docsgen, else ~/.cache/docsgen."""
    if os.environ.get("DOCSGEN_CACHE_DIR"):
        return Path(os.environ["DOCSGEN_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "docsgen"


def cache_dir(docs_dir: Path) -> Path:
    """Return the cache folder of one docs folder (named after its absolute path)."""
    resolved = Path(docs_dir).resolve()
    digest = hashlib.sha256(str(resolved).encode("utf-8")).hexdigest()[:16]
    return cache_root() / f"{resolved.name or 'site'}-{digest}"
