"""The build's temporary folders beside the output: named for the process that made them, removed on a signal,
and removed by the next build when the process that made them is gone.

A build writes into `.NAME.tmp-PID-XXXX` beside the output folder NAME and swaps it into place; the previous
output waits as `.NAME.old-PID-...` until it is deleted. A build killed before that leaves them behind: the next
build of the same output deletes those whose process no longer runs. Nothing else is ever touched: only real
folders (not links) in the output's parent whose names have exactly that form, with a PID that is not running.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import stat
import threading
from collections.abc import Iterator
from pathlib import Path


def temp_prefix(out_dir: Path) -> str:
    """The prefix of this process's temporary folders for `out_dir` (mkdtemp adds random characters)."""
    return f".{out_dir.name}.tmp-{os.getpid()}-"


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process (EPERM): running
        return True
    return True


def remove_stale(out_dir: Path) -> list[str]:
    """Delete the temporary and replaced folders of builds of `out_dir` killed earlier; return their names."""
    pattern = re.compile(rf"\.{re.escape(out_dir.name)}\.(?:tmp|old)-(\d{{1,10}})-[A-Za-z0-9_-]+")
    removed: list[str] = []
    with contextlib.suppress(OSError), os.scandir(out_dir.parent) as entries:
        for entry in entries:
            found = pattern.fullmatch(entry.name)
            if not found or int(found.group(1)) == os.getpid() or _running(int(found.group(1))):
                continue
            try:
                if not stat.S_ISDIR(os.lstat(entry.path).st_mode):  # a link or a file: not ours
                    continue
            except OSError:
                continue
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.name)
    return removed


@contextlib.contextmanager
def interrupted_cleanly() -> Iterator[None]:
    """While the block runs (in the main thread), SIGTERM unwinds it as SIGINT does, so the `finally` and
    `__exit__` on the way (the temporary folder's removal) run; the process still exits with 128 + 15. A forked
    child (a render worker) that receives it exits at once, as by default."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()

    def stop(signum: int, _frame: object) -> None:
        if os.getpid() != owner:
            os._exit(128 + signum)
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    # A build started with SIGINT ignored or blocked (inherited from a script or a test runner that started it)
    # still stops cleanly on SIGINT, as `docsgen dev` does: otherwise it ran on and published its output
    previous_int = signal.getsignal(signal.SIGINT)
    if previous_int == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if previous_int == signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, previous)
