"""Snippet files as the Markdown twin reads them: docs-relative, never outside the docs folder, kept per process."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from docsgen.mdx.files import kept

__all__ = ["file_reader"]


@functools.lru_cache(maxsize=8)
def _resolved(folder: Path) -> Path:
    """Return a folder's real path, once per folder (every page's twin asks for its docs folder's)."""
    return folder.resolve()


def file_reader(docs_dir: Path) -> Callable[[str], str | None]:
    """Return a reader of docs-relative files (snippets) that refuses paths outside the docs folder."""
    root = _resolved(docs_dir)

    def read(path: str) -> str | None:
        return kept("twin", root, path, lambda: _read_inside(root, path))

    return read


def _read_inside(root: Path, path: str) -> str | None:
    target = (root / path).resolve()
    if not target.is_relative_to(root) or not target.is_file():
        return None
    try:
        return target.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
