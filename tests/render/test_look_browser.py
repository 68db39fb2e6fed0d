"""The page as Mintlify draws it, measured in a browser (computed styles and boxes), one check per difference a
side-by-side comparison with ../shared/reference/mintlify-ui found: reading colours, Markdown links, the changelog's
RSS button and date labels.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from docsgen.build import build
from tests.conftest import write_tree
from tests.readers_sites import serve

PRIMARY = "rgb(22, 101, 52)"  # #166534


@pytest.fixture(scope="module")
def look_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("look")
    config = {
        "theme": "mint",
        "name": "Look",
        "colors": {"primary": "#166534"},
        "navigation": {"groups": [{"group": "Docs", "pages": ["index", "changelog"]}]},
    }
    write_tree(
        root / "src",
        {
            "docs.json": json.dumps(config),
            "index.mdx": "---\ntitle: Home\n---\n\n## Setup\n\nRead [the changelog](/changelog) first, "
            "then **this**.\n\n"
            '<a href="https://example.com" className="border-none">Button</a>\n',
            "changelog.mdx": "---\ntitle: Changelog\nrss: true\n---\n\n"
            '<Update label="May 2026" tags={["API"]}>\n\nOne\n\n</Update>\n',
        },
    )
    build(root / "src", root / "out")
    server, url = serve(root / "out")
    yield url
    server.shutdown()


def _style(page: Page, selector: str, prop: str) -> str:
    return page.evaluate(f"getComputedStyle(document.querySelector({selector!r}))[{prop!r}]")


@pytest.mark.parametrize(("scheme", "text"), [("light", "rgb(55, 65, 81)"), ("dark", "rgb(161, 161, 170)")])
def test_text_is_a_step_softer_than_headings(page: Page, look_site, scheme, text):
    page.emulate_media(color_scheme=scheme)
    page.goto(look_site)
    assert _style(page, ".dg-prose p", "color") == text
    heading = _style(page, ".dg-prose h2", "color")
    assert heading != text and heading == _style(page, ".dg-prose strong", "color") == _style(
        page, "body", "color"
    )


def test_markdown_links_are_bold_with_a_primary_border_not_underlined(page: Page, look_site):
    page.emulate_media(color_scheme="light")
    page.goto(look_site)
    link = ".dg-prose p a.link"
    assert _style(page, link, "textDecorationLine") == "none"
    assert _style(page, link, "fontWeight") == "600"
    assert _style(page, link, "borderBottomWidth") == "1px"
    assert _style(page, link, "borderBottomColor") == PRIMARY
    assert _style(page, link, "color") == _style(page, ".dg-prose h2", "color")
    # a Tailwind class on a page's own link still wins (Mintlify's pages rely on `border-none`)
    assert _style(page, ".dg-prose a.border-none", "borderBottomStyle") == "none"
    assert _style(page, ".dg-prose h2 a.anchor", "borderBottomWidth") == "0px"  # heading anchors stay plain


def test_changelog_rss_button_sits_in_the_title_row_and_labels_are_pills(page: Page, look_site):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(look_site + "changelog/")
    title = page.locator("#page-title").bounding_box()
    rss = page.locator(".dg-rss").bounding_box()
    assert title and rss
    assert rss["width"] < 120, rss  # a button, not a bar as wide as the column
    assert abs(rss["y"] - title["y"]) < 24 and rss["x"] > title["x"] + title["width"]
    label = page.locator(".dg-update-label")
    assert _style(page, ".dg-update-label", "backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")
    assert _style(page, ".dg-update-label", "color") == PRIMARY
    box, meta = label.bounding_box(), page.locator(".dg-update-meta").bounding_box()
    assert box and meta and box["width"] < meta["width"]  # a pill around the date, not a stretched row


INTER_LOADED = """async () => { await document.fonts.ready;
  return [...document.fonts].filter(f => f.family.replace(/"/g, '').startsWith('Inter') && f.status === 'loaded')
    .map(f => f.family.replace(/"/g, '')); }"""


def test_inter_is_bundled_and_loaded_when_the_theme_names_it(page: Page, look_site):
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(look_site)
    assert page.evaluate(INTER_LOADED)  # Inter is what the text is set in, from the site itself
    assert page.evaluate("document.fonts.check('600 16px Inter')")
    fonts = [u for u in fetched if u.endswith(".woff2")]
    assert len(fonts) == 1 and fonts[0].startswith(look_site + "_static/fonts/inter-latin-wght-normal.woff2")
    assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith("Inter")


def test_a_site_with_its_own_font_never_fetches_inter(page: Page, tmp_path):
    config = {
        "name": "Own",
        "theme": "mint",
        "colors": {"primary": "#166534"},
        "fonts": {"family": "system-ui"},
        "navigation": {"pages": ["index"]},
    }
    write_tree(
        tmp_path / "src", {"docs.json": json.dumps(config), "index.mdx": "---\ntitle: Own\n---\n\n**Hi**\n"}
    )
    build(tmp_path / "src", tmp_path / "out")
    assert (tmp_path / "out/_static/fonts/inter.LICENSE.txt").is_file()  # the licence travels with the font
    server, url = serve(tmp_path / "out")
    try:
        fetched: list[str] = []
        page.on("request", lambda r: fetched.append(r.url))
        page.goto(url)
        assert page.evaluate(INTER_LOADED) == []
        assert not [u for u in fetched if u.endswith(".woff2")]
    finally:
        server.shutdown()


def test_luma_sidebar_keeps_logo_and_search_on_top_while_its_links_scroll(page: Page, tmp_path):
    pages = [f"p{i}" for i in range(60)]
    config = {
        "name": "Luma",
        "theme": "luma",
        "colors": {"primary": "#166534"},
        "navigation": {"groups": [{"group": "Docs", "pages": pages}]},
    }
    write_tree(
        tmp_path / "src",
        {
            "docs.json": json.dumps(config),
            **{f"{p}.mdx": f"---\ntitle: Page {p}\n---\n\nText.\n" for p in pages},
        },
    )
    build(tmp_path / "src", tmp_path / "out")
    server, url = serve(tmp_path / "out")
    try:
        page.set_viewport_size({"width": 1280, "height": 700})
        page.goto(url + "p0/")
        page.wait_for_selector("#sidebar-content a[data-key]")
        page.evaluate("document.getElementById('sidebar').scrollTop = 600")
        page.wait_for_timeout(100)
        assert page.evaluate("document.getElementById('sidebar').scrollTop") > 300  # the links did scroll
        search = page.locator(".dg-sidebar-brand .dg-search-button").bounding_box()
        assert search and 0 <= search["y"] < 120, search
        on_top = "([x, y]) => !!document.elementFromPoint(x, y).closest('.dg-sidebar-brand')"
        assert page.evaluate(on_top, [search["x"] + 10, search["y"] + search["height"] / 2])
    finally:
        server.shutdown()


def test_api_panel_copy_button_sits_in_the_tab_bar_not_over_the_code(page: Page, tmp_path):
    from tests.render.test_css_hooks import hook_site

    build(hook_site(tmp_path / "src"), tmp_path / "out")
    api = next(p for p in (tmp_path / "out").rglob("index.html") if "list-pets" in str(p))
    server, url = serve(tmp_path / "out")
    try:
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(url + api.parent.relative_to(tmp_path / "out").as_posix() + "/")
        card = page.locator(".dg-api-card.dg-js:has(> .dg-api-tabbar)").first
        card.locator(".dg-api-copy").first.wait_for()
        bar = card.locator(".dg-api-tabbar").bounding_box()
        copy = card.locator(".dg-api-panel:not([hidden]) .dg-api-copy").bounding_box()
        code = card.locator(".dg-api-panel:not([hidden]) pre").bounding_box()
        assert bar and copy and code
        assert bar["y"] <= copy["y"] and copy["y"] + copy["height"] <= bar["y"] + bar["height"]  # in the bar
        assert copy["y"] + copy["height"] <= code["y"]  # above the code, not over its first line
        assert bar["x"] + bar["width"] <= copy["x"]  # the tabs (scrolling in their bar) end left of it
    finally:
        server.shutdown()


@pytest.mark.parametrize("theme", ["maple", "palm", "sequoia", "mint"])
def test_phone_titles_take_the_phone_size_in_every_theme(page: Page, tmp_path, theme):
    config = {
        "name": "T",
        "theme": theme,
        "colors": {"primary": "#166534"},
        "navigation": {"pages": ["index"]},
    }
    title = "Generate a chat message"
    write_tree(
        tmp_path / "src", {"docs.json": json.dumps(config), "index.mdx": f"---\ntitle: {title}\n---\n\nHi\n"}
    )
    build(tmp_path / "src", tmp_path / "out")
    server, url = serve(tmp_path / "out")
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(url)
        assert _style(page, "#page-title", "fontSize") == "24px"  # Mintlify's text-2xl below 640 px
        page.set_viewport_size({"width": 1280, "height": 800})
        assert _style(page, "#page-title", "fontSize") == "30px"  # and text-3xl above
    finally:
        server.shutdown()
