"""Reading source files (pages, snippets) safely: only regular files inside the docs folder, within a size limit.

Snippets are imported by page after page: what was found about one (its check, its text) is kept per process under
the file's identity and state (device, inode, size, modification and change times and mode: one stat through the
path) and used again while that stays the same. A file changed or replaced, or a path that now leads to another
file, has another identity or state and is checked and read again; a missing file is never kept.
"""

from __future__ import annotations

import functools
import os
import posixpath
import stat
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

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


MAX_KEPT = 4096  # files whose check or text is kept per process (the oldest go first)
_T = TypeVar("_T")
_kept: OrderedDict[tuple[str, str, str], tuple[tuple[int, ...], object]] = OrderedDict()


def _identity(path: Path) -> tuple[int, ...] | None:
    """The file's device, inode, size, modification and change times (following links); None when none."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_mode)


def kept(
    kind: str,
    docs_dir: Path,
    path: str,
    make: Callable[[], _T],
    seen: dict[tuple[str, str], tuple[int, ...]] | None = None,
) -> _T:
    """`make()` for a docs-relative file, or what it gave before while the file's identity and state are the same.

    The identity is taken before `make` runs: a file changed meanwhile is made again on its next use. A path
    leading out of the docs folder as written is not looked at here (`make` says what it says). `seen` holds the
    identities one page took already (RenderState.expansion.identities): a page asking about a snippet three
    times (is it readable, its text, its exports) looks at the file once; the next page, or the same page
    rendered again by `docsgen dev`, looks again."""
    normal = posixpath.normpath(path)
    if normal == ".." or normal.startswith("../") or posixpath.isabs(normal):
        return make()
    where = (str(docs_dir), normal)
    identity = seen.get(where) if seen is not None else None
    if identity is None:
        identity = _identity(docs_dir / normal)
        if identity is not None and seen is not None:
            seen[where] = identity
    if identity is None:
        return make()
    key = (kind, str(docs_dir), path)
    found = _kept.get(key)
    if found is not None and found[0] == identity:
        _kept.move_to_end(key)
        return found[1]  # type: ignore[return-value]
    value = make()
    _kept[key] = (identity, value)
    while len(_kept) > MAX_KEPT:
        _kept.popitem(last=False)
    return value


@functools.lru_cache(maxsize=8)
def resolved_folder(folder: Path) -> Path:
    """A folder's real path, once per folder (every page's components ask for their docs folder's)."""
    return folder.resolve()


def snippet_problem(
    docs_dir: Path, path: str, seen: dict[tuple[str, str], tuple[int, ...]] | None = None
) -> str:
    """Tell why a docs-relative snippet path must not be read ("" when it may): outside, missing, special, too big.

    The path is checked as written and again after symbolic links are resolved, so neither `../` nor a
    link can reach a file outside the docs folder.
    """
    normal = posixpath.normpath(path)
    if normal == ".." or normal.startswith("../") or posixpath.isabs(normal):
        return "it is outside the docs folder"
    return kept("problem", docs_dir, normal, lambda: _check(docs_dir, normal), seen)


def _check(docs_dir: Path, normal: str) -> str:
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
