"""Generated API page paths are Mintlify's: every link and redirect the real sites write to their API pages lands.

The real sites (../shared/corpus/real-sites) link to pages Mintlify generated from their specs, by path: for each
spec a site generates pages from (navigation `openapi` with a `directory`), every link in its MDX and every
redirect destination under that directory must be a page we generate, or one of the site's own MDX pages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from docsgen.openapi.pages import ApiPages
from docsgen.openapi.store import SpecStore
from tests.conftest import REAL_SITES, SHARED

pytestmark = pytest.mark.shared
REAL = REAL_SITES
_LINK = re.compile(r"""\]\((/[^)\s#?]+)|href=["'](/[^"'#?]+)""")

# (site, spec, directory), as the sites' docs.json declare them
GENERATED = [
    ("upstash__docs", "qstash/openapi.yaml", "qstash/api-reference"),
    ("upstash__docs", "workflow/openapi.yaml", "workflow/api-reference"),
    ("spree__spree", "api-reference/store.yaml", "api-reference/store-api"),
    ("spree__spree", "api-reference/admin.yaml", "api-reference/admin-api"),
    ("spree__spree", "api-reference/storefront.yaml", "api-reference/storefront"),
    ("spree__spree", "api-reference/platform.yaml", "api-reference/platform"),
]


def generated_paths(site: Path, source: str, directory: str) -> set[str]:
    """Return the page paths ApiPages generates for one spec and directory (as a navigation `openapi` does)."""
    api = ApiPages(site, None, {}, SpecStore(site, use_cache=False))  # type: ignore[arg-type]
    spec = api.load_spec(source, ("docs.json", 0, 0, ""))
    assert spec is not None, api.diagnostics
    return {page.key for page in api._all_pages(spec, directory, {})}


def site_links(site: Path, prefix: str) -> set[str]:
    """Return every link target under /prefix/ in the site's MDX, and every redirect destination there."""
    found: set[str] = set()
    for mdx in site.rglob("*.mdx"):
        for match in _LINK.finditer(mdx.read_text(encoding="utf-8", errors="replace")):
            target = (match.group(1) or match.group(2)).strip("/")
            if target.startswith(prefix + "/"):
                found.add(target)
    for redirect in json.loads((site / "docs.json").read_text(encoding="utf-8")).get("redirects", []):
        target = str(redirect.get("destination", "")).strip("/")
        if target.startswith(prefix + "/") and ":" not in target:
            found.add(target)
    return found


@pytest.mark.parametrize(("name", "source", "directory"), GENERATED)
def test_links_and_redirects_to_generated_pages_land(name, source, directory):
    site = REAL / name
    if not site.is_dir():
        pytest.fail(f"corpus not found at {site}")
    pages = generated_paths(site, source, directory)
    own = {p.relative_to(site).with_suffix("").as_posix() for p in site.rglob("*.mdx")}
    links = site_links(site, directory)
    assert links, "the site links to its generated pages (else this test checks nothing)"
    # Links to a tag folder itself (spree's "/api-reference/storefront/cart") name no page in Mintlify either.
    folders = {page.rsplit("/", 1)[0] for page in pages}
    missing = sorted(link for link in links if link not in pages | own | folders)
    assert missing == []
    assert len(links - folders) >= 1


def test_spree_storefront_paths_with_slashes_and_parentheses():
    """Tags with slashes, summaries with parentheses and commas (the real spec), as the site links to them."""
    site = REAL / "spree__spree"
    if not site.is_dir():
        pytest.fail(f"corpus not found at {site}")
    pages = generated_paths(site, "api-reference/storefront.yaml", "api-reference/storefront")
    assert "api-reference/storefront/checkout-shipments/selects-shipping-method-for-shipments" in pages
    assert (
        "api-reference/storefront/stripe/"
        "mark-the-payment-intent-as-confirmed-and-move-the-order-to-the-complete-state" in pages
    )


def test_every_real_spec_loads_without_a_nesting_alarm():
    """The nesting limit checked before parsing never refuses a real spec (all of the corpus's OpenAPI files)."""
    from docsgen.openapi.discover import SpecFinder

    corpus = SHARED / "corpus"
    if not corpus.is_dir():
        pytest.fail(f"corpus not found at {corpus}")
    checked = 0
    for site in [corpus / "mintlify-docs", *sorted(REAL.iterdir())]:
        if not site.is_dir():
            continue
        store = SpecStore(site, use_cache=False)
        for source in SpecFinder(site).openapi_files():
            _, found = store.load(source)
            assert [d for d in found if d.code in ("openapi.too-deep", "openapi.syntax")] == [], source
            checked += 1
    assert checked >= 20
