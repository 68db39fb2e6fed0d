"""build(): the whole pipeline, stage by stage: config, sources, pages, navigation, render, write."""

from __future__ import annotations

import functools
import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from docsgen import links
from docsgen.agents import markdown_path, twin_owners
from docsgen.config import SiteConfig, load_config
from docsgen.errors import Diagnostic, DocsgenError, Severity, has_errors, sort_diagnostics
from docsgen.features import add_site_features
from docsgen.mdx import MdxContext
from docsgen.nav import Navigation, build_nav
from docsgen.pages import Page, read_page, render_page
from docsgen.redirects import link_targets
from docsgen.render import SiteContext, content_hash, page_html, relative_url, sidebar_html, template_globals
from docsgen.search import PendingIndex, start_search_index, stream_search_index
from docsgen.sources import Sources, scan
from docsgen.theme import environment, load_theme
from docsgen.timings import Timings
from docsgen.write import WRITTEN, OutputFolder, SiteFiles

Progress = Callable[[str, int, int], None]  # (stage, done, total)


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


@dataclass
class Site:
    """Everything read and rendered, before it is written."""

    docs_dir: Path
    config: SiteConfig
    sources: Sources
    pages: dict[str, Page]
    nav: Navigation
    diagnostics: list[Diagnostic] = field(default_factory=list)
    site_url: str | None = None  # public URL (--site-url / DOCSGEN_SITE_URL) for sitemap and canonical links
    timings: Timings = field(default_factory=Timings)  # seconds per stage (docsgen build --timings)
    spec_hashes: dict[str, str] = field(default_factory=dict)  # OpenAPI spec source -> content hash
    twins: dict[str, str] = field(default_factory=dict)  # page key -> Markdown twin, made while rendering
    twins_written: set[str] = field(default_factory=set)  # page keys whose twin a render worker already wrote
    twin_owners: dict[str, str] = field(default_factory=dict)  # twin path -> the page key that writes it
    pending_search: PendingIndex | None = None  # render_site(collect=False): the index Pagefind is building
    dev: bool = False  # built by `docsgen dev`: problems confined to a page are also shown on that page


def build(
    docs_dir: Path,
    out_dir: Path,
    *,
    strict: bool = False,
    verbose: bool = False,
    progress: Progress | None = None,
    site_url: str | None = None,
    cache: bool | None = None,
    workers: int | None = None,
) -> BuildResult:
    """Build the site in docs_dir into out_dir; raise DocsgenError (out_dir untouched) when it has errors.

    cache: reuse unchanged pages' MDX from the cache folder (docsgen.cachedir; None: on unless $DOCSGEN_CACHE=0).
    workers: render processes (None: every CPU, or $DOCSGEN_WORKERS; small sites render serially).
    """
    started = time.perf_counter()
    timings = Timings()
    site = read_site(docs_dir, out_dir, verbose=verbose, timings=timings)
    site.site_url = site_url
    with OutputFolder(out_dir) as folder:  # a temporary folder until commit(): deleted on any failure
        files = render_site(
            site, strict=strict, progress=progress, cache=cache, workers=workers, collect=False, folder=folder
        )
        search = site.pending_search
        try:
            _check(site, files, strict)
            with timings.stage("write"):
                folder.write(files)
            with timings.stage("search index (waiting for Pagefind)"):
                if search is not None:
                    search.add_to(files)  # Pagefind indexed while the pages were written
            diagnostics = _check(site, files, strict)
            with timings.stage("write"):
                folder.write(files)
                folder.commit()
        finally:
            if search is not None:
                search.cancel()  # a no-op once collected
    rendered = sum(1 for p in site.pages.values() if _is_rendered(site, p))
    return BuildResult(
        out_dir.resolve(), rendered, time.perf_counter() - started, diagnostics, len(files.files), timings
    )


def _check(site: Site, files: SiteFiles, strict: bool) -> list[Diagnostic]:
    """Return every diagnostic so far, sorted (warnings as errors under --strict); raise when any is an error."""
    diagnostics = sort_diagnostics(site.diagnostics + files.diagnostics)
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
    """Return diagnostics with each error confined to one page's (or snippet's) text turned into a warning:
    a problem in one page never fails the site; --strict keeps it an error."""
    sources = {p.source for p in site.pages.values() if p.source} | site.sources.snippets
    return [
        d.as_warning() if d.is_error and d.code.startswith(PAGE_SCOPED) and d.path in sources else d
        for d in diagnostics
    ]


def read_site(
    docs_dir: Path, out_dir: Path | None = None, *, verbose: bool = False, timings: Timings | None = None
) -> Site:
    """Run the reading stages: config, sources, pages, navigation (nothing rendered yet)."""
    timings = timings or Timings()
    docs_dir = docs_dir.resolve()
    with timings.stage("config"):
        config, diagnostics = load_config(docs_dir, verbose=verbose)
    if config is None:
        raise DocsgenError(diagnostics)
    with timings.stage("read pages"):
        sources = scan(docs_dir, exclude=(out_dir,) if out_dir else ())
        diagnostics += sources.diagnostics
        pages: dict[str, Page] = {}
        for file in [*sources.housekeeping.values(), *sources.pages.values()]:
            page, diags = read_page(docs_dir, file)
            pages[page.key] = page
            diagnostics += diags
    with timings.stage("openapi + navigation"):
        api = _api_pages(docs_dir, config, pages, sources.static)
        nav = build_nav(config, pages, api.resolve_entry if api else None, config.locate)
        diagnostics += nav.diagnostics
        if api:
            diagnostics += api.finish(nav)
    site = Site(docs_dir, config, sources, pages, nav, diagnostics, timings=timings)
    if api:
        site.spec_hashes = {source: spec.sha256 for source, spec in api.used.items() if spec.sha256}
    return site


def _api_pages(docs_dir: Path, config: SiteConfig, pages: dict[str, Page], files: list[str] | None = None):
    """Return the OpenAPI page generator when the site uses OpenAPI (imported lazily: it is the heaviest stage)."""
    from docsgen.openapi.pages import ApiPages

    return ApiPages.for_site(docs_dir, config, pages, files)


def _is_rendered(site: Site, page: Page) -> bool:
    """Housekeeping files (README.md & co) become pages only when the navigation names them."""
    return page.source is None or page.key in site.sources.pages or page.key in site.nav.placements


def render_site(
    site: Site,
    *,
    strict: bool = False,
    progress: Progress | None = None,
    cache: bool | None = None,
    workers: int | None = None,
    collect: bool = True,
    folder: OutputFolder | None = None,
) -> SiteFiles:
    """Render every page, sidebar, static file and special page into SiteFiles (in memory).

    collect=False leaves the search index running in Pagefind's process, in site.pending_search, for the
    caller to collect (build() writes the other files meanwhile). With `folder`, pages are written into it as
    they are rendered (their SiteFiles entries are WRITTEN).
    """
    from docsgen.parallel import render_pages

    stage = site.timings.stage
    with stage("theme + sidebars"):
        ctx = site_context(site)
        files = SiteFiles()
        add_theme_assets(ctx, files)
        add_sidebars(ctx, site, files)
    pages = pages_to_render(site)
    site.twin_owners = twin_owners(site, pages)  # before the workers fork: each writes only the twins it owns
    with stage("page cache"):
        page_cache = _page_cache(site, strict, cache)
    streaming = stream_search_index(ctx, site, cache=cache)  # a cold build: Pagefind indexes as pages come
    with stage("render pages"):
        try:
            rendered = render_pages(
                ctx,
                site,
                pages,
                strict=strict,
                workers=workers,
                progress=progress,
                cache=page_cache,
                out=folder,
                on_rendered=streaming.add_pages if streaming else None,
            )
        except BaseException:
            if streaming:
                streaming.cancel()
            raise
    for page, result in zip(pages, rendered, strict=True):
        files.add(page.output, WRITTEN if result.html is None else result.html, page.source or page.key)
        site.twins[page.key] = result.twin
        if result.twin_written:  # on disk already: claimed now, before any later output can need its path
            site.twins_written.add(page.key)
            files.add(markdown_path(page), WRITTEN, f"the Markdown twin of {page.source or page.key}")
    with stage("search, SEO, agent files"):
        # Pagefind indexes in its own process while the rest of the build goes on
        search = streaming.pending(cache=cache) if streaming else start_search_index(ctx, site, cache=cache)
    try:
        with stage("page cache"):
            if page_cache:
                page_cache.finish(
                    {r.cache_key: r.cache_pack for r in rendered if r.cache_key and r.cache_pack}
                )
        with stage("static files"):
            add_vendor_assets(ctx, pages, files)
            add_static_files(site, files)
            _special_pages(ctx, site, files)
    except BaseException:
        search.cancel()
        raise
    with stage("search, SEO, agent files"):
        add_site_features(ctx, site, files, cache=cache, search=search, collect=collect)
    site.pending_search = None if collect else search
    return files


def site_context(site: Site) -> SiteContext:
    """Return what every template needs about the site: theme, defaults, helpers (computed once per build)."""
    config = site.config
    theme = load_theme(config.theme.name)
    breadcrumbs = config.eyebrows == "breadcrumbs" if config.eyebrows else theme.breadcrumbs
    drilldown = config.drilldown if config.drilldown is not None else theme.drilldown
    ctx = SiteContext(config, theme, site.nav, site.pages, breadcrumbs, drilldown)
    ctx.site_url = site.site_url
    static = theme.static_files()
    ctx.static_version = content_hash("".join(f"{k}:{_file_digest(p)}" for k, p in static.items()))
    ctx.helpers = template_globals(ctx)
    ctx.links = links.LinkResolver(site.docs_dir, site.pages, set(site.sources.static), link_targets(site))
    return ctx


def _file_digest(path: Path) -> str:
    """Return a file's content hash (cached by size and mtime): asset URLs change only when content does."""
    stat = path.stat()
    return _digest_of(str(path), stat.st_size, stat.st_mtime_ns)


@functools.cache
def _digest_of(path: str, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def add_theme_assets(ctx: SiteContext, files: SiteFiles) -> None:
    """Copy the theme's static files to _static/ (vendored bundles only when a page needs them)."""
    for rel, path in ctx.theme.static_files().items():
        if not rel.startswith("vendor/"):
            files.add(f"_static/{rel}", path, f"theme {ctx.theme.name}")


def add_sidebars(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Render each section's sidebar once, as the shared file its pages load."""
    for section in site.nav.leaf_sections():
        html = sidebar_html(ctx, section)
        files.add(f"_nav/{section.id}.html", html, "navigation")
        ctx.nav_files[section.id] = f"_nav/{section.id}.html?v={content_hash(html)}"


def _page_cache(site: Site, strict: bool, cache: bool | None):
    """Return the build's PageCache unless caching is off (cache=False, or $DOCSGEN_CACHE=0 when None)."""
    if cache is None:
        cache = os.environ.get("DOCSGEN_CACHE", "").strip().lower() not in ("0", "off", "false", "no")
    if not cache:
        return None
    from docsgen.cache import PageCache

    return PageCache(site, strict=strict)


def pages_to_render(site: Site) -> list[Page]:
    """Return the pages that become HTML files, in a stable order."""
    return sorted((p for p in site.pages.values() if _is_rendered(site, p)), key=lambda p: p.key)


def render_one(ctx: SiteContext, site: Site, page: Page, *, strict: bool = False) -> str:
    """Render one page body (MDX or generated) and its complete HTML document."""
    render_content(ctx, site, page, strict=strict)
    return page_html(ctx, page)


def render_content(ctx: SiteContext, site: Site, page: Page, *, strict: bool = False) -> None:
    """Render one page body (MDX or generated) onto the page; its diagnostics go to site.diagnostics."""
    mdx_ctx = MdxContext(
        docs_dir=site.docs_dir,
        source=page.source or page.key,
        line_offset=page.body_line - 1,
        variables=site.config.variables,
        resolve_link=ctx.links.for_page(page, site.diagnostics),
        resolve_asset=ctx.links.asset_for_page(page, site.diagnostics),
        icon_library=site.config.icons_library,
        config=site.config,
        frontmatter=page.meta,
        strict=strict,
        dev=site.dev,
    )
    result = render_page(page, mdx_ctx)
    site.diagnostics.extend(result.diagnostics)


def check_pages(site: Site) -> list[Diagnostic]:
    """Render every written page's MDX body, as a build does, without templates, search or files (`validate`).

    Generated API pages are not rendered: their problems are the spec's, reported when it was loaded.
    """
    ctx = site_context(site)
    for page in pages_to_render(site):
        if page.generate is None and page.source is not None:
            render_content(ctx, site, page)
    return sort_diagnostics(site.diagnostics)


def add_vendor_assets(ctx: SiteContext, pages: list[Page], files: SiteFiles) -> None:
    """Ship vendored bundles (mermaid 5 MB, preact 15 kB) only with sites whose pages use them."""
    for asset, prefix in (("mermaid", "vendor/mermaid"), ("react", "vendor/preact.")):
        if any(p.content and any(a.startswith(asset) for a in p.content.assets) for p in pages):
            for rel, path in ctx.theme.static_files().items():
                if rel.startswith(prefix) and not files.has(f"_static/{rel}"):
                    files.add(f"_static/{rel}", path, f"theme {ctx.theme.name}")


def add_static_files(site: Site, files: SiteFiles) -> None:
    """Copy the docs folder's own files (images, specs, downloads) to the same paths."""
    for rel in site.sources.static:
        if rel in site.config.files:
            continue  # docs.json and its $ref parts are configuration, not content
        files.add(rel, site.docs_dir / rel, rel, on_clash="keep")  # a page of that path wins, with a warning


def _special_pages(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write the 404 page and, when the site has no index page, a home page that opens the first page."""
    env = environment(ctx.theme.name)
    not_found = ctx.config.errors.get("404") or {}
    page = Page(
        "404",
        "404.html",
        "404.html",
        meta={"title": not_found.get("title") or "Page not found", "noindex": True},
    )
    page.content = None
    html = env.get_template("404.html").render(
        **ctx.helpers,
        site=ctx,
        config=ctx.config,
        page=page,
        content=not_found.get("description", "The page you are looking for does not exist or has moved."),
        root="/",
        link=lambda url: url if "://" in url else "/" + url.lstrip("/"),
        lang="en",
        dir="ltr",
        assets=[],
        meta_tags=[("name", "robots", "noindex")],
        switchers={},
        settings={"banner": {}, "footer": ctx.config.footer, "navbar": ctx.config.navbar},
    )
    files.add("404.html", html, "the generated 404 page", on_clash="keep")  # the docs folder's 404.html wins
    if "index.html" not in files.files:
        path = site.nav.default_section_path()
        first = path[-1].first_page() if path else site.nav.root.first_page()
        if first is None and site.nav.order:
            first = next((link for key in site.nav.order[:1] for link in [site.pages[key]]), None)
        if first is not None:
            target = relative_url("index.html", first.url)
            files.add("index.html", env.get_template("redirect.html").render(target=target), "home redirect")
