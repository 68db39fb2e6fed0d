"""Render pages on every CPU core with a process pool; the output is byte-identical to a serial build.

Each page is rendered by `render_one` exactly as in a serial build. Workers are forked after the site is read,
so they inherit the site, its navigation and the template helpers (closures that cannot be pickled) for free;
only page indices go to the workers, and each page's HTML, MDX result, metadata and diagnostics come back.
Where fork is unavailable (Windows, macOS defaults) or the site is small, pages render serially.
"""

from __future__ import annotations

import copy
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docsgen.errors import Diagnostic
from docsgen.mdx import MdxResult

if TYPE_CHECKING:
    from docsgen.build import Site
    from docsgen.cache import PageCache
    from docsgen.pages import Page
    from docsgen.render import SiteContext
    from docsgen.write import OutputFolder

WORKERS_ENV = "DOCSGEN_WORKERS"  # "1" forces a serial build
MIN_PAGES_PER_WORKER = 48  # below this, starting a process costs more than it saves
SERIAL_PACK = 64  # a serial build writes its page cache entries in packs of this many pages

Progress = Callable[[str, int, int], None]


@dataclass
class Rendered:
    """One page's render, with the side effects render_one has on the site captured as data."""

    html: str | None  # None: written to the output folder by the process that rendered it
    content: MdxResult | None
    meta: dict[str, Any]
    diagnostics: list[Diagnostic] = field(default_factory=list)  # what render_one added to site.diagnostics
    links: list[tuple[str, str, str]] = field(default_factory=list)  # resolver calls, for the page cache
    twin: str = ""  # the page's Markdown twin (docsgen.agents), made where the page was rendered
    twin_written: bool = False  # the twin is already in the output folder (written next to the page's HTML)
    cache_key: str | None = None  # the page cache entry restored or written for the page
    cache_pack: str | None = None  # the pack file holding that entry (set once the entry is flushed)


class _RecordingLinks:
    """A LinkResolver stand-in that records what each page's resolvers answered (the cache replays them)."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.calls: list[tuple[str, str, str]] = []

    def _record(self, kind: str, resolve: Callable[[str], str]) -> Callable[[str], str]:
        def recorded(href: str) -> str:
            url = resolve(href)
            self.calls.append((kind, href, url))
            return url

        return recorded

    def for_page(self, page: Page, diagnostics: list[Diagnostic]) -> Callable[[str], str]:
        return self._record("link", self.inner.for_page(page, diagnostics))

    def asset_for_page(self, page: Page, diagnostics: list[Diagnostic]) -> Callable[[str], str]:
        return self._record("asset", self.inner.asset_for_page(page, diagnostics))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def render_recorded(
    ctx: SiteContext,
    site: Site,
    page: Page,
    *,
    strict: bool = False,
    cache: PageCache | None = None,
    out: OutputFolder | None = None,
) -> Rendered:
    """Render a page (its body from the page cache when valid) and its Markdown twin, capturing side effects."""
    from docsgen.agents import page_markdown, twin_path_free
    from docsgen.build import render_one

    saved_links, saved_diagnostics = ctx.links, site.diagnostics
    recorder = _RecordingLinks(saved_links)
    ctx.links, site.diagnostics = recorder, []
    try:
        key = cache.restore(ctx, page) if cache else None
        pack = cache.pack_of(key) if cache and key else None
        recorder.calls.clear()  # the replay of a cache entry's links is not this page's render
        html: str | None = render_one(ctx, site, page, strict=strict)
        twin = page_markdown(site, page)
        twin_written = False
        if out is not None and html is not None:
            out.write_text(page.output, html)
            html = None
            twin_path = twin_path_free(site, page)
            if twin_path:  # written here, in parallel with the other workers, not later by the main process
                out.write_text(twin_path, twin)
                twin_written = True
        if cache and key is None and page.content is not None:
            key = cache.store(page, page.content, recorder.calls)
        return Rendered(
            html, page.content, page.meta, site.diagnostics, recorder.calls, twin, twin_written, key, pack
        )
    finally:
        ctx.links, site.diagnostics = saved_links, saved_diagnostics


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


# What forked workers inherit: (ctx, site, pages, strict, cache, out). Set only while a pool runs.
_SHARED: tuple[Any, Any, list, bool, Any, Any] | None = None


def _render_chunk(indices: list[int]) -> list[Rendered]:
    """Worker: render some pages of the inherited site."""
    assert _SHARED is not None, "workers are forked from render_pages"
    ctx, site, pages, strict, cache, out = _SHARED
    return _for_pipe(
        _flushed(
            cache,
            [render_recorded(ctx, site, pages[i], strict=strict, cache=cache, out=out) for i in indices],
        )
    )


def _for_pipe(results: list[Rendered]) -> list[Rendered]:
    """Leave out of the results sent to the main process the HTML it will not read again.

    A page written here that carries a compact search_html (generated API pages) needs its body, aside and
    Markdown no more: its file and twin are written, and search reads search_html. About 45 KB a page.
    """
    for rendered in results:
        content = rendered.content
        if rendered.html is None and content is not None and getattr(content, "search_html", None):
            slim = copy.copy(content)
            slim.html = slim.aside_html = slim.panel_html = ""
            if rendered.twin_written:
                slim.markdown = None  # type: ignore[attr-defined]
            rendered.content = slim
    return results


def _flushed(cache: PageCache | None, results: list[Rendered]) -> list[Rendered]:
    """Write the page cache entries of these renders as one pack and note it on the renders that stored one."""
    pack = cache.flush() if cache else None
    for rendered in results:
        if rendered.cache_key and rendered.cache_pack is None:
            if pack is None:  # not written: no entry to keep
                rendered.cache_key = None
            rendered.cache_pack = pack
    return results


def _chunks(count: int, workers: int, start: int = 0) -> list[list[int]]:
    """Split `count` page indices from `start` into contiguous chunks, several per worker to balance uneven pages."""
    size = max(4, count // (workers * 8))
    end = start + count
    return [list(range(first, min(first + size, end))) for first in range(start, end, size)]


def render_pages(
    ctx: SiteContext,
    site: Site,
    pages: list[Page],
    *,
    strict: bool = False,
    workers: int | None = None,
    progress: Progress | None = None,
    cache: PageCache | None = None,
    out: OutputFolder | None = None,
    on_rendered: Callable[[list[Page]], None] | None = None,
) -> list[Rendered]:
    """Render pages (in this order) serially or on a process pool; apply their effects to site and pages.

    With `out`, each page's HTML is written into that output folder where it was rendered (Rendered.html is None).
    on_rendered(pages) is called in this process, in page order, as soon as pages are done (content and meta set).
    """
    global _SHARED
    count = worker_count(len(pages), workers)
    results: list[Rendered] = []
    if cache:
        cache.load_index()  # once, here: forked workers inherit it
    if count <= 1:
        for done, page in enumerate(pages, 1):
            rendered = render_recorded(ctx, site, page, strict=strict, cache=cache, out=out)
            site.diagnostics.extend(rendered.diagnostics)
            results.append(rendered)
            if on_rendered:
                on_rendered([page])
            if progress:
                progress("render", done, len(pages))
            if done % SERIAL_PACK == 0 or done == len(pages):
                _flushed(cache, results[-SERIAL_PACK:])
        return results
    # The first page renders here, before the fork: the modules, templates and caches it loads lazily are then
    # loaded once and inherited by every worker instead of being loaded again in each.
    first = _flushed(cache, [render_recorded(ctx, site, pages[0], strict=strict, cache=cache, out=out)])[0]
    site.diagnostics.extend(first.diagnostics)
    results.append(first)
    if on_rendered:
        on_rendered([pages[0]])
    _SHARED = (ctx, site, pages, strict, cache, out)
    try:
        with ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork")) as pool:
            chunks = _chunks(len(pages) - 1, count, start=1)
            for chunk, rendered_chunk in zip(chunks, pool.map(_render_chunk, chunks), strict=True):
                for index, rendered in zip(chunk, rendered_chunk, strict=True):
                    page = pages[index]
                    page.content = rendered.content
                    if rendered.meta != page.meta:  # generated API pages add playground data
                        page.meta = rendered.meta
                    site.diagnostics.extend(rendered.diagnostics)
                    results.append(rendered)
                if on_rendered:
                    on_rendered([pages[index] for index in chunk])
                if progress:
                    progress("render", len(results), len(pages))
    finally:
        _SHARED = None
    return results
