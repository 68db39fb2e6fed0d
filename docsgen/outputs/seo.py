"""Files for search engines: sitemap.xml (split past 50,000 URLs) and robots.txt."""

from __future__ import annotations

import os
from html import escape as html_escape

from docsgen.common.errors import info, warning
from docsgen.config import SiteConfig
from docsgen.engine.write import SiteFiles
from docsgen.pages.page import Page
from docsgen.render import SiteContext
from docsgen.site.policies import SITE_URL_ENV, absolute_url, site_url
from docsgen.site.read import Site

SITEMAP_LIMIT = 50_000  # URLs per sitemap file (sitemaps.org)


def sitemap_pages(site: Site) -> list[Page]:
    """Return the pages the sitemap lists, in navigation order then by key."""
    order = {key: i for i, key in enumerate(site.nav.order)}
    chosen = [p for p in site.pages_to_render() if site.policy(p).indexed]
    return sorted(chosen, key=lambda p: (order.get(p.key, len(order)), p.key))


def sitemap_xml(base: str, pages: list[Page], config: SiteConfig) -> str:
    """Return a sitemap.xml document listing the pages' absolute URLs."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for page in pages:
        lines.append(f"  <url><loc>{html_escape(absolute_url(base, page, config), quote=False)}</loc></url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def sitemap_index_xml(base: str, names: list[str]) -> str:
    """Return a sitemap index pointing at several sitemap files."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    lines += [
        f"  <sitemap><loc>{html_escape(f'{base}/{name}', quote=False)}</loc></sitemap>" for name in names
    ]
    lines.append("</sitemapindex>")
    return "\n".join(lines) + "\n"


def robots_txt(base: str | None) -> str:
    """Return robots.txt: everything allowed, Content-Signal opt-ins, and the sitemap when the URL is known."""
    lines = ["User-agent: *", "Content-Signal: ai-train=yes, search=yes, ai-input=yes", "Allow: /"]
    if base:
        lines += ["", f"Sitemap: {base}/sitemap.xml"]
    return "\n".join(lines) + "\n"


def add_seo_files(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write sitemap.xml and robots.txt (files of the same name in the docs folder win)."""
    raw = getattr(site, "site_url", None) or os.environ.get(SITE_URL_ENV)
    base = site_url(site)
    if raw and base is None:
        files.diagnostics.append(
            warning(
                "seo.site-url",
                f"site URL '{raw}' is not an absolute http(s) URL: no sitemap.xml written",
                hint="pass --site-url https://docs.example.com (or set DOCSGEN_SITE_URL)",
            )
        )
    files.add("robots.txt", robots_txt(base), "seo", on_clash="yield")  # the docs folder's own wins
    if files.has("sitemap.xml"):  # the docs folder's own sitemap is published instead
        return
    if base is None:
        if not raw:
            files.diagnostics.append(
                info(
                    "seo.no-site-url",
                    "no sitemap.xml and no canonical links: the public site URL is unknown",
                    hint="pass --site-url https://docs.example.com or set DOCSGEN_SITE_URL",
                )
            )
        return
    pages = sitemap_pages(site)
    if len(pages) <= SITEMAP_LIMIT:
        files.add("sitemap.xml", sitemap_xml(base, pages, site.config), "seo")
        return
    names = []
    for n, start in enumerate(range(0, len(pages), SITEMAP_LIMIT), 1):
        name = f"sitemap-{n}.xml"
        files.add(name, sitemap_xml(base, pages[start : start + SITEMAP_LIMIT], site.config), "seo")
        names.append(name)
    files.add("sitemap.xml", sitemap_index_xml(base, names), "seo")
