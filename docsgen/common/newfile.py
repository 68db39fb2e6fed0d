"""Create a new file inside a folder without ever writing through a symbolic link (init, migrate, scaffold).

`Path.exists()` follows links, so a dangling link named like a starter file looked free, and `write_text` then
created the link's target, wherever it pointed. Here a link at the file or at any folder on its way below the
base folder is reported, and the file is opened with O_CREAT | O_EXCL | O_NOFOLLOW: never an existing file,
never through a link, even one planted after the check.
"""

from __future__ import annotations

import os
from pathlib import Path


def blocked(base: Path, target: Path) -> str | None:
    """Why `target` (inside `base`) cannot be created: an existing file or a link on its way, else None."""
    current = base
    for part in target.relative_to(base).parts:
        current = current / part
        if current.is_symlink():
            return f"{current} is a symbolic link; docsgen never writes through a link"
    if os.path.lexists(target):
        return f"{target} already exists"
    return None


def create_file(base: Path, target: Path, text: str) -> None:
    """Create `target` inside `base` with `text`, making its folders; raise OSError rather than follow a link."""
    base.mkdir(parents=True, exist_ok=True)  # the folder the user named (a link there is theirs to choose)
    current = base
    for part in target.relative_to(base).parts[:-1]:
        current = current / part
        if current.is_symlink():
            raise OSError(f"{current} is a symbolic link; docsgen never writes through a link")
        if not current.is_dir():
            current.mkdir()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(target, flags, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
