"""API pages as a reader of hosted Mintlify expects them (issue 30, reader list items 1, 5, 7 and 10), in chromium.

One bar (method, path with its parameters marked, the "Try it" button) on one line; response-example tabs that
never cut a label off; "Deprecated" said once; the playground's Send button on the line of the method and URL,
with no stray `#` beside the fields. Screenshots go to ARTIFACTS/polish.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from docsgen.build import build
from tests.polish_site import write_polish
from tests.readers_sites import ARTIFACTS, serve

SHOTS = ARTIFACTS.parent / "polish"
ENDPOINT = "api-reference/trigger-a-deployment/"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("polish-api")
    build(write_polish(root / "src"), root / "out")
    server, url = serve(root / "out")
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield url
    server.shutdown()


def _open(browser: Browser, url: str, width: int = 1280, mode: str = "light") -> Page:
    page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme=mode)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page


BAR = """() => {
  const bar = document.querySelector('.dg-api .dg-api-endpoint');
  const box = (e) => e && e.getBoundingClientRect().toJSON();
  const url = bar.querySelector('.dg-api-url');
  const line = parseFloat(getComputedStyle(url).lineHeight);
  const base = url.querySelector('.dg-api-base');
  // Where each line of the URL starts: the first character of every line box.
  const walker = document.createTreeWalker(url, NodeFilter.SHOW_TEXT);
  const starts = []; let last = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const top = Math.round(range.getBoundingClientRect().top);
      if (last === null || top > last + 2) { starts.push(node.data.slice(i, i + 4)); last = top; }
    }
  }
  return {bar: box(bar), method: box(bar.querySelector('.dg-api-method')), url: box(url), line, starts,
    text: url.textContent, base: base && base.textContent, overflow: url.scrollWidth - url.clientWidth,
    button: box(bar.querySelector('.dg-pg-toggle')), params: [...url.querySelectorAll('.dg-api-path-param')]
      .map((p) => p.textContent),
    urls: [...document.querySelectorAll('.dg-main code')].filter((c) => c.getClientRects().length && !c.closest('pre')
      && c.textContent.includes('/deployments/')).length};
}"""
FULL_URL = "https://api.example-platform.com/v1/projects/{projectId}/deployments/{deploymentId}"


@pytest.mark.parametrize("width", [1280, 390])
def test_method_full_url_and_try_it_share_one_bar(browser: Browser, site, width):
    """The whole URL is shown (api.url "full": base URL, then the path; the base URL was cut to "ht…" and the
    path scrolled out of sight), wrapping only before a "/" (or after "https://"), beside the method and button."""
    page = _open(browser, site + ENDPOINT, width)
    try:
        facts = page.evaluate(BAR)
        page.locator(".dg-api .dg-api-endpoint").screenshot(path=str(SHOTS / f"api-bar-{width}.png"))
    finally:
        page.close()
    assert facts["button"] is not None, "the Try it button is not in the method and path bar"
    assert facts["text"] == FULL_URL and facts["base"] == "https://api.example-platform.com/v1"
    assert facts["overflow"] <= 0, f"the URL is cut or scrolls: {facts}"
    assert all(start[0] == "/" or start == "http" or start.startswith("api.") for start in facts["starts"]), (
        facts
    )
    assert len(facts["starts"]) <= (3 if width == 1280 else 5), facts["starts"]
    centre = lambda b: b["top"] + b["height"] / 2  # noqa: E731
    assert abs(centre(facts["method"]) - centre(facts["button"])) <= 2, facts
    assert abs(centre(facts["method"]) - centre(facts["url"])) <= 2, facts
    assert facts["url"]["left"] + facts["url"]["width"] <= facts["button"]["left"], facts
    assert facts["button"]["left"] > facts["url"]["left"]
    assert facts["params"] == ["{projectId}", "{deploymentId}"]
    assert facts["urls"] == 1, "the URL is shown more than once above the fold"


def test_a_long_path_wraps_beside_try_it_and_never_scrolls(browser: Browser, site):
    """A path too long for a phone's bar wraps before a "/" once "Try it" joins the bar: it used to scroll
    sideways, hiding its end."""
    page = _open(browser, site + "api-reference/get-an-update/", 390)
    try:
        url = page.evaluate(
            """() => { const u = document.querySelector('.dg-api .dg-api-url');
                 return {overflow: u.scrollWidth - u.clientWidth, height: u.getBoundingClientRect().height,
                   line: parseFloat(getComputedStyle(u).lineHeight),
                   button: !!u.parentElement.querySelector('.dg-pg-toggle')}; }"""
        )
    finally:
        page.close()
    assert url["button"] and url["overflow"] <= 0, url


LINE_ENDS = """() => { const code = document.querySelector('dialog[open] .dg-pg-dialog-url');
  const text = code.textContent; const ends = []; let last = null, top = null;
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const at = Math.round(range.getBoundingClientRect().top);
      if (top !== null && at > top + 2) ends.push(last);
      top = at; last = node.data[i];
    }
  }
  return {text, ends};
}"""


def test_playground_url_on_a_phone_wraps_after_slashes_not_mid_word(browser: Browser, site):
    page = _open(browser, site + ENDPOINT, 390)
    try:
        page.locator(".dg-pg-toggle").click()
        page.locator("dialog.dg-pg-dialog[open]").wait_for()
        url = page.evaluate(LINE_ENDS)
        page.screenshot(path=str(SHOTS / "api-playground-390.png"))
    finally:
        page.close()
    assert url["text"].endswith("/projects/{projectId}/deployments/{deploymentId}"), url
    assert url["ends"] and set(url["ends"]) <= {"/", "-"}, f"the URL wraps mid-word: {url}"
    assert url["ends"].count("/") >= 2


def test_response_example_tabs_show_every_label_whole_or_titled(browser: Browser, site):
    page = _open(browser, site + ENDPOINT)
    try:
        tabs = page.evaluate(
            """() => { const bar = [...document.querySelectorAll('.dg-api-tabs')].find((c) =>
                 c.textContent.includes('queued')).querySelector('.dg-api-tabbar');
               const b = bar.getBoundingClientRect();
               return [...bar.querySelectorAll('[role=tab]')].map((t) => { const r = t.getBoundingClientRect();
                 return {text: t.textContent, title: t.title, inside: r.left >= b.left - 1 && r.right <= b.right + 1,
                   cut: t.scrollWidth > t.clientWidth + 1}; }); }"""
        )
        page.locator(".dg-api-aside").screenshot(path=str(SHOTS / "api-response-tabs.png"))
    finally:
        page.close()
    assert len(tabs) == 3, tabs
    assert all(t["inside"] for t in tabs), f"a tab label runs past the tab row: {tabs}"
    for tab in tabs:
        assert not tab["cut"] or tab["title"] == tab["text"], f"label cut with no full title: {tab}"
    assert any("queued for processing" in t["title"] or not t["cut"] for t in tabs)


def test_deprecated_is_said_once_on_the_page_and_once_per_parameter(browser: Browser, site):
    page = _open(browser, site + ENDPOINT)
    try:
        seen = page.evaluate(
            """() => {
              const count = (el) => (el.innerText.match(/deprecated/gi) || []).length;
              const field = document.getElementById('legacy_mode').closest('.dg-api-field');
              return {header: count(document.querySelector('.dg-page-header')), field: count(field),
                desc: field.querySelector('.dg-api-desc').innerText.trim()};
            }"""
        )
    finally:
        page.close()
    assert seen["header"] == 1, seen
    assert seen["field"] == 1, f"the parameter says Deprecated twice: {seen}"
    assert seen["desc"] == "Use mode instead.", seen
    page = _open(browser, site + "old/")
    try:
        header = page.locator(".dg-page-header").inner_text()
        sidebar = page.locator(".dg-sidebar-nav a[aria-current=page]").inner_text()
    finally:
        page.close()
    assert header.lower().count("deprecated") == 1, header
    assert sidebar.lower().count("deprecated") == 1, sidebar


def test_playground_send_sits_on_the_url_line_and_fields_have_no_hash_glyphs(browser: Browser, site):
    page = _open(browser, site + ENDPOINT)
    try:
        page.locator(".dg-pg-toggle").click()
        page.locator("dialog.dg-pg-dialog[open]").wait_for()
        facts = page.evaluate(
            """() => { const d = document.querySelector('dialog.dg-pg-dialog');
              const box = (s) => d.querySelector(s).getBoundingClientRect().toJSON();
              return {url: box('.dg-pg-dialog-url'), send: box('.dg-pg-send'), form: box('.dg-pg-panel'),
                hashes: [...d.querySelectorAll('.dg-pg-field *')].filter((e) => e.getClientRects().length
                  && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() === '#')).length}; }"""
        )
        page.screenshot(path=str(SHOTS / "api-playground.png"))
        page.get_by_role("textbox", name="projectId").fill("p1")
        page.get_by_role("textbox", name="deploymentId").fill("d1")
        assert page.locator(".dg-pg-send").is_enabled()
    finally:
        page.close()
    centre = lambda b: b["top"] + b["height"] / 2  # noqa: E731
    assert abs(centre(facts["url"]) - centre(facts["send"])) <= 4, facts
    assert facts["send"]["bottom"] <= facts["form"]["top"] + 1, "Send sits below the form"
    assert facts["hashes"] == 0, "stray # glyphs beside the fields"
