"""A sample of each real corpus site, built as `docsgen build` builds it, for the readers' browser suite.

A full build of the 13 corpus sites takes minutes of CPU; the browser walks four pages of each. So each site is read
whole (config, pages, OpenAPI, navigation: every sidebar is complete) and only the sampled pages are rendered, with
the same stages `docsgen build` runs (theme assets, sidebars, page HTML, vendored bundles, static files), page
cache off, into a temporary folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from docsgen.engine.write import Claimed, SiteFiles, write_site
from docsgen.outputs import add_before_pages, add_vendor_assets, fill_pages
from docsgen.pages.page import Page
from docsgen.render import render_page, site_context
from docsgen.site.read import read_site
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
    sample = sample_pages(site)
    pages = list({p.key: p for p in sample.values()}.values())
    add_before_pages(ctx, site, pages, files)  # theme assets, sidebars, the docs folder's files, page claims
    rendered = [render_page(ctx, page) for page in pages]
    for page, one in zip(pages, rendered, strict=True):
        page.content = one.content
    fill_pages(files, pages, rendered)
    add_vendor_assets(ctx, [one.content for one in rendered], files)
    files.files = {k: v for k, v in files.files.items() if not isinstance(v, Claimed)}
    write_site(files, out_dir)
    return {kind: page.url for kind, page in sample.items()}
