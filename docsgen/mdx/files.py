"""Reading source files (pages, snippets) safely: only regular files inside the docs folder, within a size limit."""

from __future__ import annotations

import posixpath
import stat
from pathlib import Path

from docsgen.mdx.limits import MAX_PAGE_BYTES


def read_source_bytes(path: Path) -> tuple[bytes | None, str]:
    """Return a page or snippet file's bytes, or None and why: not a regular file, or over MAX_PAGE_BYTES."""
    try:
        info = path.stat()
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        return None, f"cannot read it ({reason})"
    if not stat.S_ISREG(info.st_mode):
        return None, "it is not a regular file"
    if info.st_size > MAX_PAGE_BYTES:
        return None, f"it is {info.st_size:,} bytes; the limit is {MAX_PAGE_BYTES:,}"
    try:
        with path.open("rb") as handle:
            # the size it has (a buffer of the limit's size per file costs more than reading it), then the rest
            # up to the limit if it grew meanwhile
            data = handle.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += handle.read(MAX_PAGE_BYTES + 1 - len(data))
    except OSError as exc:
        return None, f"cannot read it ({exc.strerror or exc})"
    if len(data) > MAX_PAGE_BYTES:
        return None, f"it is larger than the limit of {MAX_PAGE_BYTES:,} bytes"
    return data, ""


def snippet_problem(docs_dir: Path, path: str) -> str:
    """Tell why a docs-relative snippet path must not be read ("" when it may): outside, missing, special, too big.

    The path is checked as written and again after symbolic links are resolved, so neither `../` nor a
    link can reach a file outside the docs folder.
    """
    normal = posixpath.normpath(path)
    if normal == ".." or normal.startswith("../") or posixpath.isabs(normal):
        return "it is outside the docs folder"
    target = docs_dir / normal
    try:
        real = target.resolve(strict=True)
        root = docs_dir.resolve()
    except FileNotFoundError:
        return "no such file"
    except (OSError, RuntimeError) as exc:  # a symlink loop, a permission problem
        return f"cannot resolve it ({getattr(exc, 'strerror', None) or exc})"
    if real != root and root not in real.parents:
        return "it resolves to a file outside the docs folder"
    try:
        info = real.stat()
    except OSError as exc:
        return f"cannot read it ({exc.strerror or exc})"
    if not stat.S_ISREG(info.st_mode):
        return "it is not a regular file"
    if info.st_size > MAX_PAGE_BYTES:
        return f"it is {info.st_size:,} bytes; the limit is {MAX_PAGE_BYTES:,}"
    return ""
