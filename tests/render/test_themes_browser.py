"""Mintlify's nine themes in a real browser: one site built in each, light and dark, at 1280 and 390 px.

Every view is screenshotted (under the test's tmp path, listed on stdout) and checked for what distinguishes its
theme (computed styles and positions), for sideways scroll, page errors and serious or critical axe violations.
"""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest
from playwright.sync_api import Browser, Page

from docsgen.build import build
from tests.conftest import FIXTURES
from tests.readers_checks import page_problems
from tests.readers_sites import axe_source, serve

THEMES = ("mint", "maple", "palm", "willow", "linden", "almond", "aspen", "sequoia", "luma")
SIDEBAR_TOP = {"almond", "luma"}  # logo, theme toggle and search on top of the sidebar
BREADCRUMBS = {"maple", "palm", "almond", "sequoia", "luma"}  # the theme's default eyebrow
ACCENT = {"light": "#4F46E5", "dark": "#818CF8"}  # fixtures/example's colors.primary and colors.light
PAGE = "guides/buckets/"

LOOK = """() => {
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    const s = getComputedStyle(el); return {x: r.x, y: r.y, w: r.width, h: r.height,
    visible: s.display !== "none" && s.visibility !== "hidden" && r.width > 0 && r.height > 0}; };
  const style = (sel, prop) => { const el = document.querySelector(sel); return el ? getComputedStyle(el)[prop] : null; };
  const brand = document.querySelector(".dg-sidebar-brand");
  return {
    h1Font: style("#page-title", "fontFamily"), h2Font: style(".dg-prose h2", "fontFamily"),
    bodyFont: style("body", "fontFamily"), sidebarFont: style(".dg-sidebar-nav a", "fontFamily"),
    headerLogo: box(document.querySelector(".dg-header-row > .dg-logo")),
    headerSearch: box(document.querySelector(".dg-header-row > .dg-search-button")),
    brand: box(brand), brandLogo: box(brand && brand.querySelector(".dg-logo")),
    brandSearch: box(brand && brand.querySelector(".dg-search-button")),
    brandToggle: box(brand && brand.querySelector(".dg-theme-toggle")),
    sidebar: box(document.getElementById("sidebar")), main: box(document.getElementById("content-area")),
    mainRadius: style("#content-area", "borderTopLeftRadius"), mainBg: style("#content-area", "backgroundColor"),
    bodyBg: style("body", "backgroundColor"), mainBorder: style("#content-area", "borderTopWidth"),
    breadcrumbs: !!document.querySelector(".dg-breadcrumbs"),
    groupBorder: style(".dg-nav-root > .dg-nav-group", "borderTopWidth"),
    headerBorder: style("#navbar", "borderBottomColor"), tabsBg: style(".dg-tabs", "backgroundColor"),
    bodySize: style("body", "fontSize"), radius: style(".dg-search-button", "borderTopLeftRadius"),
    sidebarBg: style("#sidebar", "backgroundColor"), width: innerWidth,
  };
}"""


@pytest.fixture(scope="module")
def theme_sites(tmp_path_factory):
    root = tmp_path_factory.mktemp("themes")
    servers, urls = [], {}
    for theme in THEMES:
        source = root / f"src-{theme}"
        shutil.copytree(FIXTURES / "example", source)
        config = json.loads((source / "docs.json").read_text(encoding="utf-8"))
        (source / "docs.json").write_text(json.dumps({**config, "theme": theme}), encoding="utf-8")
        build(source, root / theme)
        server, url = serve(root / theme)
        servers.append(server)
        urls[theme] = url
    shots = root / "screenshots"
    shots.mkdir()
    print(f"\nthemes: screenshots in {shots}")
    yield urls, shots
    for server in servers:
        server.shutdown()


def _sans(font: str) -> bool:
    return "Inter" in font and "serif" in font and "Georgia" not in font and "mono" not in font.lower()


def _distinct_look(theme: str, look: dict) -> list[str]:
    """Return how a desktop view misses what Mintlify's theme shows."""
    problems = []
    heading_font = look["h1Font"] or ""
    if theme == "linden":
        if "monospace" not in heading_font or "monospace" not in look["bodyFont"]:
            problems.append(f"linden type is not monospace: {heading_font!r} / {look['bodyFont']!r}")
    elif not (_sans(heading_font) and _sans(look["h2Font"] or "") and _sans(look["sidebarFont"] or "")):
        problems.append(f"headings/UI not sans (Inter): {heading_font!r}, {look['h2Font']!r}")
    if theme in SIDEBAR_TOP:
        if not (look["brandLogo"] and look["brandLogo"]["visible"] and look["brandSearch"]["visible"]):
            problems.append("logo and search are not on top of the sidebar")
        elif not (
            look["brandLogo"]["y"] < 60 and look["brandSearch"]["y"] < 120 and look["sidebar"]["y"] <= 1
        ):
            problems.append(f"sidebar top is not the page top: {look['sidebar']}, {look['brandLogo']}")
        if look["headerLogo"]["visible"] or look["headerSearch"]["visible"]:
            problems.append("the top bar still shows the logo or the search")
        if not look["brandToggle"]["visible"]:
            problems.append("no theme toggle on top of the sidebar")
    else:
        if not (look["headerLogo"]["visible"] and look["headerSearch"]["visible"]):
            problems.append("the top bar lacks the logo or the search")
        if look["brand"] and look["brand"]["visible"]:
            problems.append("a logo block shows on top of the sidebar")
    if look["breadcrumbs"] != (theme in BREADCRUMBS):
        problems.append(f"breadcrumbs {look['breadcrumbs']}, expected {theme in BREADCRUMBS}")
    if theme == "almond":
        radius = float(look["mainRadius"].rstrip("px") or 0)
        if radius < 12 or look["mainBg"] == look["bodyBg"] or look["mainBorder"] in ("0px", None):
            problems.append(
                f"almond page is not a card: {look['mainRadius']} {look['mainBg']} on {look['bodyBg']}"
            )
    elif look["mainBorder"] not in ("0px", None):
        problems.append("the page is drawn as a card")
    if theme in ("mint", "sequoia"):
        search = look["headerSearch"]
        if abs(search["x"] + search["w"] / 2 - look["width"] / 2) > 24:
            problems.append(f"search not centred in the top bar: {search}")
    if theme == "aspen" and look["groupBorder"] in ("0px", None):
        problems.append("aspen sidebar groups are not bordered sections")
    if theme == "willow" and look["headerBorder"] not in ("rgba(0, 0, 0, 0)", "transparent"):
        problems.append(f"willow top bar has a border: {look['headerBorder']}")
    if theme == "palm" and look["tabsBg"] in ("rgba(0, 0, 0, 0)", None):
        problems.append("palm tab strip is not tinted")
    if theme == "sequoia" and look["bodySize"] != "17px":
        problems.append(f"sequoia body text {look['bodySize']}")
    if theme == "linden" and look["radius"] != "0px":
        problems.append(f"linden corners are rounded: {look['radius']}")
    if theme in ("maple", "palm") and look["sidebarBg"] == look["bodyBg"]:
        problems.append("sidebar is not tinted")
    return problems


def _view(browser: Browser, url: str, width: int, mode: str) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 860}, color_scheme=mode)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.evaluate("document.getElementById('banner')?.remove()")  # the same strip in every theme
    return page, errors


@pytest.mark.parametrize("theme", THEMES)
def test_theme_looks_like_mintlifys_and_reads_well(browser: Browser, theme_sites, theme):
    urls, shots = theme_sites
    problems: list[str] = []
    for width in (1280, 390):
        for mode in ("light", "dark"):
            page, errors = _view(browser, urls[theme] + PAGE, width, mode)
            where = f"{theme} {width}px {mode}"
            if width == 1280:
                problems += [f"{where}: {p}" for p in _distinct_look(theme, page.evaluate(LOOK))]
            else:
                look = page.evaluate(LOOK)
                if not (look["headerLogo"]["visible"] and look["headerSearch"]["visible"]):
                    problems.append(f"{where}: phone top bar lacks the logo or the search")
            page.screenshot(path=str(shots / f"{theme}-{width}-{mode}.png"))
            problems += page_problems(page, where, mode, ACCENT[mode], axe_source(), errors)
            page.context.close()
    assert not problems, "\n".join(problems)


def test_every_theme_renders_distinctly(browser: Browser, theme_sites):
    urls, shots = theme_sites
    digests: dict[str, list[str]] = {}
    for theme in THEMES:
        page, _ = _view(browser, urls[theme] + PAGE, 1280, "light")
        path = shots / f"distinct-{theme}.png"
        page.screenshot(path=str(path))
        page.context.close()
        digests.setdefault(hashlib.sha256(path.read_bytes()).hexdigest(), []).append(theme)
    assert all(len(themes) == 1 for themes in digests.values()), list(digests.values())


SIZES = """() => {
  const style = (sel) => { const el = document.querySelector(sel); return el ? getComputedStyle(el) : null; };
  const height = (sel) => { const el = document.querySelector(sel); return el ? el.getBoundingClientRect().height : null; };
  const icon = document.querySelector(".dg-toc-title svg");
  return {
    title: style("#page-title").fontSize, titleLine: style("#page-title").lineHeight,
    header: height(".dg-header-row"), tabs: height(".dg-tabs"), sidebar: document.getElementById("sidebar").getBoundingClientRect().width,
    link: style(".dg-sidebar-nav a").fontSize, linkHeight: height(".dg-sidebar-nav li > a"),
    toc: style(".dg-toc a").fontSize, tocRow: height(".dg-toc a"), tocTitle: style(".dg-toc-title").fontSize,
    tocIcon: icon ? [icon.getBoundingClientRect().width, getComputedStyle(icon).display !== "none"] : null,
  };
}"""


@pytest.mark.parametrize("theme", THEMES)
def test_sizes_are_mintlifys(browser: Browser, theme_sites, theme):
    """Measured on ../shared/reference/mintlify-ui (quickstart-mintlify-dev-light.png at 2x: a 64 px top bar over a
    48 px tab row, 36 px sidebar rows, 32 px table-of-contents rows; Mintlify's page title is text-2xl sm:text-3xl)
    and the same in every theme: a 30 px title (24 px on a phone), a 288 px sidebar, 14 px sidebar and TOC text."""
    urls, _ = theme_sites
    page, _ = _view(browser, urls[theme] + PAGE, 1280, "light")
    page.evaluate("document.querySelector('.dg-header-row').style.display = 'flex'")  # hidden in luma/almond
    sizes = page.evaluate(SIZES)
    page.context.close()
    expected = {
        "title": "30px",
        "titleLine": "36px",
        "header": 64,
        "tabs": 48,
        "sidebar": 288,
        "link": "14px",
    }
    expected |= {"linkHeight": 36, "toc": "14px", "tocRow": 32, "tocTitle": "14px", "tocIcon": [14, True]}
    assert sizes == expected
    page, _ = _view(browser, urls[theme] + PAGE, 390, "light")
    assert page.evaluate("getComputedStyle(document.getElementById('page-title')).fontSize") == "24px"
    page.context.close()


FOOT = """() => {
  const list = document.querySelector("#sidebar .dg-phone-links"), sidebar = document.getElementById("sidebar");
  const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const links = list ? [...list.querySelectorAll("a")] : [];
  return {
    shown: shown(list), bottom: list && Math.round(list.getBoundingClientRect().bottom), height: innerHeight,
    sidebarBottom: Math.round(sidebar.getBoundingClientRect().bottom),
    rule: list && getComputedStyle(list).borderTopWidth,
    links: links.filter(shown).map((a) => a.textContent.trim()),
    arrows: links.map((a) => getComputedStyle(a, "::after").maskImage.startsWith("url(")),
    topLinks: [...document.querySelectorAll("#navbar .dg-navbar a")].filter(shown).length,
    topBar: shown(document.querySelector("#navbar .dg-header-row")),
  };
}"""


@pytest.mark.parametrize("theme", ["luma", "mint"])
def test_luma_lists_the_navbar_links_at_the_foot_of_the_sidebar(browser: Browser, theme_sites, theme):
    """luma as on Mintlify (changelog-toc-light.png): no top bar on desktop; the navbar links and the primary button
    at the foot of the sidebar, under a rule, each with an arrow. Other themes keep them in the top bar."""
    urls, _ = theme_sites
    page, _ = _view(browser, urls[theme] + PAGE, 1280, "light")
    foot = page.evaluate(FOOT)
    page.context.close()
    if theme == "mint":
        assert not foot["shown"] and foot["topLinks"] == 2 and foot["topBar"]
        return
    assert foot["shown"] and foot["links"] == ["Status", "Dashboard"]
    assert foot["bottom"] == foot["sidebarBottom"] == foot["height"] and foot["rule"] == "1px"
    assert foot["arrows"] == [True, True]
    assert foot["topLinks"] == 0 and not foot["topBar"]


def test_mint_top_bar_and_anchors_as_mintlify_draws_them(browser: Browser, theme_sites):
    """quickstart-mintlify-dev-light.png: a 40 px search with 12 px corners, a bare theme-toggle icon, the sidebar's
    anchor icons in bordered tiles."""
    urls, _ = theme_sites
    page, _ = _view(browser, urls["mint"] + PAGE, 1280, "light")
    found = page.evaluate("""() => {
      const s = (q) => getComputedStyle(document.querySelector(q));
      return [document.querySelector(".dg-header-row > .dg-search-button").getBoundingClientRect().height,
        s(".dg-header-row > .dg-search-button").borderTopLeftRadius, s(".dg-header-row > .dg-theme-toggle").borderTopColor,
        document.querySelector(".dg-anchors .dg-icon").getBoundingClientRect().width, s(".dg-anchors .dg-icon").borderTopWidth];
    }""")
    page.context.close()
    assert found == [40, "12px", "rgba(0, 0, 0, 0)", 26, "1px"]


def test_luma_marks_the_current_page_under_its_group_title(browser: Browser, theme_sites):
    """changelog-toc-light.png: the current page's bar stands under the first letter of its group's title and the
    page's name sits about 16 px right of it."""
    urls, _ = theme_sites
    page, _ = _view(browser, urls["luma"] + PAGE, 1280, "light")
    found = page.evaluate("""() => {
      const link = document.querySelector('.dg-sidebar-nav a[aria-current="page"]');
      const title = link.closest(".dg-nav-group-box").querySelector(".dg-nav-group-title > span");
      const text = document.createRange(); text.selectNodeContents(link.querySelector(".dg-nav-label"));
      return [link.getBoundingClientRect().x, title.getBoundingClientRect().x, text.getBoundingClientRect().x];
    }""")
    page.context.close()
    bar, title, text = found
    assert abs(bar - title) <= 1 and 14 <= text - bar <= 18, found


@pytest.mark.parametrize("theme", ["mint", "luma"])
def test_the_phone_drawer_opens_under_the_whole_top_bar(browser: Browser, theme_sites, theme):
    """With a banner and a tab row over it, the top bar is taller than its own row: the drawer's first entries (the
    navbar links) used to open hidden behind it."""
    urls, _ = theme_sites
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(urls[theme] + PAGE)
    page.wait_for_load_state("networkidle")
    page.click(".dg-menu-button")
    found = page.evaluate("""() => {
      const first = document.querySelector("#sidebar .dg-phone-links a"), r = first.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + 4, r.y + r.height / 2);
      return [first.textContent.trim(), !!hit && first.contains(hit),
        document.getElementById("sidebar").getBoundingClientRect().top, document.getElementById("navbar").getBoundingClientRect().bottom];
    }""")
    context.close()
    assert found[:2] == ["Status", True] and abs(found[2] - found[3]) <= 1, found
