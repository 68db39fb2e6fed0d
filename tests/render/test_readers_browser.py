"""What readers see, in a real browser: every page type at 390 px and 1280 px, light and dark.

For each page: no sideways scrolling, no page errors, the site's accent colour in each mode (and `.dark` site CSS
applied), outline icons unfilled, zero serious or critical axe-core violations. Screenshots of every page type
are written under ARTIFACTS (printed once) so a reviewer can look instead of reading.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from docsgen.build import build
from tests.conftest import FIXTURES, write_tree
from tests.readers_checks import page_problems
from tests.readers_sites import API_PAGE_FILES, ARTIFACTS, SEARCH_FILES, axe_source, serve, write_hostile

WIDTHS = (390, 1280)
MODES = ("light", "dark")

# (site, path, page type); `#search=...` opens the search dialog and types the query.
PAGES = [
    ("example", "", "home"),
    ("example", "quickstart/", "content-steps-code"),
    ("example", "guides/changelog/", "changelog"),
    ("example", "404.html", "404"),
    ("example", "#search=bucket", "search-results"),
    ("components", "callouts/", "callouts"),
    ("components", "cards/", "cards"),
    ("components", "tabs/", "tabs"),
    ("components", "code/", "code"),
    ("components", "steps/", "steps"),
    ("components", "accordions/", "accordions"),
    ("components", "api-fields/", "api-fields"),
    ("components", "content/", "content"),
    ("components", "math-and-diagrams/", "math-diagrams"),
    ("components", "changelog/", "changelog-component"),
    ("api-site", "api-reference/pets/list-pets/", "endpoint"),
    ("api-site", "api-reference/pets/create-a-pet/", "endpoint-body"),
    ("api-site", "api-reference/pet-adopted/", "webhook"),
    ("api-site", "api/pet-model/", "schema"),
    ("hostile", "", "switchers-cta-home"),
    ("hostile", "api-reference/list-deployment-artifacts/", "endpoint-long-path"),
    ("hostile", "wide/", "update-columns-mermaid"),
]
# The accent (--dg-primary) each site's docs.json asks for in light and dark mode.
ACCENTS = {
    "example": ("#4F46E5", "#818CF8"),
    "components": ("#0D9373", "#07C983"),
    "api-site": ("#0E7490", "#0E7490"),
    "hostile": ("#0052FF", "#F472B6"),
}


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    root = tmp_path_factory.mktemp("readers")
    sources = {name: FIXTURES / name for name in ("example", "components", "api-site")}
    sources["hostile"] = write_hostile(root / "hostile-src")
    sources["search"] = write_tree(root / "search-src", SEARCH_FILES)
    servers, urls = [], {}
    for name, source in sources.items():
        build(source, root / name)
        server, url = serve(root / name)
        servers.append(server)
        urls[name] = url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    print(f"\nreaders: screenshots in {ARTIFACTS}")
    yield urls
    for server in servers:
        server.shutdown()


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_source()


@pytest.mark.parametrize(("site", "path", "kind"), PAGES, ids=[f"{s}:{k}" for s, _, k in PAGES])
def test_page_reads_well_on_phone_and_desktop_in_light_and_dark(
    browser: Browser, sites, axe, site, path, kind
):
    problems: list[str] = []
    for width in WIDTHS:
        for mode in MODES:
            context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=mode)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            url, _, query = (sites[site] + path).partition("#search=")
            page.goto(url)
            page.wait_for_load_state("networkidle")
            if query:
                page.locator(".dg-search-button").click()
                page.locator(".dg-search-input").fill(query)
                page.locator(".dg-search-results li").first.wait_for(timeout=10000)
            where = f"{kind} {width}px {mode}"
            wanted = ACCENTS[site][0 if mode == "light" else 1]
            problems += page_problems(page, where, mode, wanted, axe, errors)
            page.screenshot(path=str(ARTIFACTS / f"{site}-{kind}-{width}-{mode}.png"), full_page=width == 390)
            context.close()
    assert not problems, "\n".join(problems)


def test_site_css_written_for_mintlify_dark_class_applies(browser: Browser, sites):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(sites["hostile"])
    color = page.evaluate("getComputedStyle(document.querySelector('.dg-hostile-probe')).color")
    assert color == "rgb(250, 250, 200)"
    page.locator(".dg-theme-toggle").click()
    assert page.evaluate("document.documentElement.className").split().count("dark") == 0
    assert (
        page.evaluate("getComputedStyle(document.querySelector('.dg-hostile-probe')).color")
        != "rgb(250, 250, 200)"
    )
    context.close()


def test_search_excerpts_come_from_prose_not_from_mdx_code_samples(browser: Browser, sites):
    page = browser.new_page()
    page.goto(sites["search"])
    page.locator(".dg-search-button").click()
    page.locator(".dg-search-input").fill("accordion")
    option = page.locator("#dg-search-results [role=option]").first
    option.wait_for()
    excerpt = option.locator(".dg-search-excerpt").inner_text()
    assert "Use an accordion to fold" in excerpt
    assert "<Accordion" not in excerpt and "</" not in excerpt
    page.close()


def test_content_images_zoom_on_click_and_close(browser: Browser, sites):
    page = browser.new_page()
    page.goto(sites["hostile"])
    image = page.locator(".dg-prose img[alt='Architecture diagram']")
    image.click()
    zoom = page.locator("dialog.dg-zoom[open] img")
    zoom.wait_for()
    assert zoom.get_attribute("alt") == "Architecture diagram"
    zoom.click()
    page.locator("dialog.dg-zoom").wait_for(state="detached")
    page.close()


def test_api_page_bar_sits_under_the_title_level_with_the_examples(browser: Browser, tmp_path):
    build(write_tree(tmp_path / "src", API_PAGE_FILES), tmp_path / "out")
    server, url = serve(tmp_path / "out")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(url + "list/")
        page.wait_for_load_state("networkidle")
        box = page.evaluate(
            """() => Object.fromEntries(Object.entries({header: ".dg-page-header", bar: ".dg-api-endpoint",
              aside: ".dg-api-aside", content: ".dg-api-page-content"}).map(([k, s]) => [k,
              document.querySelector(s).getBoundingClientRect().toJSON()]))"""
        )
        page.screenshot(path=str(ARTIFACTS / "api-mdx-page-1280-light.png"))
    finally:
        page.close()
        server.shutdown()
    assert box["bar"]["top"] - box["header"]["bottom"] <= 28  # the bar right under the title
    assert abs(box["bar"]["top"] - box["aside"]["top"]) <= 2  # level with the examples
    assert box["content"]["top"] > box["bar"]["bottom"]  # the page's own MDX under the bar


def test_live_code_samples_of_the_playground_stay_highlighted(browser: Browser, tmp_path):
    build(write_tree(tmp_path / "src", API_PAGE_FILES), tmp_path / "out")
    server, url = serve(tmp_path / "out")
    page = browser.new_page()
    try:
        page.goto(url + "list/")
        page.wait_for_load_state("networkidle")
        page.get_by_role(
            "button", name="Try it"
        ).click()  # the playground (and its live samples) loads when opened
        page.keyboard.press("Escape")
        curl = page.locator('.dg-api-panel[data-key="bash"]')
        curl.locator("xpath=self::*[@data-live='true']").wait_for(state="attached")
        strings = curl.locator("code span.s1").all_inner_texts()
        text = curl.locator("code").inner_text()
        colour = page.evaluate(
            "(e => e && getComputedStyle(e).color)(document.querySelector('.dg-api-panel[data-key=bash] code .s1'))"
        )
        body = page.evaluate("getComputedStyle(document.querySelector('.dg-api-panel code')).color")
    finally:
        page.close()
        server.shutdown()
    assert text.startswith("curl") and any(s.startswith("'https://") for s in strings), (text, strings)
    assert colour != body  # the string is coloured, not plain text
