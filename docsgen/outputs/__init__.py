"""Every file of the site besides the pages' own: one list (SiteFiles), in two steps around rendering.

Before pages render, the paths they will be written to are claimed (their HTML, then their Markdown twins, which
a file of the docs folder of the same path beats), so render workers write only where nothing else will.
After, the files that need rendered pages: vendored bundles they use, 404 and home, redirects, SEO files,
agent files and the search index.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from docsgen.common.urls import twin_path
from docsgen.engine.write import Claimed, SiteFiles
from docsgen.mdx import MdxResult
from docsgen.outputs.access import add_access_files
from docsgen.outputs.agents import add_agent_files
from docsgen.outputs.assets import (
    add_google_fonts,
    add_sidebars,
    add_special_pages,
    add_static_files,
    add_theme_assets,
    add_vendor_assets,
)
from docsgen.outputs.branding import add_branding_files
from docsgen.outputs.changelog import add_changelog_feeds
from docsgen.outputs.customization_checks import add_customization_checks
from docsgen.outputs.redirects import add_redirects
from docsgen.outputs.seo import add_seo_files
from docsgen.outputs.site_search import SiteSearch, written_to
from docsgen.outputs.tailwind import add_component_classes, add_tailwind_css
from docsgen.pages.page import Page
from docsgen.render import RenderedPage, SiteContext
from docsgen.render.thumbnails import Drawn
from docsgen.site.read import Site

__all__ = [
    "SiteSearch",
    "written_to",
    "add_after_pages",
    "add_before_pages",
    "add_page_files",
    "add_site_files",
    "add_vendor_assets",
    "fill_pages",
    "twin_owner",
]


def add_before_pages(
    ctx: SiteContext,
    site: Site,
    pages: list[Page],
    files: SiteFiles,
    kept_sidebars: Mapping[str, tuple[Path, str, int]] | None = None,
) -> None:
    """Add the theme's files, the site's Tailwind stylesheet and sidebars (kept_sidebars: the previous build's, see add_sidebars), claim each
    page's HTML path, add the docs folder's own files, then claim each page's twin path."""
    add_theme_assets(ctx, files)
    add_google_fonts(ctx, files)  # downloaded once (cached) before pages render, which link them
    add_tailwind_css(ctx, files)  # before pages render: they link it only when it was made
    add_sidebars(ctx, site, files, kept_sidebars)
    for page in pages:
        files.add(page.output, Claimed(page.key), page.source or page.key)
    add_static_files(site, files)
    for page in pages:
        files.add(twin_path(page.url), Claimed(page.key), twin_owner(page), on_clash="keep")


def fill_pages(files: SiteFiles, pages: list[Page], rendered: list[RenderedPage]) -> None:
    """Put rendered pages' HTML and twins at their claimed paths (rendering without a PageWriter)."""
    for page, one in zip(pages, rendered, strict=True):
        files.fill(page.output, one.html, page.key)
        files.fill(twin_path(page.url), one.twin, page.key)


def twin_owner(page: Page) -> str:
    """Name a page's Markdown twin in messages."""
    return f"the Markdown twin of {page.source or page.key}"


def add_after_pages(
    ctx: SiteContext,
    site: Site,
    pages: list[Page],
    bodies: Mapping[str, MdxResult],
    twins: Mapping[str, str],
    files: SiteFiles,
    drawn: Drawn | None = None,
) -> None:
    """Add the files that need the rendered pages (a build: add_site_files, then add_page_files; the search index
    is added by SiteSearch; `drawn`: the Open Graph images the render workers drew). `docsgen dev` adds the same
    two, at two times (docsgen.dev.background)."""
    add_site_files(ctx, site, pages, files, drawn=drawn)
    add_page_files(ctx, site, bodies, twins, files)


def add_site_files(
    ctx: SiteContext,
    site: Site,
    pages: list[Page],
    files: SiteFiles,
    *,
    thumbnails: bool = True,
    drawn: Drawn | None = None,
) -> None:
    """Add the files made of the site alone, no page rendered: 404 and home, redirects, customization checks,
    SEO files, branding (thumbnails=False: the Open Graph images are left to add_thumbnail_files, as `docsgen
    dev` does so its first page does not wait for a thousand images)."""
    add_special_pages(ctx, site, files)
    add_redirects(ctx, site, files)
    add_customization_checks(ctx, files)
    add_seo_files(ctx, site, files)
    add_branding_files(ctx, pages, files, with_thumbnails=thumbnails, drawn=drawn)


def add_page_files(
    ctx: SiteContext, site: Site, bodies: Mapping[str, MdxResult], twins: Mapping[str, str], files: SiteFiles
) -> None:
    """Add the files made of every rendered page: from their bodies by page key (what the engine kept of each:
    assets, classes, changelog entries; docsgen.engine.rendering.body_facts) the vendored bundles, the
    components' Tailwind classes and the changelog feeds; from their Markdown twins by page key the agent files
    (llms.txt & co) and the access files."""
    add_vendor_assets(ctx, bodies.values(), files)
    add_component_classes(ctx, bodies.values(), files)  # class names components built at run time
    add_agent_files(site, twins, files)
    add_access_files(site, files, twins)
    add_changelog_feeds(ctx, site, bodies, files)
