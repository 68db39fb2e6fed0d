"""Reading source files (pages, snippets) safely: only regular files inside the docs folder, within a size limit."""

from __future__ import annotations

import os
import posixpath
import stat
from pathlib import Path

from docsgen.mdx.limits import MAX_PAGE_BYTES


def read_source_bytes(path: Path) -> tuple[bytes | None, str]:
    """Return a page or snippet file's bytes, or None and why: not a regular file, or over MAX_PAGE_BYTES.

    The file is opened without blocking (a FIFO would wait for a writer) and checked through its descriptor:
    one path lookup a file, not two, on sites of tens of thousands of pages.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        return None, f"cannot read it ({reason})"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, "it is not a regular file"
        if info.st_size > MAX_PAGE_BYTES:
            return None, f"it is {info.st_size:,} bytes; the limit is {MAX_PAGE_BYTES:,}"
        # the size it has (a buffer of the limit's size per file costs more than reading it), then the rest up
        # to the limit if it grew meanwhile
        data = os.read(fd, info.st_size + 1)
        while len(data) <= MAX_PAGE_BYTES and (more := os.read(fd, MAX_PAGE_BYTES + 1 - len(data))):
            data += more
    except OSError as exc:
        return None, f"cannot read it ({exc.strerror or exc})"
    finally:
        os.close(fd)
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
