"""File-system floor: the time it takes just to create a built site's folders and files, with no content work.

`python bench/fsfloor.py SRC DST [TRASH]` reads every file of SRC into memory, then re-creates the same tree under
DST from as many processes as there are CPUs (each takes every n-th file), and prints the seconds the creation
took. The copy is then moved into TRASH when given (deleting it would slow the next run's file creation, see
measure.TRASH), else deleted.
A build that writes N files can never be faster than this on the same disk; the benchmark reports it beside
docsgen's builds so their ratios to a one-file peer (redocly build-docs) can be read against it.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import measure  # bench/ is on sys.path when this file is run as a script


def files_of(root: Path) -> list[tuple[str, bytes]]:
    """Return (relative path, content) of every file under root, sorted."""
    return [(p.relative_to(root).as_posix(), p.read_bytes()) for p in sorted(root.rglob("*")) if p.is_file()]


def create(dst: Path, files: list[tuple[str, bytes]]) -> None:
    """Create the folders and files (parents made as needed, once per folder)."""
    made: set[str] = set()
    for rel, data in files:
        parent = os.path.dirname(rel)
        if parent not in made:
            os.makedirs(dst / parent, exist_ok=True)
            made.add(parent)
        with open(dst / rel, "wb") as out:
            out.write(data)


def recreate(src: Path, dst: Path, processes: int, trash: Path | None = None) -> dict:
    """Re-create src's tree under dst from `processes` processes; return seconds and counts."""
    files = files_of(src)
    measure.TRASH = trash
    measure.remove(dst)
    dst.mkdir(parents=True)
    started = time.perf_counter()
    children = []
    for n in range(1, processes):
        pid = os.fork()
        if pid == 0:
            try:
                create(dst, files[n::processes])
            finally:
                os._exit(0)
        children.append(pid)
    create(dst, files[0::processes])
    for pid in children:
        os.waitpid(pid, 0)
    seconds = time.perf_counter() - started
    folders = len({os.path.dirname(rel) for rel, _ in files})
    measure.remove(dst)
    return {"seconds": seconds, "files": len(files), "folders": folders, "processes": processes}


if __name__ == "__main__":
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    trash = Path(sys.argv[3]) if len(sys.argv) > 3 else None
    print(json.dumps(recreate(Path(sys.argv[1]), Path(sys.argv[2]), cpus, trash)))
