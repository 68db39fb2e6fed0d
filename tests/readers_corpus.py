"""A sample of each real corpus site, built as `docsgen build` builds it, for the readers' browser suite.

A full build of the 13 corpus sites takes minutes of CPU; the browser walks four pages of each. So each site is read
whole (config, pages, OpenAPI, navigation: every sidebar is complete) and only the sampled pages are rendered, with
the same stages `docsgen build` runs (theme assets, sidebars, page HTML, vendored bundles, static files), page
cache off, into a temporary folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from docsgen.build import (
    add_sidebars,
    add_static_files,
    add_theme_assets,
    add_vendor_assets,
    read_site,
    render_one,
    site_context,
)
from docsgen.pages import Page
from docsgen.write import SiteFiles, write_site
from tests.conftest import SHARED

CORPUS_SITES = [SHARED / "corpus" / "mintlify-docs"] + (
    sorted(p for p in (SHARED / "corpus" / "real-sites").iterdir() if p.is_dir())
    if (SHARED / "corpus" / "real-sites").is_dir()
    else []
)
_TAG = re.compile(r"<([A-Z][A-Za-z]+)")
_CHANGELOG = re.compile(r"<Update\b")


def _content_page(pages: list[Page]) -> Page | None:
    """Return the written page (of the first 40 in reading order) that uses the most kinds of components."""
    written = [p for p in pages[:40] if p.source and p.source.endswith((".mdx", ".md")) and not p.generate]
    if not written:
        return None
    return max(written, key=lambda p: (len(set(_TAG.findall(p.body))), -pages.index(p)))


def sample_pages(site) -> dict[str, Page]:
    """Return {kind: page} for home, a component-rich content page, an API page and a changelog when there are."""
    ordered = [site.pages[k] for k in site.nav.order if k in site.pages]
    home = site.pages.get("index") or (ordered[0] if ordered else None)
    sample: dict[str, Page] = {"home": home} if home else {}
    rest = [p for p in ordered if p is not home]
    content = _content_page(rest)
    if content:
        sample["content"] = content
    api = next((p for p in ordered if p.kind == "endpoint" or p.meta.get("openapi")), None)
    if api:
        sample["api"] = api
    changelog = next((p for p in ordered if p.source and _CHANGELOG.search(p.body)), None)
    if changelog:
        sample["changelog"] = changelog
    return sample


def build_sample(docs_dir: Path, out_dir: Path) -> dict[str, str]:
    """Build docs_dir's sampled pages into out_dir; return {kind: site-relative URL}."""
    site = read_site(docs_dir, out_dir)
    ctx = site_context(site)
    files = SiteFiles()
    add_theme_assets(ctx, files)
    add_sidebars(ctx, site, files)
    sample = sample_pages(site)
    for page in {p.key: p for p in sample.values()}.values():
        files.add(page.output, render_one(ctx, site, page), page.source or page.key)
    add_vendor_assets(ctx, list(sample.values()), files)
    add_static_files(site, files)
    write_site(files, out_dir)
    return {kind: page.url for kind, page in sample.items()}
