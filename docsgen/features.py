"""Site-wide outputs beyond the pages: the files a published docs site is expected to have."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docsgen.agents import add_agent_files
from docsgen.branding import add_branding_files
from docsgen.changelog_feed import add_changelog_feeds
from docsgen.customize import add_customization
from docsgen.redirects import add_redirect_pages, add_redirects, redirect_sources
from docsgen.render import SiteContext
from docsgen.search import PendingIndex, start_search_index
from docsgen.seo import add_seo_files
from docsgen.write import SiteFiles

if TYPE_CHECKING:
    from docsgen.build import Site

__all__ = ["add_redirect_pages", "add_site_features", "redirect_sources"]


def add_site_features(
    ctx: SiteContext,
    site: Site,
    files: SiteFiles,
    *,
    cache: bool | None = None,
    search: PendingIndex | None = None,
    collect: bool = True,
) -> None:
    """Add redirects, search, SEO and agent files to the site; each feature is one call here, in its own module.

    The search index is built in Pagefind's own process: started first (or earlier by the caller, passed as
    `search`), collected last, so the other features run meanwhile. cache: reuse the previous build's bundle
    when nothing changed (None: on unless $DOCSGEN_CACHE is off). collect=False leaves collecting the index
    to the caller (the build collects it while the other files are being written).
    """
    if search is None:
        search = start_search_index(ctx, site, cache=cache)
    try:
        add_redirects(ctx, site, files)
        add_customization(ctx, site, files)
        add_branding_files(ctx, site, files)
        add_seo_files(ctx, site, files)
        add_agent_files(ctx, site, files)
        add_changelog_feeds(ctx, site, files)
    except BaseException:
        search.cancel()
        raise
    if collect:
        search.add_to(files)
