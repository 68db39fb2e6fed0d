"""Search and the contextual menu in a real browser, over the built site served on 127.0.0.1."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from docsgen.build import build
from tests.conftest import FIXTURES


class Quiet(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".md": "text/markdown; charset=utf-8"}

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("search-browser") / "out"
    build(FIXTURES / "site-features", out)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", out
    server.shutdown()
    server.server_close()


def results(page) -> list[str]:
    page.wait_for_selector("#dg-search-results [role=option]")
    return page.locator("#dg-search-results .dg-search-title").all_inner_texts()


def test_ctrl_k_query_enter_opens_the_expected_page(page, site):
    base, _ = site
    page.goto(f"{base}/v2/setup/")
    page.keyboard.press("Control+k")
    dialog = page.locator("#dg-search")
    assert dialog.is_visible()
    page.keyboard.type("zebrafish")
    assert results(page)[0].startswith("Quickstart")
    excerpt = page.locator("#dg-search-results .dg-search-excerpt").first
    assert excerpt.locator("mark").first.inner_text().lower() == "zebrafish"
    # Hidden, noindex, unlisted and searchable:false pages never come back.
    assert not [t for t in results(page) if t.startswith(("Secret", "Hidden", "Noindex", "Orphan", "Old"))]
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/quickstart/**")
    assert page.locator("h1.dg-title").inner_text() == "Quickstart"


def test_slash_opens_search_and_arrows_move_the_selection(page, site):
    base, _ = site
    page.goto(f"{base}/")
    page.keyboard.press("/")
    page.locator(".dg-search-input").fill("widget")
    assert len(results(page)) >= 2
    options = page.locator("#dg-search-results [role=option]")
    assert options.nth(0).get_attribute("aria-selected") == "true"
    page.keyboard.press("ArrowDown")
    assert options.nth(1).get_attribute("aria-selected") == "true"
    assert page.locator(".dg-search-input").get_attribute("aria-activedescendant") == options.nth(
        1
    ).get_attribute("id")
    page.keyboard.press("Escape")
    assert not page.locator("#dg-search").is_visible()


def test_search_is_scoped_to_the_current_version(page, site):
    base, _ = site
    page.goto(f"{base}/v1/setup/")
    page.locator(".dg-search-button").click()
    page.locator(".dg-search-input").fill("frobnicate")
    assert results(page) == ["Setup (v1)"]
    page.locator(".dg-search-all").check()
    page.wait_for_function("document.querySelectorAll('#dg-search-results [role=option]').length === 2")
    assert sorted(results(page)) == ["Setup (v1)", "Setup (v2)"]
    # each version has its own bundle: "search all" merged v2's into the page's; unchecked, the scope holds
    assert page.locator("#dg-search").get_attribute("data-index").startswith("pagefind/v1-")
    page.locator(".dg-search-all").uncheck()
    page.wait_for_function("document.querySelectorAll('#dg-search-results [role=option]').length === 1")
    assert results(page) == ["Setup (v1)"]


def test_boosted_group_ranks_first(page, site):
    base, _ = site
    page.goto(f"{base}/")
    page.keyboard.press("Control+k")
    page.keyboard.type("widgets")
    assert results(page)[0].startswith("Widgets")


def test_contextual_copy_puts_the_markdown_twin_on_the_clipboard(page, site):
    base, out = site
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page.goto(f"{base}/quickstart/")
    menu = page.locator(".dg-contextual")
    assert menu.locator(".dg-contextual-main").inner_text() == "Copy page"
    menu.locator(".dg-contextual-main").click()
    page.wait_for_selector(".dg-contextual-main[data-copied=true]")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == (out / "quickstart.md").read_text(encoding="utf-8")
    menu.locator("summary").click()
    items = menu.locator("details li").all_inner_texts()
    assert [i.splitlines()[0] for i in items] == [
        "Copy page",
        "View as Markdown",
        "Open in ChatGPT",
        "Open in Claude",
        "Open in Perplexity",
        "Copy MCP server URL",  # `mcp`: the site's MCP server (docsgen mcp), no longer dropped
    ]
    view = menu.locator("details [data-action=view]")
    assert view.get_attribute("href") == "../quickstart.md"
    claude = menu.locator("details [data-action=ai]").nth(1).get_attribute("href")
    assert claude.startswith("https://claude.ai/new?q=") and "quickstart" in claude
