"""Site-wide outputs beyond the pages: the files a published docs site is expected to have."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docsgen.config import SiteConfig
from docsgen.render import SiteContext, relative_url
from docsgen.theme import environment
from docsgen.write import SiteFiles

if TYPE_CHECKING:
    from docsgen.build import Site


def add_site_features(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Add redirects, search, SEO and agent files to the site; each feature is one call here, in its own module."""
    add_redirect_pages(ctx, site, files)


def redirect_sources(config: SiteConfig) -> dict[str, str]:
    """Return {source key: destination} for docs.json redirects without wildcards (static redirect pages)."""
    out = {}
    for r in config.redirects:
        source, destination = r.get("source"), r.get("destination")
        if isinstance(source, str) and isinstance(destination, str) and not any(c in source for c in "*:"):
            out[source.strip("/")] = destination
    return dict(sorted(out.items()))


def add_redirect_pages(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write an HTML redirect page at each exact redirect source that no page occupies."""
    template = environment(ctx.theme.name).get_template("redirect.html")
    for source, destination in redirect_sources(ctx.config).items():
        output = source + "/index.html"
        if source in site.pages or files.has(output):
            continue
        target = (
            destination
            if "://" in destination
            else relative_url(output, ctx.helpers["page_link"](destination))
        )
        files.add(output, template.render(target=target), f"redirect {source}")
