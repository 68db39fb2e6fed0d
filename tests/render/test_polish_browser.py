"""Details a reader of hosted Mintlify notices (issue 30's list, items 2-4, 6, 8, 9, 11, 12), in chromium.

Buttons in colors.dark in both modes; "On this page" marks the section being read; "Copy page" in the title row;
inline code in table cells kept whole; the phone tab row shows that it scrolls and keeps the current tab in view;
the phone drawer closes on Escape and gives focus back; the Prompt header on one line; breadcrumbs without a
repeated label, on one line; a neutral icon where a card's icon is unknown. Screenshots go to ARTIFACTS/polish.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from docsgen.build import build
from tests.polish_site import write_polish
from tests.readers_checks import rgb_hex
from tests.readers_sites import ARTIFACTS, serve

SHOTS = ARTIFACTS.parent / "polish"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("polish")
    result = build(write_polish(root / "src"), root / "out")
    server, url = serve(root / "out")
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield url, result
    server.shutdown()


def _open(browser: Browser, url: str, width: int = 1280, mode: str = "light", height: int = 800) -> Page:
    page = browser.new_page(viewport={"width": width, "height": height}, color_scheme=mode)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page


def _box(page: Page, selector: str) -> dict:
    return page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().toJSON()", selector)


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_buttons_use_colors_dark_in_both_modes(browser: Browser, site, mode):
    url, _ = site
    page = _open(browser, url + "api-reference/trigger-a-deployment/", mode=mode)
    try:
        colours = page.evaluate(
            """() => ['.dg-pg-toggle', '.dg-navbar-primary'].map((s) =>
                 getComputedStyle(document.querySelector(s)).backgroundColor)"""
        )
        page.screenshot(path=str(SHOTS / f"buttons-{mode}.png"))
    finally:
        page.close()
    assert [rgb_hex(c) for c in colours] == ["#15803D", "#15803D"], colours


TOC_CURRENT = """() => [...document.querySelectorAll('.dg-toc a')]
  .filter((a) => a.getAttribute('aria-current') === 'location').map((a) => a.getAttribute('href'))"""


def test_on_this_page_marks_the_section_being_read(browser: Browser, site):
    url, _ = site
    page = _open(browser, url + "guide/")
    try:
        page.wait_for_function(f"({TOC_CURRENT})().length === 1")
        assert page.evaluate(TOC_CURRENT) == ["#section-1"]
        page.evaluate("document.getElementById('section-4').scrollIntoView()")
        page.wait_for_function(f"({TOC_CURRENT})()[0] === '#section-4'")
        active = page.locator(".dg-toc a[aria-current=location]")
        colour = active.evaluate("(a) => getComputedStyle(a).color")
        other = page.locator(".dg-toc a[href='#section-1']").evaluate("(a) => getComputedStyle(a).color")
        page.screenshot(path=str(SHOTS / "toc-scroll-spy.png"))
        page.locator(".dg-toc a[href='#section-2']").click()
        page.wait_for_function(f"({TOC_CURRENT})()[0] === '#section-2'")
        page.evaluate("document.getElementById('section-6').scrollIntoView()")
        page.wait_for_function(f"({TOC_CURRENT})()[0] === '#section-6'")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the end: the last shown heading
        page.wait_for_function(f"({TOC_CURRENT})()[0] === '#in-the-first-tab'")
        assert len(page.evaluate(TOC_CURRENT)) == 1
    finally:
        page.close()
    assert colour != other  # the current entry looks different


@pytest.mark.parametrize("width", [1280, 390])
def test_copy_page_sits_in_the_title_row(browser: Browser, site, width):
    url, _ = site
    page = _open(browser, url + "updates/", width)
    try:
        title, menu, desc = (_box(page, s) for s in (".dg-title", ".dg-contextual", ".dg-description"))
        page.locator(".dg-page-header").screenshot(path=str(SHOTS / f"copy-page-{width}.png"))
    finally:
        page.close()
    assert menu["left"] >= title["right"] - 1, (title, menu)
    assert menu["top"] < title["bottom"] and menu["bottom"] > title["top"], (title, menu)
    assert menu["bottom"] <= desc["top"] + 1


@pytest.mark.parametrize("width", [1280, 390])
def test_inline_code_in_table_cells_stays_whole(browser: Browser, site, width):
    url, _ = site
    page = _open(browser, url, width)
    try:
        lines = page.evaluate(
            "() => [...document.querySelectorAll('.dg-prose td code')].map((c) => c.getClientRects().length)"
        )
        wide = page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
        page.locator(".dg-prose table").screenshot(path=str(SHOTS / f"table-code-{width}.png"))
    finally:
        page.close()
    assert lines == [1, 1], f"inline code broken over lines: {lines}"
    assert not wide


def test_phone_tab_row_shows_it_scrolls_and_keeps_the_current_tab_in_view(browser: Browser, site):
    url, _ = site
    page = _open(browser, url + "help/", 390)
    try:
        current = _box(page, ".dg-tabs a[aria-current=page]")
        page.screenshot(path=str(SHOTS / "tabs-phone-last.png"))
        page.goto(url)
        page.wait_for_load_state("networkidle")
        row = page.evaluate(
            """() => { const t = document.querySelector('.dg-tabs'); const s = getComputedStyle(t);
                 return {scrolls: t.scrollWidth > t.clientWidth, mask: s.maskImage || s.webkitMaskImage,
                   more: t.dataset.more}; }"""
        )
        page.screenshot(path=str(SHOTS / "tabs-phone-first.png"))
    finally:
        page.close()
    assert current["left"] >= 0 and current["right"] <= 390, f"the current tab is out of view: {current}"
    assert row["scrolls"] and row["more"] == "end", row
    assert row["mask"] not in ("", "none"), f"no fade shows the row goes on: {row}"


def test_phone_drawer_closes_on_escape_and_gives_focus_back(browser: Browser, site):
    url, _ = site
    page = _open(browser, url, 390)
    try:
        button = page.locator(".dg-menu-button")
        button.click()
        page.locator(".dg-sidebar.dg-open").wait_for()
        page.locator(".dg-sidebar a").first.focus()
        page.keyboard.press("Escape")
        visible = page.locator(".dg-sidebar").is_visible()
        expanded = button.get_attribute("aria-expanded")
        focused = page.evaluate("document.activeElement.classList.contains('dg-menu-button')")
    finally:
        page.close()
    assert not visible and expanded == "false" and focused


def test_prompt_header_stays_on_one_line_on_a_phone(browser: Browser, site):
    url, _ = site
    page = _open(browser, url, 390)
    try:
        head, desc, copy = (
            _box(page, s) for s in (".dg-prompt-header", ".dg-prompt-description", ".dg-prompt-copy")
        )
        title = page.locator(".dg-prompt-description").get_attribute("title")
        page.locator(".dg-prompt").screenshot(path=str(SHOTS / "prompt-phone.png"))
    finally:
        page.close()
    assert abs((desc["top"] + desc["bottom"]) / 2 - (copy["top"] + copy["bottom"]) / 2) <= 2, (desc, copy)
    assert head["height"] <= copy["height"] + 24, f"the header wraps: {head}"
    assert title == "Ask your assistant to set up the integration for this project"


@pytest.mark.parametrize("width", [1280, 390])
def test_breadcrumbs_never_repeat_a_label_and_stay_on_one_line(browser: Browser, site, width):
    url, _ = site
    page = _open(browser, url + "guide/", width)
    try:
        crumbs = page.evaluate(
            """() => [...document.querySelectorAll('.dg-breadcrumbs li')].map((li) =>
                 ({text: li.textContent.trim(), top: Math.round(li.getBoundingClientRect().top)}))"""
        )
        page.locator(".dg-page-header").screenshot(path=str(SHOTS / f"breadcrumbs-{width}.png"))
    finally:
        page.close()
    labels = [c["text"] for c in crumbs]
    assert labels == ["Overview"], labels  # tab "Overview" > group "Overview": said once
    assert len({c["top"] for c in crumbs}) == 1


def test_breadcrumbs_of_a_long_trail_stay_on_one_line_on_a_phone(browser: Browser, site):
    url, _ = site
    page = _open(browser, url + "sdk-libraries/", 390)
    try:
        page.evaluate(
            """() => { const ol = document.querySelector('.dg-breadcrumbs ol');
                 ol.firstElementChild.textContent = 'A section with a long name for a phone screen';
                 ol.lastElementChild.textContent = 'A group with an even longer name than the section'; }"""
        )
        tops = page.evaluate(
            "() => [...document.querySelectorAll('.dg-breadcrumbs li')].map((li) => li.getBoundingClientRect().top)"
        )
        wide = page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    finally:
        page.close()
    assert len(tops) == 2 and abs(tops[0] - tops[1]) <= 1, tops
    assert not wide


def test_unknown_card_icon_draws_a_neutral_icon_and_still_warns(browser: Browser, site):
    url, result = site
    page = _open(browser, url)
    try:
        icons = page.evaluate(
            """() => [...document.querySelectorAll('.dg-card')].slice(0, 2).map((card) => {
                 const svg = card.querySelector('.dg-icon svg'); const r = svg && svg.getBoundingClientRect();
                 return r ? Math.round(r.width * r.height) : 0; })"""
        )
        page.locator(".dg-card").first.screenshot(path=str(SHOTS / "card-unknown-icon.png"))
    finally:
        page.close()
    assert icons[0] > 100 and icons[1] > 100, icons
    assert any(d.code == "mdx.unknown-icon" and "no-such-icon-anywhere" in d.message for d in result.warnings)
