"""Where docsgen keeps its caches: outside the docs folder, so a build never writes into the sources."""

from __future__ import annotations

import hashlib
import os
from functools import cache
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


def package_dir() -> Path:
    """The docsgen package folder, whose every module the fingerprint reads (this module is in its engine/)."""
    import docsgen

    return Path(docsgen.__file__).resolve().parent


@cache
def code_fingerprint() -> str:
    """Hash docsgen's own code and theme data: a new docsgen (or an edited checkout) renders pages anew.

    The version number is not part of it (reading it imports importlib.metadata, ~25 ms of every build): a new
    release's code differs, and one whose code and themes are the same renders the same pages."""
    from docsgen.common.resources import themes_dir

    package = package_dir()
    parts: list[str | bytes] = []
    for path in sorted(package.rglob("*.py")):
        parts += [path.relative_to(package).as_posix(), path.read_bytes()]
    themes = themes_dir()  # docsgen/themes in a wheel, themes/ beside the package in a checkout
    if themes.is_dir():  # icon sets and other theme data the MDX reader uses: size and mtime are enough
        for path in sorted(themes.rglob("*")):
            if path.is_file():
                stat = path.stat()
                parts.append(f"{path.relative_to(themes).as_posix()}:{stat.st_size}:{stat.st_mtime_ns}")
    digest = hashlib.sha256()
    for part in parts:  # each length-prefixed so boundaries cannot shift
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(str(len(data)).encode() + b":" + data)
    return digest.hexdigest()
