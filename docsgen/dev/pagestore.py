"""Where `docsgen dev` keeps rendered pages: files in a temporary folder, served from disk, not held in memory.

Every write gets a file of its own (a page rendered again is a new file): a request reading a page while it is
rendered again reads either the old file or the new one, never half of one, and a render process can never
overwrite what the main process wrote. The folder is outside the docs folder (the watcher never sees it) and is
deleted when the server stops.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
import weakref
from collections.abc import Iterable
from pathlib import Path


class PageStore:
    """A temporary folder of rendered files; names are never reused."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="docsgen-dev-pages-"))
        self._numbers = itertools.count()
        # removed when the store is dropped or Python exits, even if close() was never called
        self._cleanup = weakref.finalize(self, shutil.rmtree, str(self.root), ignore_errors=True)

    def new_path(self, suffix: str, prefix: str = "m") -> Path:
        """Return a file path no write has used (prefix: who writes, so render processes never collide)."""
        return self.root / f"{prefix}{next(self._numbers)}{suffix}"

    def write(self, data: str | bytes, suffix: str, prefix: str = "m") -> Path:
        """Write a new file and return its path."""
        path = self.new_path(suffix, prefix)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        return path

    def write_chunks(self, chunks: Iterable[str], suffix: str) -> Path:
        """Write a new file from text made in pieces (never held whole) and return its path."""
        path = self.new_path(suffix)
        with path.open("w", encoding="utf-8") as out:
            for chunk in chunks:
                out.write(chunk)
        return path

    def discard(self, path: object) -> None:
        """Delete a file of the store that nothing serves any more (anything else is left alone)."""
        if isinstance(path, Path) and path.parent == self.root:
            path.unlink(missing_ok=True)

    def close(self) -> None:
        """Delete the folder and everything in it."""
        self._cleanup()


class StoredFiles:
    """Files handed over as bytes and kept as page store files (the search index's bundles, as Pagefind
    finishes them: docsgen.outputs.site_search), by site path."""

    def __init__(self, store: PageStore) -> None:
        self.store = store
        self.files: dict[str, Path] = {}

    def write(self, path: str, data: bytes) -> None:
        """Keep one file (a later one at the same path replaces it)."""
        self.files[path] = self.store.write(data, "." + path.rpartition(".")[2])
