"""The Site: everything read (config, sources, pages, generated API pages, navigation), nothing rendered yet."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from docsgen.common.errors import Diagnostic, DocsgenError
from docsgen.config import SiteConfig, load_config
from docsgen.engine.timings import Timings
from docsgen.nav.tree import Navigation, build_nav
from docsgen.openapi.navigation import uses_api
from docsgen.pages.page import Page, read_page
from docsgen.site.policies import PagePolicy, PolicyTable
from docsgen.sources.walk import Sources, scan


@dataclass
class Site:
    """Everything read from the docs folder, before anything is rendered."""

    docs_dir: Path
    config: SiteConfig
    sources: Sources
    pages: dict[str, Page]
    nav: Navigation
    diagnostics: list[Diagnostic] = field(default_factory=list)  # problems found while reading
    site_url: str | None = None  # public URL (--site-url / DOCSGEN_SITE_URL) for sitemap and canonical links
    timings: Timings = field(default_factory=Timings)  # seconds per stage (docsgen build --timings)
    spec_hashes: dict[str, str] = field(default_factory=dict)  # OpenAPI spec source -> content hash
    dev: bool = False  # read by `docsgen dev`: problems confined to a page are also shown on that page
    _policies: PolicyTable | None = field(default=None, repr=False, compare=False)

    def policy(self, page: Page) -> PagePolicy:
        """Return where a page may appear (navigation, sitemap, llms.txt, search) and its robots tag."""
        return self.policies().of(page)

    def policies(self) -> PolicyTable:
        """Return the policy table of the current navigation (made again when the navigation is replaced)."""
        if (
            self._policies is None
            or self._policies.nav is not self.nav
            or self._policies.config is not self.config
        ):
            marked = any("groups" in p.meta or "public" in p.meta for p in self.pages.values())
            self._policies = PolicyTable(self.config, self.nav, marked)
        return self._policies

    def is_rendered(self, page: Page) -> bool:
        """Housekeeping files (README.md & co) become pages only when the navigation names them."""
        return page.source is None or page.key in self.sources.pages or page.key in self.nav.placements

    def pages_to_render(self) -> list[Page]:
        """Return the pages that become HTML files, in a stable order."""
        return sorted((p for p in self.pages.values() if self.is_rendered(p)), key=lambda p: p.key)

    def page_sources(self) -> set[str]:
        """Return the files whose text is a page's (pages and snippets): problems there are that page's."""
        return {p.source for p in self.pages.values() if p.source} | self.sources.snippets


def pages_to_render(site: Site) -> list[Page]:
    """Return the pages that become HTML files, in a stable order."""
    return site.pages_to_render()


def read_site(
    docs_dir: Path,
    out_dir: Path | None = None,
    *,
    verbose: bool = False,
    timings: Timings | None = None,
    dev: bool = False,
) -> Site:
    """Read the site: config, sources, pages, generated API pages, navigation; raise DocsgenError on config errors."""
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
        generated = api.navigation_pages() if api else None  # made before the navigation, which places them
        nav = build_nav(config, pages, generated, config.locate)
        diagnostics += nav.diagnostics
        if api:
            diagnostics += api.finish(nav)
    site = Site(docs_dir, config, sources, pages, nav, diagnostics, timings=timings, dev=dev)
    if api:
        site.spec_hashes = {source: spec.sha256 for source, spec in api.used.items() if spec.sha256}
    return site


def _api_pages(docs_dir: Path, config: SiteConfig, pages: dict[str, Page], files: list[str] | None = None):
    """Return the OpenAPI page generator when the site uses OpenAPI (imported lazily: it is the heaviest stage)."""
    if not uses_api(config, pages):
        return None
    from docsgen.openapi.pages import ApiPages

    return ApiPages.for_site(docs_dir, config, pages, files)
