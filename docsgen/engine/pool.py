"""Render pages on every CPU core with a process pool; the output is byte-identical to a serial build.

Each page is rendered by the render function (docsgen.render.render_page) exactly as in a serial build. Workers
are forked after the site is read, so they inherit the site, its navigation and the template helpers (closures
that cannot be pickled) for free; only page indices go to the workers, and each page's rendered body, twin and
diagnostics come back. With a writer, each page's HTML and twin are written where the page was rendered.
Where fork is unavailable (Windows, macOS defaults) or the site is small, pages render serially.
"""

from __future__ import annotations

import contextlib
import copy
import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from docsgen.engine.cache import PageCache
from docsgen.engine.reuse import OutputReuse
from docsgen.pages import Page
from docsgen.render import RenderedPage, SiteContext, render_page
from docsgen.urls import twin_path

WORKERS_ENV = "DOCSGEN_WORKERS"  # "1" forces a serial build
MIN_PAGES_PER_WORKER = 48  # below this, starting a process costs more than it saves
SERIAL_PACK = 64  # a serial build writes its page cache entries in packs of this many pages

Progress = Callable[[str, int, int], None]
Render = Callable[..., RenderedPage]  # render_page(ctx, page, *, strict=..., body=...)
Writer = Callable[
    [str, str, str], bool
]  # (output path, text, page key) -> written (docsgen.write.PageWriter)


@dataclass
class Rendered:
    """One page rendered by the engine: the render, and what the engine did with it."""

    page: RenderedPage  # html is "" once written (the main process does not need it again)
    written: bool = False  # the HTML is in the output folder
    twin_written: bool = False  # the Markdown twin is in the output folder
    cache_key: str | None = None  # the page cache entry restored or written for the page
    cache_pack: str | None = None  # the pack file holding that entry (set once the entry is flushed)
    index: Any = None  # what Job.index made of the page where it rendered (its search record)
    sizes: tuple[int, int] | None = None  # bytes of the HTML and twin written (the next build may reuse them)
    reused: bool = False  # the previous build's files were kept: nothing of the page was rendered again


@dataclass
class Job:
    """What every render needs: forked workers inherit it."""

    ctx: SiteContext
    pages: list[Page]
    render: Render = render_page
    strict: bool = False
    cache: PageCache | None = None
    write: Writer | None = None
    index: Callable[[Page, Any], Any] | None = (
        None  # (page, its body) -> its search record, made where it renders
    )
    reuse: OutputReuse | None = None  # the previous build's files of pages whose every input is unchanged


def render_one(job: Job, page: Page) -> Rendered:
    """Render a page (its body from the page cache when valid), writing it out when the job has a writer.

    A page whose body is restored and whose every other input equals the previous build's keeps that build's
    files (job.reuse), and its search record is the previous build's: nothing of it is made again.
    """
    cache = job.cache
    # with output reuse, the body itself is read only when the page cannot keep its files
    restored = cache.restore(job.ctx, page, body=job.reuse is None) if cache else None
    key = restored.key if restored else None
    if cache and restored and job.reuse is not None:
        sizes = job.reuse.keep(page, restored.key)
        if sizes is None:
            restored = cache.restore_body(restored)
            key = restored.key if restored else None
        else:
            diagnostics = [
                *restored.diagnostics,
                *restored.content.diagnostics,
            ]  # as render_page reports them
            kept = RenderedPage(page.key, "", "", restored.content, diagnostics)
            pack = cache.pack_of(restored.key) if cache else None
            # no search record: it is the last build's (docsgen.outputs.site_search)
            return Rendered(kept, True, True, restored.key, pack, sizes=sizes, reused=True)
    if restored:
        rendered = job.render(job.ctx, page, strict=job.strict, body=restored.content)
        rendered.diagnostics[:0] = restored.diagnostics
    else:
        rendered = job.render(job.ctx, page, strict=job.strict)
        if cache:
            key = cache.store(page, rendered.content, rendered.links)
    out = Rendered(
        rendered, cache_key=key, cache_pack=cache.pack_of(key) if cache and restored and key else None
    )
    if job.index is not None:
        out.index = job.index(page, rendered.content)
    if job.write is not None:
        html_size, twin_size = len(rendered.html.encode("utf-8")), len(rendered.twin.encode("utf-8"))
        out.written = job.write(page.output, rendered.html, page.key)
        if out.written:
            rendered.html = ""
        out.twin_written = job.write(twin_path(page.url), rendered.twin, page.key)
        out.sizes = (html_size, twin_size)
    return out


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


_JOB: Job | None = None  # what forked workers inherit; set only while a pool runs
# A worker's young objects are collected every this many allocations (Python's default: 700). Rendering makes
# and drops millions of short-lived tokens; the default's collections cost ~3% of a worker's time.
WORKER_GC_THRESHOLD = 10_000


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


def _start_worker() -> None:
    """Worker start: collect young objects less often (see WORKER_GC_THRESHOLD)."""
    gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])


def _render_chunk(indices: list[int]) -> list[Rendered]:
    """Worker: render some pages of the inherited job."""
    assert _JOB is not None, "workers are forked from render_pages"
    return _for_pipe(_JOB, _flushed(_JOB.cache, [render_one(_JOB, _JOB.pages[i]) for i in indices]))


def _for_pipe(job: Job, results: list[Rendered]) -> list[Rendered]:
    """Leave out of the results sent to the main process what it will not read again: with the search record
    made here (job.index), a written page's HTML, twin and links (see released()); otherwise a generated API
    page's body, aside and Markdown (search reads its compact search_html). Tens of KB a page."""
    for rendered in results:
        content = rendered.page.content
        rendered.page.links = []
        if job.index is not None:
            released(rendered)
        elif rendered.written and content.search_html:
            slim = copy.copy(content)
            slim.html = slim.aside_html = slim.panel_html = ""
            if rendered.twin_written:
                slim.markdown = None
            rendered.page.content = slim
    return results


def released(rendered: Rendered) -> None:
    """Keep of a written page only what the stages after rendering read: its assets, icons, snippets used,
    changelog entries and diagnostics (the body's HTML went to the file, the search index and the twin already).

    A large site then holds per page its Page and a few small sets, not its HTML: memory does not grow with the
    size of the pages. The page's twin is dropped too when it is in the output folder (read back from there).
    """
    if not rendered.written:
        return
    content = rendered.page.content
    slim = copy.copy(content)
    slim.html, slim.aside_html, slim.panel_html, slim.toc = "", "", "", []
    slim.text_html = slim.markdown = slim.search_html = slim.api_data = None
    rendered.page.content = slim
    if rendered.twin_written:
        rendered.page.twin = ""


def _flushed(cache: PageCache | None, results: list[Rendered]) -> list[Rendered]:
    """Write the page cache entries of these renders as one pack and note it on the renders that stored one."""
    pack = cache.flush() if cache else None
    for rendered in results:
        if rendered.cache_key and rendered.cache_pack is None:
            if pack is None:  # not written: no entry to keep
                rendered.cache_key = None
            rendered.cache_pack = pack
    return results


CHUNK_PAGES = 200  # at most this many pages a chunk (a fraction of a second's work)


def _chunks(count: int, workers: int, start: int = 0) -> list[list[int]]:
    """Split `count` page indices from `start` into contiguous chunks, several per worker to balance uneven pages.

    Chunks stay small on large sites: results reach the main process (and the search index) as a steady
    stream, and the last chunk leaves the other workers idle for a fraction of a second, not for seconds.
    """
    size = max(4, min(CHUNK_PAGES, count // (workers * 8)))
    end = start + count
    return [list(range(first, min(first + size, end))) for first in range(start, end, size)]


def render_pages(
    job: Job,
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    on_rendered: Callable[[list[Page], list[Rendered]], Any] | None = None,
    release: bool = False,
) -> list[Rendered]:
    """Render the job's pages (in this order) serially or on a process pool; set each page's content.

    on_rendered(pages, rendered) is called in this process, in page order, as soon as pages are done (content set).
    release: once on_rendered has seen them, written pages keep only what later stages read (see released());
    their search records and source text are dropped.
    """
    global _JOB
    pages = job.pages
    count = worker_count(len(pages), workers)
    results: list[Rendered] = []
    if job.cache:
        job.cache.load_index()  # once, here: forked workers inherit it

    def done(chunk: list[int], rendered: list[Rendered]) -> None:
        for index, one in zip(chunk, rendered, strict=True):
            pages[index].content = one.page.content
            results.append(one)
        if on_rendered:
            on_rendered([pages[index] for index in chunk], rendered)
        if release:  # what on_rendered took (the search records) and the page's source are not needed again
            for index, one in zip(chunk, rendered, strict=True):
                released(one)
                one.index = None
                pages[index].content = one.page.content
                pages[index].body = ""
        if progress:
            progress("render", len(results), len(pages))

    if count <= 1:
        for index, page in enumerate(pages):
            done([index], [render_one(job, page)])
            if len(results) % SERIAL_PACK == 0 or len(results) == len(pages):
                _flushed(job.cache, results[-SERIAL_PACK:])
        return results
    # The first page renders here, before the fork: the modules, templates and caches it loads lazily are then
    # loaded once and inherited by every worker instead of being loaded again in each.
    done([0], _flushed(job.cache, [render_one(job, pages[0])]))
    _JOB = job
    # The heap as it is now (the site, its navigation, the templates) is kept out of the cycle collector while the
    # workers live: their collections no longer walk it, and its memory pages stay shared instead of being
    # copied into each worker when the collector touches them.
    frozen_already = gc.get_freeze_count() > 0  # by someone else: theirs to unfreeze
    gc.freeze()
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(count, mp_context=context, initializer=_start_worker) as pool:
            chunks = _chunks(len(pages) - 1, count, start=1)
            for chunk, rendered_chunk in zip(chunks, pool.map(_render_chunk, chunks), strict=True):
                done(chunk, rendered_chunk)
    finally:
        _JOB = None
        if not frozen_already:
            gc.unfreeze()  # this process's collector sees the whole heap again
    return results
