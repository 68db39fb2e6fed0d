"""build(): the whole pipeline, stage by stage: read, render, outputs, check, write."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsgen.engine import (
    Job,
    OutputReuse,
    PageCache,
    Rendered,
    fewer_collections,
    finish_output_reuse,
    finish_page_cache,
    forget_output_reuse,
    keep_site_wide_files,
    open_output_reuse,
    open_page_cache,
    render_pages,
)
from docsgen.errors import Diagnostic, DocsgenError, Severity, has_errors, sort_diagnostics
from docsgen.outputs import SiteSearch, add_after_pages, add_before_pages, fill_pages
from docsgen.outputs.search import record_maker
from docsgen.pages import Page
from docsgen.render import SiteContext, site_context
from docsgen.site import Site, read_site
from docsgen.timings import Timings
from docsgen.urls import twin_path
from docsgen.write import OutputFolder, PageWriter, SiteFiles, WrittenTexts

Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass(frozen=True)
class BuildOptions:
    """How to build: the `docsgen build` options."""

    strict: bool = False  # warnings are errors
    verbose: bool = False  # also list accepted-but-ignored docs.json fields
    site_url: str | None = None  # the public URL (sitemap, canonical links)
    cache: bool | None = None  # reuse unchanged pages' bodies (None: on unless $DOCSGEN_CACHE=0)
    workers: int | None = None  # render processes (None: every CPU, or $DOCSGEN_WORKERS; small sites: 1)
    progress: Progress | None = None  # called as pages render


@dataclass
class BuildResult:
    """What a build produced: counts, time and every diagnostic (warnings included)."""

    out_dir: Path
    pages: int
    seconds: float
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    timings: Timings = field(default_factory=Timings)

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def summary(self) -> str:
        """Return the one-line summary printed at the end of a build."""
        return f"Built {self.pages} pages ({self.files} files) with {len(self.warnings)} warning(s) in {self.seconds:.2f}s -> {self.out_dir}"


@fewer_collections()
def build(
    docs_dir: Path, out_dir: Path, options: BuildOptions | None = None, **overrides: Any
) -> BuildResult:
    """Build the site in docs_dir into out_dir; raise DocsgenError (out_dir untouched) when it has errors."""
    opts = dataclasses.replace(options or BuildOptions(), **overrides)
    started, timings = time.perf_counter(), Timings()
    site = read_site(docs_dir, out_dir, verbose=opts.verbose, timings=timings)
    site.site_url = opts.site_url
    with timings.stage("theme + sidebars"):
        ctx, files, pages = site_context(site), SiteFiles(), site.pages_to_render()
        cache = open_page_cache(site, strict=opts.strict, cache=opts.cache)
        reuse = open_output_reuse(ctx, cache, out_dir)  # the previous build's files, where nothing changed
        kept = reuse.sidebars() if reuse else None
        add_before_pages(ctx, site, pages, files, kept)  # page paths claimed: workers write only there
    with OutputFolder(out_dir, in_place=reuse is not None and reuse.can_update()) as folder:
        job = render_job(site, ctx, pages, opts, cache, reuse, PageWriter(folder, files))
        previous = job.reuse.bundle if job.reuse else None  # bundles whose pages are all kept are linked
        output = (files, folder)  # bundles finished while pages render are written at once
        with SiteSearch(ctx, site, cache=opts.cache, previous=previous, output=output) as search:
            with timings.stage("render pages"):
                rendered = render_pages(
                    job,
                    workers=opts.workers,
                    progress=opts.progress,
                    on_rendered=search.add_rendered,  # each page's search record, made where it rendered
                    release=True,  # a written page's HTML is not held: memory stays flat as the site grows
                )
            with timings.stage("search, SEO, agent files"):
                search.start()  # Pagefind finishes the index in its own process meanwhile
                finish_page_cache(job.cache, rendered)
                add_after_pages(ctx, site, pages, twins(rendered, pages, folder), files)
                keep_site_wide_files(job.reuse, rendered, files)
            with timings.stage("write"):
                folder.write(files)
            with timings.stage("search index (waiting for Pagefind)"):
                search.add_to(files)
            diagnostics = check(site, rendered, files, strict=opts.strict)
            with timings.stage("write"):
                folder.write(files)
                # no manifest until the folder is complete: an update in place is not atomic
                forget_output_reuse(job.reuse)
                folder.commit(files.files.keys())
                search.save()  # the records of the bundles: for the next build, with the files now in place
                finish_output_reuse(job.reuse, rendered, search.bundles(), ctx.nav_files)
    seconds = time.perf_counter() - started
    return BuildResult(out_dir.resolve(), len(pages), seconds, diagnostics, len(files.files), timings)


def render_job(
    site: Site,
    ctx: SiteContext,
    pages: list[Page],
    opts: BuildOptions,
    cache: PageCache | None,
    reuse: OutputReuse | None,
    writer: PageWriter,
) -> Job:
    """Return what rendering needs: the page cache, the writer, the search record maker and, with the cache,
    the previous build's files of unchanged pages (linked by the writer)."""
    if reuse is not None:
        reuse.attach(writer)
    index = record_maker(ctx, site)
    return Job(ctx, pages, strict=opts.strict, cache=cache, write=writer, index=index, reuse=reuse)


def twins(rendered: list[Rendered], pages: list[Page], folder: OutputFolder | None = None) -> WrittenTexts:
    """Return each rendered page's Markdown twin by page key (read back from the folder when written there)."""
    urls = {page.key: page.url for page in pages}
    kept = {r.page.key: r.page.twin for r in rendered if not (folder and r.twin_written)}
    written = {r.page.key: twin_path(urls[r.page.key]) for r in rendered if folder and r.twin_written}
    return WrittenTexts(kept, written, folder)


def check(site: Site, rendered: list[Rendered], files: SiteFiles, *, strict: bool) -> list[Diagnostic]:
    """Return every diagnostic, sorted (warnings as errors under --strict); raise DocsgenError when any is an
    error. In a plain build a problem of one page's own text is a warning: it never fails the site."""
    found = site.diagnostics + [d for r in rendered for d in r.page.diagnostics] + files.diagnostics
    diagnostics = sort_diagnostics(found)
    if strict:
        diagnostics = [d.as_error() if d.severity is Severity.WARNING else d for d in diagnostics]
    else:
        diagnostics = confine_to_pages(site, diagnostics)
    if has_errors(diagnostics):
        raise DocsgenError(diagnostics)
    return diagnostics


# Problems of a page's own text: in a plain build they stay with that page (built as far as it could be read).
PAGE_SCOPED = ("mdx.", "page.")


def confine_to_pages(site: Site, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Return diagnostics with each error confined to one page's (or snippet's) text turned into a warning."""
    sources = site.page_sources()
    return [
        d.as_warning() if d.is_error and d.code.startswith(PAGE_SCOPED) and d.path in sources else d
        for d in diagnostics
    ]


def render_site(site: Site, *, strict: bool = False, workers: int | None = None) -> SiteFiles:
    """Render the whole site in memory as build() does, without the search index and without writing (the
    link checker reads it); its diagnostics are in the returned files' diagnostics."""
    ctx, files, pages = site_context(site), SiteFiles(), site.pages_to_render()
    add_before_pages(ctx, site, pages, files)
    rendered = render_pages(Job(ctx, pages, strict=strict), workers=workers)
    fill_pages(files, pages, [r.page for r in rendered])
    add_after_pages(ctx, site, pages, twins(rendered, pages), files)
    files.diagnostics[:0] = [d for r in rendered for d in r.page.diagnostics]
    return files
