"""How far a change reaches in `docsgen dev`: which frontmatter fields show on other pages, which need a full rebuild."""

from __future__ import annotations

from docsgen.common.urls import content_hash
from docsgen.dev.snapshot import Served
from docsgen.nav.tree import Navigation
from docsgen.pages.page import Page
from docsgen.render import SiteContext, sidebar_html
from docsgen.render.switchers import section_link
from docsgen.site.read import Site

# Frontmatter fields shown outside the page itself (sidebar labels, prev/next links).
NAV_FIELDS = ("title", "sidebarTitle", "icon", "hidden", "tag", "deprecated")
# Frontmatter fields that change what the navigation or generated pages are made of: rebuild everything.
STRUCTURE_FIELDS = ("url", "openapi", "api", "asyncapi", "noindex", "hideFooterPagination")


def nav_signature(page: Page) -> tuple:
    """Return the frontmatter values that appear on other pages (sidebar, prev/next)."""
    return tuple(repr(page.meta.get(name)) for name in NAV_FIELDS)


def structure_signature(page: Page) -> tuple:
    """Return the frontmatter values whose change needs a full rebuild."""
    return tuple(repr(page.meta.get(name)) for name in STRUCTURE_FIELDS)


def uses_generated_pages(site: Site) -> bool:
    """Tell whether the site has generated (OpenAPI) pages, whose placement the navigation decides."""
    return any(p.generate is not None or p.source is None for p in site.pages.values())


def api_backed(page: Page) -> bool:
    """Tell whether a page's content comes from an OpenAPI spec (prepared by the full pipeline only)."""
    return page.generate is not None or any(page.meta.get(k) for k in ("openapi", "openapi-schema", "api"))


def section_links(nav: Navigation) -> list[str | None]:
    """Return where every section switcher leads (changes when a first page is hidden)."""
    return [section_link(s) for s in nav.sections]


def refresh_sidebars(ctx: SiteContext, site: Site, files: dict[str, Served], nav: Navigation) -> set[str]:
    """Render every sidebar again into files (and the context's sidebar versions); return the URLs of pages
    whose sidebar changed."""
    changed = set()
    for section in nav.leaf_sections():
        html = sidebar_html(ctx, section)
        path = f"_nav/{section.id}.html"
        data = html.encode("utf-8")
        if files.get(path) != data:
            files[path] = data
            ctx.nav_files[section.id] = f"{path}?v={content_hash(html)}"
            changed.add(section.id)
    return {
        "/" + site.pages[key].url
        for key, place in nav.placements.items()
        if place.section.id in changed and key in site.pages
    }
