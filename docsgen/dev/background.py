"""The background pass of `docsgen dev`: render every page nobody asked for yet, then the files needing them all.

A full build publishes the site with its pages Claimed (docsgen.dev.incremental). This pass renders them in
page order: on the engine's render processes forked from the server (docsgen.engine.pool; as many as
docsgen build uses) that get batches of pages, or, for small sites and --workers 1, here, a few at a time under the build
lock. Either way a page asked for renders at once in the server (the pass gives way whenever a request waits
for the lock, and holds it only to hand out and take in batches): a reader never waits for the pass. A render
process's result is taken only for a page still waiting and only if the server applied no change since the
process was forked; otherwise it is dropped, and the processes are forked again from the current state. Each
render goes to the page store like one asked for (docsgen.dev.rendered), its search record to the build's
search index (docsgen.outputs.site_search.SiteSearch: a Pagefind run per bundle, fed as pages come, in any order;
a bundle Pagefind finished goes to the page store at once). Once every page is rendered it adds what needs them all:
the search index, llms-full.txt & co (from the twins on disk), changelog feeds. Until then /__docsgen/status
says how far it is and that search is not ready. A newer full build, or stopping the server, ends the pass.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from docsgen.common.errors import Diagnostic
from docsgen.dev.pagestore import StoredFiles
from docsgen.dev.rendered import batch_renderer
from docsgen.dev.snapshot import BuildCancelled, OnRequest, servable
from docsgen.engine.pool import NICE, RENEW_AFTER, Batch, RenderPool, release_memory, worker_count
from docsgen.engine.write import Claimed, Content, SiteFiles, Streamed, content_of
from docsgen.mdx import MdxResult
from docsgen.outputs import SiteSearch, add_page_files, add_site_files, add_vendor_assets
from docsgen.outputs.agents import add_agent_files
from docsgen.outputs.branding import add_thumbnail_files
from docsgen.outputs.pagefind import INDEX_DIR, SearchRecord
from docsgen.pages.page import Page
from docsgen.render import SiteContext, thumbnails
from docsgen.site.read import Site

if TYPE_CHECKING:
    from docsgen.dev.incremental import DevSite

BATCH = 8  # pages rendered per turn of the lock, or sent to a render process at a time
DEPTH = 2  # batches a render process has in hand (it never waits for the server between two)
WAIT = 0.2  # seconds the pass waits for render processes before looking at stops and edits again
TRIM_EVERY = 2000  # pages rendered between two returns of freed memory to the system


LATE_FULL = "llms-full.txt"  # made of every page's twin: added by the pass, with the search index
AGENTS = OnRequest("agents")  # llms.txt & co: made when first asked for, or by the pass
LLMS = ("llms.txt", ".well-known/llms.txt")


def site_files(ctx: SiteContext, site: Site, pages: list[Page], files: SiteFiles) -> list[Diagnostic]:
    """Add the files made without rendering a page, as a build adds them (docsgen.outputs.add_site_files; the
    Open Graph images are drawn by the pass, at its end); return the diagnostics so far (those of
    add_before_pages included). The files made of every page are added by the pass once they are rendered (the
    same add_page_files as a build's), llms.txt before that when asked for (AGENTS)."""
    add_site_files(ctx, site, pages, files, thumbnails=False)
    return list(files.diagnostics)


def is_late(path: str) -> bool:
    """Tell whether a path is one of the files only the background pass adds (they need every page, or are
    Open Graph images nobody previewing needs before the first page)."""
    return path == LATE_FULL or path.startswith((INDEX_DIR + "/", thumbnails.FOLDER + "/"))


class StoreTwins(Mapping[str, str]):
    """Every page's twin, read from the page store when llms-full.txt asks for it (never all in memory)."""

    def __init__(self, dev: DevSite) -> None:
        self.dev = dev

    def __getitem__(self, key: str) -> str:
        path = self.dev.files.get(self.dev.twin_paths.get(key, ""))
        if not isinstance(path, Path):
            raise KeyError(key)
        try:
            return path.read_text(encoding="utf-8")
        except OSError:
            raise KeyError(key) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.dev.twin_paths)

    def __len__(self) -> int:
        return len(self.dev.twin_paths)


def make_agent_files(dev: DevSite) -> None:
    """Make llms.txt where claimed, when asked for before the pass made it; into the current snapshot."""
    assert dev.site is not None
    files = SiteFiles()
    add_agent_files(dev.site, StoreTwins(dev), files)
    for path in LLMS:
        content = files.files.get(path)
        data = servable(content) if content is not None and dev.files.get(path) == AGENTS else None
        if data is not None:
            dev.files[path] = dev.snapshot.files[path] = data


def add_vendor(dev: DevSite, name: str, *, current: bool) -> None:
    """Ship a vendored bundle (mermaid, preact) now that a rendered page uses it."""
    assert dev.ctx is not None
    files = SiteFiles()
    add_vendor_assets(dev.ctx, [MdxResult("", assets={name})], files)
    for path, content in files.files.items():
        data = servable(content)
        if data is not None:
            dev.files.setdefault(path, data)
            if current:
                dev.snapshot.files.setdefault(path, data)


class Pass:
    """One background pass over the pages of one full build (epoch)."""

    def __init__(self, dev: DevSite, epoch: int) -> None:
        self.dev = dev
        self.epoch = epoch
        self.done = threading.Event()
        self.search = "waiting"  # "indexing", "ready", "failed"
        self.started = time.perf_counter()
        self.seconds = 0.0
        assert dev.site is not None and dev.ctx is not None
        self.bundles = StoredFiles(dev.store)  # the index's files, as Pagefind writes them
        # fed from now (pages asked for before the pass starts are indexed too); pages counted by run()
        self.index = SiteSearch(dev.ctx, dev.site, cache=False, output=self.bundles.write, count=False)
        self.feeding = True
        self.search = "indexing"
        self.rendered_by: dict[int, int] = {}  # pid -> pages of this pass it rendered (processes, or here)
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._pool: RenderPool | None = None
        self._pools = 0  # render pools forked so far (their store files are named after it)

    # -------------------------------------------------------------- control
    def start(self) -> None:
        """Run the pass on its own thread."""
        self._thread = threading.Thread(target=self._main, name="docsgen-dev-render", daemon=True)
        self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)

    def stop(self, wait: float = 0) -> None:
        """End the pass (a newer build, or the server stops): its render processes and Pagefind runs are
        killed. wait: seconds to wait for its thread to end (it stops between two pages)."""
        self._stopped = True
        self.feeding = False
        pool = self._pool
        if pool is not None:
            pool.stop()
        self.index.close()
        if wait and self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(wait)

    def add_record(self, folder: str, record: SearchRecord) -> None:
        """Feed one page's search record (rendered for the first time in this pass's build)."""
        if self.feeding:
            self.index.add_record(folder, record)

    def _current(self) -> bool:
        dev = self.dev
        return not (self._stopped or dev.closed or dev.epoch != self.epoch or dev.site is None)

    # -------------------------------------------------------------- the pass
    def _main(self) -> None:
        try:
            with self.dev._pagefind.active():
                self.run()
        except BuildCancelled:
            pass  # the server is stopping
        except Exception:  # noqa: BLE001 - a bug: pages still render when asked for
            if not self.dev.closed:  # (stopping removes the page store under it)
                traceback.print_exc()
        finally:
            self.done.set()

    def run(self) -> None:
        """Render every page still Claimed (on render processes when the site is big enough and the machine
        has several cores, like docsgen build), then add the files that need them all."""
        dev = self.dev
        try:
            if dev.site is not None:
                self.index.count()  # (no lock: the site is only replaced, never changed in place)
            keys = deque(dev.outputs)
            workers = worker_count(len(keys), dev.workers)
            if self._render_pooled(keys, workers) if workers > 1 else self._render_here(keys):
                self._finish()
        finally:
            self.feeding = False
            self.done.set()

    def _give_way(self) -> None:
        """Wait while a request waits to render a page (it gets the lock first)."""
        self.dev.turns.give_way(self._current)

    def _render_here(self, keys: deque[str], turns: int | None = None) -> bool:
        """Render these pages in this process, a few per turn of the lock, giving way to requests (all of
        them, or `turns` turns); return False when the pass is over (stopped, or a newer build)."""
        dev = self.dev
        while keys and turns != 0:
            self._give_way()
            with dev.turns:
                if not self._current():
                    return False
                for _ in range(BATCH):
                    if not keys or dev.turns.wanted:  # a request waiting ends the turn
                        break
                    page = dev.site.pages.get(keys.popleft()) if dev.site else None
                    if page is not None and isinstance(dev.files.get(page.output), Claimed):
                        dev._keep(page, dev._render(page))
                        self._count(os.getpid())
            turns = None if turns is None else turns - 1
        return True

    def _count(self, pid: int) -> None:
        self.rendered_by[pid] = self.rendered_by.get(pid, 0) + 1
        if sum(self.rendered_by.values()) % TRIM_EVERY == 0:
            release_memory()

    def _render_pooled(self, keys: deque[str], workers: int) -> bool:
        """Render these pages on `workers` render processes (docsgen.engine.pool), forked again after every
        change the server applies; pages a process could not render (it died) render here. Return False when
        the pass is over."""
        dev = self.dev
        here: deque[str] = deque()  # pages to render in this process
        pool: RenderPool | None = None
        try:
            while True:
                if here and not self._render_here(here, turns=1):
                    return False
                self._give_way()
                with dev.turns:
                    if not self._current():
                        return False
                    if pool is not None and (pool.generation != dev.changes or not pool.workers):
                        keys.extendleft(reversed(pool.stop()))  # stale (or gone): these render again
                        if not pool.workers and pool.generation == dev.changes:
                            here += keys  # no process could be forked: the rest renders here
                            keys.clear()
                        pool = None
                    if pool is None and keys:
                        pool = self._fork(keys, workers)
                    if pool is not None:
                        pool.renew()  # (the state is the pool's: checked above)
                        for worker in pool.idle(DEPTH):
                            batch = self._claimed(keys)
                            if not batch:
                                break
                            if not pool.send(worker, batch):
                                keys.extendleft(reversed(batch))
                    if not keys and not here and (pool is None or not pool.in_hand()):
                        return True
                answers = pool.receive(WAIT) if pool is not None else []
                if pool is not None and answers:
                    self._give_way()
                    with dev.turns:
                        if not self._current():
                            return False
                        for batch_keys, answer in answers:
                            if pool.generation == dev.changes:
                                here += self._adopt(batch_keys, answer)
                            else:  # rendered from the state before an edit: these pages render again
                                self._discard(answer)
                                keys.extendleft(reversed(batch_keys))
        finally:
            if pool is not None:
                pool.stop()

    def _fork(self, keys: deque[str], workers: int) -> RenderPool | None:
        """Fork render processes from the current state (under the lock). The first time, one page renders
        here first: what it loads lazily (modules, templates, caches) is then inherited, not loaded in each."""
        dev = self.dev
        assert dev.site is not None and dev.ctx is not None
        if self._pools == 0:
            first = self._claimed(keys, 1)
            if first:
                page = dev.site.pages[first[0]]
                dev._keep(page, dev._render(page))
                self._count(os.getpid())
        if not keys:
            return None
        self._pools += 1
        prefix = f"e{self.epoch}p{self._pools}w"
        pool = self._pool = RenderPool(workers, dev.changes, prefix, nice=NICE, renew_after=RENEW_AFTER)
        if not self._stopped:
            pool.start(batch_renderer(dev.site, dev.ctx, dev.store))
        return pool

    def _claimed(self, keys: deque[str], size: int = BATCH) -> list[str]:
        """Take the next pages still waiting to render (a request may have rendered some meanwhile)."""
        dev = self.dev
        batch: list[str] = []
        while keys and len(batch) < size:
            key = keys.popleft()
            page = dev.site.pages.get(key) if dev.site else None
            if page is not None and isinstance(dev.files.get(page.output), Claimed):
                batch.append(key)
        return batch

    def _adopt(self, keys: list[str], answer: Batch | None) -> list[str]:
        """Apply what a render process of the current state sent (under the lock), for the pages still
        waiting (a request may have rendered some since: those renders are discarded). Return the pages to
        render here (the process died, or failed outside a page's render)."""
        dev = self.dev
        if answer is None or answer.failed:
            if answer is not None:
                sys.stderr.write(answer.failed)
            return keys
        if answer.printed:
            sys.stderr.write(answer.printed)  # tracebacks of crashed renders, as a render here prints them
        for result in answer.results:
            page = dev.site.pages.get(result.key) if dev.site else None
            if page is None or not isinstance(dev.files.get(page.output), Claimed):
                self._discard(Batch([result], answer.pid))
            else:
                dev._adopt(page, result)
                self._count(answer.pid)
        return []

    def _discard(self, answer: Batch | None) -> None:
        """Delete the files of renders that will not be served."""
        for result in answer.results if answer is not None else []:
            self.dev.store.discard(result.html)
            self.dev.store.discard(result.twin)

    def _finish(self) -> None:
        """Every page is rendered: add the search index, agent files and feeds; report."""
        dev = self.dev
        with dev.turns:
            self.feeding = False  # (a page rendering now is not fed to an index being collected)
        # the bundles left go to the page store (Pagefind works in its own processes: the lock is free meanwhile)
        problems = [d.message for d in self.index.hand_over(self.bundles.write)]
        with dev.turns:
            if not self._current():
                return
            assert dev.site is not None and dev.ctx is not None
            made = {path: data for path, data in dev.files.items() if not isinstance(data, OnRequest)}
            files = SiteFiles({path: content_of(data) for path, data in made.items()})  # clashes: as a build
            pages = dev.site.pages_to_render()
            add_page_files(dev.ctx, dev.site, dev.bodies, StoreTwins(dev), files)  # as a build adds them
            add_thumbnail_files(dev.ctx, pages, files)
            for path, blob in self.bundles.files.items():
                files.add(path, blob, "search index")
            for path, content in files.files.items():
                if path in made:
                    continue  # served already (a stylesheet is compiled anew on edits: docsgen.dev.tailwind)
                data = self._servable(content)
                if data is not None:
                    dev.files[path] = dev.snapshot.files[path] = data
            release_memory()
            self.search = "failed" if problems else "ready"
            self.seconds = time.perf_counter() - self.started
            self._report(problems)

    def _servable(self, content: Content) -> bytes | Path | None:
        """Return what the server holds of a file the pass made (llms-full.txt: written to the page store)."""
        if isinstance(content, Streamed):
            return self.dev.store.write_chunks(content.chunks(), ".txt")
        return servable(content)

    def _report(self, problems: list[str]) -> None:
        """Tell the terminal that every page is rendered (and how many have errors)."""
        dev = self.dev
        errors = len(dev.snapshot.page_errors)
        line = f"rendered all {len(dev.outputs)} pages in {self.seconds:.1f}s; search index {self.search}"
        dev.on_background(line + (f"; {errors} page(s) with errors" if errors else ""))
        for problem in problems:
            dev.on_background(f"warning: {problem}")
