"""The 404 page recommends pages for the address that was not found (Mintlify's not-found-recommended-pages-list
and not-found-recommended-page-link), from the site's own search index, on a static host serving 404.html."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from docsgen.build import build
from tests.conftest import write_tree
from tests.outputs.test_redirects_browser import serve


def test_a_mistyped_address_gets_the_pages_it_names(page: Page, tmp_path):
    config = {
        "name": "Recs",
        "theme": "mint",
        "colors": {"primary": "#1D4ED8"},
        "navigation": {"pages": ["index", "webhooks", "billing"]},
        "errors": {"404": {"redirect": False}},
    }
    files = {
        "docs.json": json.dumps(config),
        "index.mdx": "---\ntitle: Home\n---\n\nWelcome.\n",
        "webhooks.mdx": "---\ntitle: Webhooks\n---\n\nWebhooks deliver signed events to your endpoint.\n",
        "billing.mdx": "---\ntitle: Billing\n---\n\nInvoices and plans.\n",
    }
    build(write_tree(tmp_path / "src", files), tmp_path / "out")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    with serve(tmp_path / "out") as url:
        page.goto(url + "/guides/old/webhooks")
        recs = page.locator(".not-found-recommended-pages-list")
        expect(recs).to_be_visible()
        links = recs.locator("a.not-found-recommended-page-link")
        assert links.first.inner_text() == "Webhooks"
        links.first.click()
        page.wait_for_url("**/webhooks/")
        page.goto(url + "/qqqq-zzzz")  # nothing matches: no list
        page.wait_for_load_state("networkidle")
        assert page.locator(".not-found-recommended-pages-list").is_hidden()
    assert not errors
