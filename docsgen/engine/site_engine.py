"""The engine: every speed mechanism of a build behind one object, so build() reads as its stages.

    with Engine(out_dir, options, timings) as engine:
        rendered = engine.render(site)     # pages claimed, rendered (pool, page cache, kept files), written
        files = engine.outputs(rendered)   # the files that need every page, the search index
        ...check...
        engine.write(files)                # the new folder in place, the caches saved for the next build

It takes the pure render function (docsgen.render.render_page) and yields immutable rendered pages
(RenderedSite); nothing after it changes them. What it owns: the process pool and the collector's thresholds
(docsgen.engine.pool, driven by docsgen.engine.rendering), the page cache (cache.py), the previous build's files of unchanged pages and its search
bundles (reuse.py, docsgen.outputs.site_search), memory release (pages written are not held), and the output
folder the pages are written into as they render (docsgen.engine.write.OutputFolder). Leaving the block without
write() (an error) leaves out_dir as it was.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from docsgen.common.errors import Diagnostic
from docsgen.common.urls import twin_path
from docsgen.engine.cache import PageCache
from docsgen.engine.pool import fewer_collections
from docsgen.engine.rendering import (
    Done,
    Job,
    Ledger,
    OnRendered,
    PageRender,
    Progress,
    Render,
    render_pages,
)
from docsgen.engine.reuse import OutputReuse, site_fingerprint
from docsgen.engine.timings import Timings
from docsgen.engine.write import OutputFolder, PageWriter, SiteFiles, WrittenTexts
from docsgen.mdx import MdxResult
from docsgen.outputs import SiteSearch, add_after_pages, add_before_pages, written_to
from docsgen.outputs.search import record_maker
from docsgen.pages.page import Page
from docsgen.render import SiteContext, render_page, site_context, thumbnails
from docsgen.render.custom import timestamps
from docsgen.site.read import Site

CACHE_ENV = "DOCSGEN_CACHE"  # "0" / "off": no page cache


@dataclass(frozen=True)
class EngineOptions:
    """How the engine renders: the `docsgen build` options it reads."""

    strict: bool = False  # warnings are errors (part of the page cache's fingerprint)
    cache: bool | None = None  # reuse unchanged pages' bodies and files (None: on unless $DOCSGEN_CACHE=0)
    workers: int | None = None  # render processes (None: every CPU, or $DOCSGEN_WORKERS; small sites: 1)
    progress: Progress | None = None  # called as pages render


@dataclass(frozen=True)
class RenderedSite:
    """Every page the engine rendered, in page order; never changed after."""

    pages: tuple[PageRender, ...]

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every page's problems, in page order."""
        return [d for page in self.pages for d in page.diagnostics]

    def bodies(self) -> dict[str, MdxResult]:
        """Return each page's body by page key (of a written page, what the outputs read: see body_facts)."""
        return {page.key: page.body for page in self.pages}

    def thumbnails(self) -> dict[str, bytes]:
        """Return the Open Graph images drawn where pages rendered, by cache key."""
        return dict(page.thumbnail for page in self.pages if page.thumbnail is not None)

    def twins(self, pages: list[Page], folder: OutputFolder | None = None) -> WrittenTexts:
        """Return each page's Markdown twin by page key (read back from the folder when written there)."""
        urls = {page.key: page.url for page in pages}
        kept = {r.key: r.twin for r in self.pages if r.twin is not None}
        written = {r.key: twin_path(urls[r.key]) for r in self.pages if r.twin is None}
        return WrittenTexts(kept, written, folder)


@dataclass(frozen=True)
class _Run:
    """One build's state between render(), outputs() and write()."""

    site: Site
    ctx: SiteContext
    pages: list[Page]
    files: SiteFiles
    folder: OutputFolder
    search: SiteSearch
    cache: PageCache | None
    reuse: OutputReuse | None
    ledgers: tuple[Ledger, ...]
    thumbnails: thumbnails.Thumbnails | None  # drawn by the render workers, each page's where it renders


class Engine:
    """Renders a site's pages into a new output folder as fast as the previous build allows (see the module)."""

    def __init__(
        self,
        out_dir: Path,
        options: EngineOptions | None = None,
        timings: Timings | None = None,
        render: Render = render_page,
    ) -> None:
        self.out_dir, self.options = out_dir, options or EngineOptions()
        self.timings, self._render = timings or Timings(), render
        self._stack = contextlib.ExitStack()
        self._run: _Run | None = None

    def __enter__(self) -> Engine:
        self._stack.enter_context(fewer_collections())  # from reading the site on
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()  # stops Pagefind, deletes an uncommitted folder, restores the collector

    def render(self, site: Site) -> RenderedSite:
        """Claim every page's files, then render the pages into a new output folder, feeding the search index as
        they come; an unchanged page keeps its body (page cache) or its files (the previous build's)."""
        opts = self.options
        with self.timings.stage("theme + sidebars"):
            ctx, files, pages = site_context(site), SiteFiles(), site.pages_to_render()
            cache = open_page_cache(site, strict=opts.strict, cache=opts.cache)
            reuse = open_output_reuse(ctx, cache, self.out_dir)  # the previous build's files, where unchanged
            add_before_pages(ctx, site, pages, files, reuse.sidebars() if reuse else None)
        in_place = reuse is not None and reuse.can_update()
        folder = self._stack.enter_context(OutputFolder(self.out_dir, in_place=in_place))
        writer = PageWriter(folder, files)  # pages are written where they render, only at the paths claimed
        if reuse is not None:
            reuse.attach(writer)
        previous = reuse.bundle if reuse else None  # bundles whose pages are all kept are linked
        output = written_to(files, folder)  # bundles finished while pages render are written at once
        search = SiteSearch(ctx, site, cache=opts.cache, previous=previous, output=output)
        self._stack.enter_context(search)
        thumbs = thumbnails.maker(ctx, site.docs_dir)  # before the workers fork: they inherit it
        draw = thumbs.draw if thumbs is not None else None
        job = Job(ctx, pages, self._render, opts.strict, cache, writer, record_maker(ctx, site), reuse, draw)
        with self.timings.stage("render pages"):
            rendering = render_pages(
                job, workers=opts.workers, progress=opts.progress, on_rendered=_feed(search), release=True
            )
        self._run = _Run(site, ctx, pages, files, folder, search, cache, reuse, rendering.ledgers, thumbs)
        return RenderedSite(rendering.renders)

    def outputs(self, rendered: RenderedSite) -> SiteFiles:
        """Add the files that need every rendered page and the search index (Pagefind finishes it meanwhile)."""
        run = self._started()
        with self.timings.stage("search, SEO, agent files"):
            run.search.start()  # Pagefind finishes the index in its own process meanwhile
            if run.cache is not None:  # the entries this build used (the rest is deleted)
                run.cache.finish(
                    {r.cache_key: r.cache_pack for r in run.ledgers if r.cache_key and r.cache_pack}
                )
            twins = rendered.twins(run.pages, run.folder)
            drawn = (
                thumbnails.Drawn(run.thumbnails, rendered.thumbnails())
                if run.thumbnails is not None
                else None
            )
            add_after_pages(run.ctx, run.site, run.pages, rendered.bodies(), twins, run.files, drawn)
            if run.reuse is not None and run.ledgers and all(r.reused for r in run.ledgers):
                run.reuse.keep_site_wide(run.files)  # every page kept: so are the files made of all of them
        with self.timings.stage("write"):
            run.folder.write(run.files)
        with self.timings.stage("search index (waiting for Pagefind)"):
            run.search.add_to(run.files)
        return run.files

    def write(self, files: SiteFiles) -> None:
        """Write what is left and put the new folder in place; leave the caches for the next build."""
        run = self._started()
        with self.timings.stage("write"):
            run.folder.write(files)
            if (
                run.reuse is not None
            ):  # no manifest until the folder is complete: an update in place is not atomic
                run.reuse.forget()
            run.folder.commit(files.files.keys())
            run.search.save()  # the records of the bundles: for the next build, with the files now in place
            if run.reuse is not None:
                kept = {
                    r.key: (one.cache_key, one.sizes)
                    for r, one in zip(run.pages, run.ledgers, strict=True)
                    if one.written and one.twin_written and one.cache_key and one.cache_pack and one.sizes
                }
                run.reuse.save(kept, run.search.bundles(), run.ctx.nav_files)

    def _started(self) -> _Run:
        if self._run is None:
            raise RuntimeError("Engine.render() first")
        return self._run


def _feed(search: SiteSearch) -> OnRendered:
    """Give the search index each page's record, made where it rendered; a page whose files were kept from the last
    build comes without one (its record is the last build's)."""

    def feed(pages: list[Page], done: list[Done]) -> None:
        search.add_records(
            pages,
            [one.record for one in done],
            [one.ledger.cache_key for one in done],
            [one.ledger.reused for one in done],
        )

    return feed


def open_page_cache(site: Site, *, strict: bool, cache: bool | None) -> PageCache | None:
    """Return the build's PageCache unless caching is off (cache=False, or $DOCSGEN_CACHE=0 when None)."""
    if cache is None:
        cache = os.environ.get(CACHE_ENV, "").strip().lower() not in ("0", "off", "false", "no")
    return PageCache(site, strict=strict) if cache else None


def open_output_reuse(ctx: SiteContext, cache: PageCache | None, out_dir: Path) -> OutputReuse | None:
    """Return what lets unchanged pages keep the previous build's files (with the page cache only). The dates
    pages show are read here, once, before render workers fork (they inherit them)."""
    if cache is None:
        return None
    fingerprint = site_fingerprint(ctx.site, cache.fingerprint, ctx.static_version, timestamps(ctx))
    return OutputReuse(ctx.site, out_dir, fingerprint)


def render_in_memory(site: Site, *, strict: bool = False, workers: int | None = None) -> SiteFiles:
    """Render the whole site in memory as a build does, without the search index, the caches and writing (the link
    checker reads it); its diagnostics are in the returned files' diagnostics. Each page is given its body
    (page.content), from which the search index helpers make its record (docsgen.outputs.search)."""
    ctx, files, pages = site_context(site), SiteFiles(), site.pages_to_render()
    add_before_pages(ctx, site, pages, files)
    rendered = RenderedSite(render_pages(Job(ctx, pages, strict=strict), workers=workers).renders)
    for page, one in zip(pages, rendered.pages, strict=True):
        page.content = one.body
        files.fill(page.output, one.html or "", page.key)
        files.fill(twin_path(page.url), one.twin or "", page.key)
    add_after_pages(ctx, site, pages, rendered.bodies(), rendered.twins(pages), files)
    files.diagnostics[:0] = rendered.diagnostics
    return files
