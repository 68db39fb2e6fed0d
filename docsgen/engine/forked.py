"""The engine's render processes for a process that has threads (`docsgen dev`): forked from a known state.

`docsgen build` renders on a fork-based process pool (docsgen.engine.pool): workers inherit the site, its
navigation and the template helpers (closures that cannot be pickled) instead of reading the site again. The
dev server's background pass (docsgen.dev.background) renders the same way, through this pool, but it forks
from a process that has threads (the HTTP server and its request threads, the file watcher, Pagefind's
feeders), and a forked child gets a copy of every lock those threads held and of every file they had open.
What a worker does with a batch of page keys is the caller's (`work`, inherited at the fork: dev renders the
pages into its page store, docsgen.dev.rendered). The workers are forked only:

- from the caller's thread, **holding its lock** (dev: the build lock): no request, edit or rebuild is rendering
  or changing the site meanwhile, so the child inherits a published, consistent state (its `generation`, see
  below), and no lock the render code takes (Jinja's template cache, the React engine) is held by a thread that
  does not exist in the child;
- and the child, before anything else, **puts /dev/null in place of every inherited file descriptor** but
  stdio and its own socket: the listening socket, browsers' connections, the watcher and Pagefind's pipes stay
  owned by the server alone (a worker holding Pagefind's stdin open would keep it from ever finishing, one
  holding a browser's connection would keep it open). /dev/null rather than close(): an inherited object
  closing "its" descriptor later cannot close a file the render opened under the same number. Its
  stdout/stderr are fresh in-memory buffers, sent back with every batch and written to the server's (a
  request thread may have held the old ones' locks at the fork), SIGINT is ignored (Ctrl-C reaches the whole
  process group: the server stops the workers), and it ends with os._exit (no atexit handler: the page
  store's clean-up is the server's).

Workers get page keys in batches over a socket and send back what `work` made of them (dev: docsgen.dev.rendered's
PageResult, the HTML and twin files of the page store written under the worker's own name). They render from
the state they were forked with: every change the server applies after the fork (DevSite.changes) makes their
results stale. The caller then discards what they send, stops them and forks new ones from the new state (a few
milliseconds; the pages they had in hand render again). A worker reads its socket's end of file when the
server goes (even killed), and exits.

Memory: the workers share the server's heap as it was at the fork (counted once in the tree's proportional
set size). To keep it shared, the cycle collector is kept off that heap (gc.freeze) while workers live:
otherwise the server's own collections would write to every object and copy every page. A worker is
replaced by a new one after RENEW_AFTER pages, so what it copied or grew is returned.

Measured on the 25,200-page versioned site (2 cores, shared): forking two workers from the ~185 MB server
takes 12-17 ms. The spawn or forkserver alternative cannot ship the job (its site context holds closures, it
does not pickle): every worker would read the site again, 3.2 s of CPU and ~100 MB each, before its first page.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import io
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import Pipe
from multiprocessing.connection import Connection, wait
from typing import Any

NICE = 2  # workers give way a little: a page asked for renders in the server process, at once
RENEW_AFTER = 2500  # pages a worker renders before a new one replaces it (its memory stays bounded)


# What a worker does with a batch: (page keys, the worker's name: unique in the pool) -> one result per page done.
Work = Callable[[list[str], str], list[Any]]


@dataclass
class Batch:
    """What a worker sends back for a batch: the renders, their pid, and what they printed (tracebacks)."""

    results: list[Any]
    pid: int
    printed: str = ""
    failed: str = ""  # the whole batch failed (a bug in the worker loop): the server renders these pages


@dataclass
class Worker:
    """One render process and the batches it has in hand (oldest first)."""

    pid: int
    conn: Connection
    batches: list[list[str]] = field(default_factory=list)
    sent: int = 0  # pages sent so far


class ForkedPool:
    """Render processes forked from a threaded process (the dev server) at one generation of its state."""

    def __init__(self, count: int, generation: int, prefix: str) -> None:
        self.count = count
        self.generation = generation  # DevSite.changes when forked: their results are current while it holds
        self.prefix = prefix  # the names of this pool's workers start with it (dev: their page store files)
        self.workers: list[Worker] = []
        self.closed = False
        self._lock = threading.Lock()
        self._forked = 0
        self._work: Work

    def start(self, work: Work) -> None:
        """Fork the workers, which do `work` with each batch (call with the caller's lock held, see the module)."""
        self._work = work
        for _ in range(self.count):
            if not self._fork():
                return

    def renew(self) -> None:
        """Replace the workers that rendered RENEW_AFTER pages and have nothing in hand by new ones forked from
        the same state (call with the build lock held, the state unchanged since start): what a worker copies
        of the server's memory as it renders, and its own heap, go with it."""
        for worker in [w for w in self.workers if w.sent >= RENEW_AFTER and not w.batches]:
            self._end(worker)
            if not self._fork():
                return

    def _fork(self) -> bool:
        """Fork one worker; False when the pool is stopped or no process could be made."""
        with self._lock:
            if self.closed:
                return False
            self._forked += 1
            prefix = f"{self.prefix}{self._forked}-"
            ours, theirs = Pipe()
            # The heap as it is now is never walked by the cycle collector while the workers live, neither
            # theirs nor the server's (stop() ends that): its pages stay shared instead of being copied.
            gc.freeze()
            try:
                pid = os.fork()
            except OSError:  # out of processes or memory: the pages render with fewer workers (or here)
                ours.close()
                theirs.close()
                return False
            if pid == 0:  # pragma: no cover - the child (coverage does not follow it)
                _child(theirs, self._work, prefix)
            theirs.close()
            self.workers.append(Worker(pid, ours))
            return True

    def idle(self, depth: int) -> list[Worker]:
        """Return the workers with fewer than `depth` batches in hand (and not due to be renewed)."""
        return [w for w in self.workers if len(w.batches) < depth and w.sent < RENEW_AFTER]

    def send(self, worker: Worker, keys: list[str]) -> bool:
        """Hand a batch to a worker; False when it is gone."""
        try:
            worker.conn.send(keys)
        except (OSError, ValueError):
            return False
        worker.batches.append(keys)
        worker.sent += len(keys)
        return True

    def in_hand(self) -> list[str]:
        """Return the page keys of every batch sent and not answered."""
        return [key for worker in self.workers for batch in worker.batches for key in batch]

    def receive(self, timeout: float) -> list[tuple[list[str], Batch | None]]:
        """Wait up to `timeout` seconds for answers; return (keys, their batch) for each, None where the worker
        ended without answering (the worker is then dropped)."""
        busy = [worker for worker in self.workers if worker.batches]
        if not busy:
            return []
        try:
            ready = wait([worker.conn for worker in busy], timeout)
        except (OSError, ValueError):  # stopped meanwhile (from another thread)
            return []
        out: list[tuple[list[str], Batch | None]] = []
        for worker in busy:
            if worker.conn not in ready:
                continue
            keys = worker.batches.pop(0)
            try:
                answer: Batch = worker.conn.recv()
            except (EOFError, OSError, ValueError):
                out.append((keys, None))
                out += [(batch, None) for batch in worker.batches]
                worker.batches = []
                self._end(worker)
            else:
                out.append((keys, answer))
        return out

    def stop(self) -> list[str]:
        """Kill the workers (from any thread) and wait for them; return the keys they had in hand."""
        with self._lock:
            self.closed = True
            workers, self.workers = self.workers, []
        keys = [key for worker in workers for batch in worker.batches for key in batch]
        for worker in workers:
            self._end(worker)
        gc.unfreeze()  # the server's collector frees what the pass replaced meanwhile
        return keys

    def _end(self, worker: Worker) -> None:
        with contextlib.suppress(ValueError):
            if worker in self.workers:
                self.workers.remove(worker)
        with contextlib.suppress(OSError):
            worker.conn.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(worker.pid, 0)


# ------------------------------------------------------------------ the child
def _child(conn: Connection, work: Work, name: str) -> None:
    """A worker's whole life: render the batches it gets until the server closes the socket; never returns."""
    code = 0
    try:
        _detach(conn.fileno())
        _serve(conn, work, name)
    except BaseException:  # noqa: BLE001 - nothing may unwind into the server's code in this process
        code = 1
    finally:
        os._exit(code)


def _detach(keep: int) -> None:
    """Make this forked process independent of the server's threads: see the module docstring."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in _open_fds():
        if fd > 2 and fd not in (keep, null):
            with contextlib.suppress(OSError):
                os.dup2(null, fd)
    os.close(null)
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(OSError, AttributeError):  # Linux: end with the server, even if it is killed
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    with contextlib.suppress(OSError):
        os.nice(NICE)


def _open_fds() -> list[int]:
    """Return this process's open file descriptors."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            return [int(name) for name in os.listdir(folder) if name.isdigit()]
    return list(range(3, 1024))


def _serve(conn: Connection, work: Work, name: str) -> None:
    """Do the work of each batch of page keys received; answer with a Batch."""
    pid = os.getpid()
    while True:
        try:
            keys = conn.recv()
        except (EOFError, OSError):
            return  # the server closed the socket (or ended)
        try:
            batch = Batch(work(keys, name), pid)
        except Exception:  # noqa: BLE001 - a bug outside a page's render: the server renders the batch
            batch = Batch([], pid, failed=traceback.format_exc())
        batch.printed = _take_printed()
        conn.send(batch)


def _take_printed() -> str:
    """Return what the render printed since the last batch (tracebacks of crashed renders), and forget it."""
    text = "".join(
        stream.getvalue() for stream in (sys.stdout, sys.stderr) if isinstance(stream, io.StringIO)
    )
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    return text
