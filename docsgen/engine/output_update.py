"""Put a new output folder in place: swapped for the old one, or the old one updated in place (moving the new
files in, deleting what the build no longer has).

A rebuild that keeps most of the previous build's files (docsgen.engine.reuse) writes only what changed into its
temporary folder. Linking every kept file into that folder and swapping it into place cost a folder and two hard
links per page, then the removal of the whole old tree (25,000 folders and 78,000 files for a 25,000-page site,
seconds of disk work that slowed the next build too). Updated in place, the kept files stay where they are.

What out_dir holds afterwards is what a swap would have left: exactly the build's outputs. Each file is replaced
atomically (a rename), never written through a symbolic link: a folder on a new file's way that is a link or a
file is replaced by a real folder first. Only a crash in the middle of the update can leave old and new files
mixed; the build forgets its reuse manifest before it starts, so the next build then renders and swaps everything.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Collection
from pathlib import Path


def new_files(folder: str) -> list[str]:
    """Return the paths (relative, `/`-separated) of every file and link under `folder`."""
    out: list[str] = []
    todo = [("", folder)]
    while todo:
        rel, path = todo.pop()
        with os.scandir(path) as entries:
            for entry in entries:
                name = f"{rel}/{entry.name}" if rel else entry.name
                if entry.is_dir(follow_symlinks=False):
                    todo.append((name, entry.path))
                else:
                    out.append(name)
    return out


class _Folders:
    """The real folders of out_dir checked or made so far (a path's folders are checked once per update)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.real: set[str] = {""}

    def make(self, rel: str) -> None:
        """Make `rel` (relative to the root) a real folder, each folder on its way too: a symbolic link or a file
        standing where a folder is needed is removed first (it is not an output of this build)."""
        if rel in self.real:
            return
        parent = rel.rpartition("/")[0]
        self.make(parent)
        path = os.path.join(self.root, rel)
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISDIR(mode):
            os.unlink(path)
            mode = None
        if mode is None:
            os.mkdir(path)
        self.real.add(rel)


def update_in_place(new: str, out_dir: str, outputs: Collection[str]) -> None:
    """Move every file of the folder `new` into `out_dir` at the same path, then delete every file of `out_dir`
    that is not in `outputs` (the build's whole output, kept files included) and the folders left empty."""
    folders = _Folders(out_dir)
    for rel in new_files(new):
        parent = rel.rpartition("/")[0]
        folders.make(parent)
        target = os.path.join(out_dir, rel)
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISDIR(os.lstat(target).st_mode):
                shutil.rmtree(target)  # an old folder where a file goes: nothing of this build is in it
        os.replace(os.path.join(new, rel), target)
    _prune(out_dir, "", set(outputs))


def _prune(path: str, rel: str, outputs: set[str]) -> bool:
    """Delete what under `path` is not in `outputs`; return True when the folder is left empty."""
    empty = True
    with os.scandir(path) as entries:
        for entry in entries:
            name = f"{rel}/{entry.name}" if rel else entry.name
            if entry.is_dir(follow_symlinks=False):
                if _prune(entry.path, name, outputs):
                    os.rmdir(entry.path)
                else:
                    empty = False
            elif name in outputs:
                empty = False
            else:
                os.unlink(entry.path)
    return empty


def swap_into_place(new: Path, out_dir: Path) -> None:
    """Replace out_dir by new; the old folder disappears only after the new one is in place."""
    old = None
    if out_dir.exists():
        old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}-{time.monotonic_ns()}")
        out_dir.rename(old)
    try:
        new.rename(out_dir)
    except BaseException:
        if old is not None:
            old.rename(out_dir)
        raise
    if old is not None:
        remove_later(old)


LARGE_FOLDER = 2_000  # files and folders past which removing a replaced output is left to a detached process


def remove_later(folder: Path) -> None:
    """Delete a replaced output folder: at once when small, else in a detached process, so a large site's build
    does not wait seconds for tens of thousands of unlinks (the new site is already in place)."""
    if _entries(folder, LARGE_FOLDER) >= LARGE_FOLDER:
        try:
            # at the lowest priority: the next build, often started at once, keeps the CPUs and the disk
            code = "import os, shutil, sys; os.nice(19); shutil.rmtree(sys.argv[1], ignore_errors=True)"
            subprocess.Popen(
                [sys.executable, "-c", code, str(folder)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            return
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


def _entries(folder: Path, limit: int) -> int:
    """Count the files and folders under `folder`, stopping at `limit`."""
    count, todo = 0, [folder]
    while todo and count < limit:
        try:
            with os.scandir(todo.pop()) as entries:
                for entry in entries:
                    count += 1
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(Path(entry.path))
        except OSError:
            continue
    return count
