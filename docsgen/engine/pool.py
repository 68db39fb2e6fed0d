"""The engine's render processes: the one pool that `docsgen build` and `docsgen dev` render on.

Workers are forked, never spawned: they inherit the site, its navigation and the template helpers (closures that
cannot be pickled) instead of reading the site again; only batches of work (page indices, page keys) go to them
and what they made of each comes back. The spawn or forkserver alternative cannot ship the site context (it does
not pickle): every worker would read the site again, 3.2 s of CPU and ~100 MB each on the 25,200-page
versioned site, before its first page. What a worker does with a batch is the caller's (`work`, inherited at the
fork): a build renders the pages into the output folder and the page cache (docsgen.engine.rendering), dev into
its page store (docsgen.dev.rendered).

The same pool serves a plain process (a build: its Pagefind feeders are threads) and one with threads (the dev
server: its HTTP request threads, the file watcher), and a forked child gets a copy of every lock those threads
held and of every file they had open. So the workers are forked:

- from the caller's thread, holding whatever lock keeps the state it renders from still (dev: the build lock; a
  build has none to take): no lock the render code takes (Jinja's template cache, the React engine) is then held
  by a thread that does not exist in the child, and the child inherits a consistent state (its `generation`: the
  caller's count of changes at the fork; dev drops what workers of an older generation send);
- and the child, before anything else, **puts /dev/null in place of every inherited file descriptor** but
  stdio and its own socket: the listening socket, browsers' connections and Pagefind's pipes stay owned by the
  parent alone (a worker holding Pagefind's stdin open would keep it from ever finishing). /dev/null rather than
  close(): an inherited object closing "its" descriptor later cannot close a file the render opened under the
  same number. Its stdout/stderr are fresh in-memory buffers sent back with every batch and written to the
  parent's stderr, SIGINT is ignored (Ctrl-C reaches the whole process group: the parent stops the workers),
  SIGTERM ends it at once, it ends with the parent (PR_SET_PDEATHSIG) and with os._exit (no atexit handler).

Memory and the collector: the workers share the parent's heap as it was at the fork. To keep it shared, the cycle
collector is kept off that heap (gc.freeze) while workers live, in the parent too: otherwise collections would
write to every object and copy every page; stop() unfreezes it (unless someone else froze it first). A worker
collects young objects every WORKER_GC_THRESHOLD allocations (rendering makes and drops millions of short-lived
tokens; Python's default of 700 costs ~3% of a worker's time). With `renew_after` (dev, which renders for as long
as the server runs), a worker is replaced by a new one forked from the same state after that many pages, so what
it copied or grew is returned. Forking two workers from the ~185 MB dev server of the 25,200-page site takes
12-17 ms.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import io
import multiprocessing
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import Pipe
from multiprocessing.connection import Connection, wait
from typing import Any

WORKERS_ENV = "DOCSGEN_WORKERS"  # "1" forces a serial build
MIN_PAGES_PER_WORKER = 48  # below this, starting a process costs more than it saves
NICE = 2  # dev's workers give way a little: a page asked for renders in the server process, at once
RENEW_AFTER = 2500  # pages a dev worker renders before a new one replaces it (its memory stays bounded)
# A worker's young objects are collected every this many allocations (Python's default: 700). Rendering makes
# and drops millions of short-lived tokens; the default's collections cost ~3% of a worker's time.
WORKER_GC_THRESHOLD = 10_000


# What a worker does with a batch: (its items, the worker's name: unique in the pool) -> one result per item done.
Work = Callable[[list[Any], str], list[Any]]


@dataclass
class Batch:
    """What a worker sends back for a batch: the results, their pid, and what they printed (tracebacks)."""

    results: list[Any]
    pid: int
    printed: str = ""
    failed: str = ""  # the whole batch failed (an exception out of `work`): the caller does it itself


@dataclass
class Worker:
    """One render process and the batches it has in hand (oldest first)."""

    pid: int
    conn: Connection
    batches: list[list[Any]] = field(default_factory=list)
    sent: int = 0  # items sent so far


def worker_count(pages: int, requested: int | None = None) -> int:
    """Return how many processes to use: the CPUs (or $DOCSGEN_WORKERS), 1 for small sites or without fork."""
    if requested is None:
        env = os.environ.get(WORKERS_ENV, "").strip()
        requested = int(env) if env.isdigit() else _cpus()
    if requested <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(requested, pages // MIN_PAGES_PER_WORKER))


def _cpus() -> int:
    """Return the CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """While a build runs in this process: collect young objects every WORKER_GC_THRESHOLD allocations, as its
    workers do. The main process makes and drops hundreds of thousands of small objects (cache entries, search
    records, paths) beside the site's long-lived heap, which the default's collections walk again and again:
    ~1.2 s of the 6.5 s of a no-change rebuild of the 25,200-page benchmark site. Restored after."""
    before = gc.get_threshold()
    gc.set_threshold(WORKER_GC_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def release_memory() -> None:
    """Hand the memory freed by renders back to the system (glibc keeps it otherwise: RSS would keep every
    page's temporary objects' high-water mark); a no-op elsewhere."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


class RenderPool:
    """Render processes forked from this process at one generation of its state (see the module)."""

    def __init__(
        self,
        count: int,
        generation: int = 0,
        prefix: str = "w",
        *,
        nice: int = 0,
        renew_after: int | None = None,
    ) -> None:
        self.count = count
        self.generation = (
            generation  # the caller's state when forked: their results are current while it holds
        )
        self.prefix = prefix  # the names of this pool's workers start with it (dev: their page store files)
        self.nice = nice  # how much the workers give way to the rest of the machine (dev: to the server)
        self.renew_after = renew_after  # items a worker does before renew() replaces it (None: never)
        self.workers: list[Worker] = []
        self.closed = False
        self._lock = threading.Lock()
        self._forked = 0
        self._unfreeze: bool | None = None  # stop() unfreezes the heap: this pool froze it (None: not yet)
        self._work: Work

    def __enter__(self) -> RenderPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self, work: Work) -> None:
        """Fork the workers, which do `work` with each batch (call with the caller's lock held, see the module)."""
        self._work = work
        for _ in range(self.count):
            if not self._fork():
                return

    def renew(self) -> None:
        """Replace the workers that did renew_after items and have nothing in hand by new ones forked from the
        same state (call with the caller's lock held, the state unchanged since start): what a worker copies of
        the parent's memory as it renders, and its own heap, go with it."""
        if self.renew_after is None:
            return
        for worker in [w for w in self.workers if w.sent >= self.renew_after and not w.batches]:
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
            # theirs nor this process's (stop() ends that): its pages stay shared instead of being copied.
            if self._unfreeze is None:  # frozen by someone else already: theirs to unfreeze
                self._unfreeze = gc.get_freeze_count() == 0
            gc.freeze()
            try:
                pid = os.fork()
            except OSError:  # out of processes or memory: the items are done with fewer workers (or here)
                ours.close()
                theirs.close()
                return False
            if pid == 0:  # pragma: no cover - the child (coverage does not follow it)
                _child(theirs, self._work, prefix, self.nice)
            theirs.close()
            self.workers.append(Worker(pid, ours))
            return True

    def idle(self, depth: int) -> list[Worker]:
        """Return the workers with fewer than `depth` batches in hand (and not due to be renewed)."""
        due = self.renew_after
        return [w for w in self.workers if len(w.batches) < depth and (due is None or w.sent < due)]

    def send(self, worker: Worker, items: list[Any]) -> bool:
        """Hand a batch to a worker; False when it is gone (dropped now when it has nothing in hand, else once
        receive() reports what it had)."""
        try:
            worker.conn.send(items)
        except (OSError, ValueError):
            if not worker.batches:
                self._end(worker)
            return False
        worker.batches.append(items)
        worker.sent += len(items)
        return True

    def in_hand(self) -> list[Any]:
        """Return the items of every batch sent and not answered."""
        return [item for worker in self.workers for batch in worker.batches for item in batch]

    def receive(self, timeout: float | None) -> list[tuple[list[Any], Batch | None]]:
        """Wait up to `timeout` seconds (None: until one answers) for answers; return (items, their batch) for
        each, None where the worker ended without answering (the worker is then dropped)."""
        busy = [worker for worker in self.workers if worker.batches]
        if not busy:
            return []
        try:
            ready = wait([worker.conn for worker in busy], timeout)
        except (OSError, ValueError):  # stopped meanwhile (from another thread)
            return []
        out: list[tuple[list[Any], Batch | None]] = []
        for worker in busy:
            if worker.conn not in ready:
                continue
            items = worker.batches.pop(0)
            try:
                answer: Batch = worker.conn.recv()
            except (EOFError, OSError, ValueError):
                out.append((items, None))
                out += [(batch, None) for batch in worker.batches]
                worker.batches = []
                self._end(worker)
            else:
                out.append((items, answer))
        return out

    def stop(self) -> list[Any]:
        """Kill the workers (from any thread) and wait for them; return the items they had in hand."""
        with self._lock:
            self.closed = True
            workers, self.workers = self.workers, []
            unfreeze, self._unfreeze = self._unfreeze, None
        items = [item for worker in workers for batch in worker.batches for item in batch]
        for worker in workers:
            self._end(worker)
        if unfreeze:
            gc.unfreeze()  # this process's collector sees the whole heap again
        return items

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
def _child(conn: Connection, work: Work, name: str, nice: int) -> None:
    """A worker's whole life: do the batches it gets until the parent closes the socket; never returns."""
    code = 0
    try:
        _detach(conn.fileno(), nice)
        gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])
        _serve(conn, work, name)
    except BaseException:  # noqa: BLE001 - nothing may unwind into the parent's code in this process
        code = 1
    finally:
        os._exit(code)


def _detach(keep: int, nice: int) -> None:
    """Make this forked process independent of the parent's threads and files: see the module docstring."""
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
    with contextlib.suppress(OSError, AttributeError):  # Linux: end with the parent, even if it is killed
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)


def _open_fds() -> list[int]:
    """Return this process's open file descriptors."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            return [int(name) for name in os.listdir(folder) if name.isdigit()]
    return list(range(3, 1024))


def _serve(conn: Connection, work: Work, name: str) -> None:
    """Do the work of each batch received; answer with a Batch."""
    pid = os.getpid()
    while True:
        try:
            items = conn.recv()
        except (EOFError, OSError):
            return  # the parent closed the socket (or ended)
        try:
            batch = Batch(work(items, name), pid)
        except Exception:  # noqa: BLE001 - the caller does the batch itself (and meets the error there)
            batch = Batch([], pid, failed=traceback.format_exc())
        batch.printed = _take_printed()
        conn.send(batch)


def _take_printed() -> str:
    """Return what the work printed since the last batch (tracebacks of crashed renders), and forget it."""
    text = "".join(
        stream.getvalue() for stream in (sys.stdout, sys.stderr) if isinstance(stream, io.StringIO)
    )
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    return text
