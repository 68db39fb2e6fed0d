"""First paint in Debian's chromium: one render-blocking request on a guide page, and what the first frame shows
is styled as it stays (no flash: header, sidebar and content have the same computed styles at the first frame as
after load); on an API page the playground's scripts load when the reader opens it, and "Try it" still works."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from docsgen.build import build
from tests.conftest import FIXTURES
from tests.readers_sites import serve

ARTIFACTS = Path(os.environ.get("DOCSGEN_ARTIFACTS", "/tmp/docsgen-test-artifacts")) / "first-paint"
REGIONS = (
    "#navbar",
    "#sidebar",
    "#content-area",
    "#page-title",
    ".dg-prose p",
    ".dg-prose pre",
    "#table-of-contents",
)
PROPS = (
    "display",
    "position",
    "width",
    "font-family",
    "font-size",
    "font-weight",
    "line-height",
    "color",
    "background-color",
    "padding-left",
    "margin-left",
    "border-bottom-color",
)
# The first animation frame runs just before the document's first paint: what it sees is what is painted.
_FIRST_FRAME = """
(() => {
  const regions = %s, props = %s;
  const snap = () => Object.fromEntries(regions.map((sel) => {
    const el = document.querySelector(sel);
    if (!el) return [sel, null];
    const cs = getComputedStyle(el);
    return [sel, Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)]))];
  }));
  window.__dgSnap = snap;
  const first = () => {
    if (!document.querySelector("#content-area")) { requestAnimationFrame(first); return; }
    window.__dgFirstFrame = snap();
  };
  requestAnimationFrame(first);
})();
"""


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory):
    """The example site (guide pages) and the API site, built and served from 127.0.0.1."""
    root = tmp_path_factory.mktemp("first-paint")
    urls, servers = {}, []
    for name in ("example", "api-site", "decorated"):
        src = root / name
        shutil.copytree(FIXTURES / ("example" if name == "decorated" else name), src)
        if name == "decorated":  # a docs.json background decoration, drawn under the header at the top
            config = json.loads((src / "docs.json").read_text(encoding="utf-8"))
            config["background"] = {"decoration": "grid"}
            (src / "docs.json").write_text(json.dumps(config), encoding="utf-8")
        result = build(src, root / f"{name}-out")
        assert not [d for d in result.diagnostics if d.is_error]
        server, url = serve(root / f"{name}-out")
        servers.append(server)
        urls[name] = url
    yield urls
    for server in servers:
        server.shutdown()


def _cold_page(browser: Browser, **options):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, **options)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.add_init_script(_FIRST_FRAME % (list(REGIONS), list(PROPS)))
    return context, page


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_guide_page_first_frame_is_styled_as_after_load(browser: Browser, sites, scheme: str):
    context, page = _cold_page(browser, color_scheme=scheme)
    try:
        page.goto(sites["example"] + "guides/buckets/")
        page.wait_for_function("window.__dgFirstFrame !== undefined")
        expect(page.locator("#sidebar-content a").first).to_be_visible()  # the shared sidebar arrived
        page.wait_for_load_state("networkidle")
        first = page.evaluate("window.__dgFirstFrame")
        after = page.evaluate("window.__dgSnap()")
        assert first["#navbar"] and first["#sidebar"] and first["#content-area"] and first[".dg-prose p"]
        changed = {
            sel: {p: (first[sel][p], after[sel][p]) for p in PROPS if first[sel][p] != after[sel][p]}
            for sel in REGIONS
            if first[sel] and after[sel]
        }
        assert not any(changed.values()), changed
        blocking = page.evaluate(
            "performance.getEntriesByType('resource').filter((r) => r.renderBlockingStatus === 'blocking')"
            ".map((r) => new URL(r.name).pathname)"
        )
        assert blocking == ["/_static/docsgen.css"]
        fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint').length")
        assert fcp == 1
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"guide-{scheme}.png"))
    finally:
        context.close()


def test_without_scripts_the_page_is_styled_the_same(browser: Browser, sites):
    """What paints before any script runs: the same layout with JavaScript off (screenshots to compare)."""
    shots = {}
    for js in (True, False):
        context = browser.new_context(viewport={"width": 1280, "height": 800}, java_script_enabled=js)
        try:
            page = context.new_page()
            page.goto(sites["example"] + "guides/buckets/")
            page.wait_for_load_state("networkidle")
            box = page.locator("#content-area").bounding_box()
            shots[js] = (box, page.locator("#page-title").bounding_box())
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"guide-js-{'on' if js else 'off'}.png"))
        finally:
            context.close()
    assert shots[True] == shots[False]  # content column and title at the same place and size


def test_api_page_loads_the_playground_when_try_it_is_pressed(browser: Browser, sites):
    context, page = _cold_page(browser)
    try:
        page.goto(sites["api-site"] + "api-reference/pets/get-a-pet/")
        page.wait_for_load_state("networkidle")
        expect(page.locator("html")).to_have_attribute("data-playground", "interactive")
        loaded = "performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname)"
        before = [p for p in page.evaluate(loaded) if "/playground" in p and p.endswith(".js")]
        assert before == ["/_static/js/playground-loader.js"]  # nothing else of the playground yet
        assert page.locator(".dg-pg-dialog").count() == 0
        button = page.get_by_role("button", name="Try it")
        expect(button).to_have_attribute("aria-expanded", "false")
        button.click()
        dialog = page.locator(".dg-pg-dialog")
        expect(dialog).to_be_visible()
        expect(button).to_have_attribute("aria-expanded", "true")
        assert page.locator(".dg-pg-toggle").count() == 1  # the loader's button became the playground's
        after = [
            p for p in page.evaluate(loaded) if re.search(r"/js/playground-\w+\.js$|/js/playground\.js$", p)
        ]
        assert "/_static/js/playground.js" in after and "/_static/js/playground-request.js" in after
        expect(dialog.locator("form#api-playground-input")).to_be_visible()
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        expect(button).to_have_attribute("aria-expanded", "false")
        button.click()  # the second time through the playground's own handler
        expect(dialog).to_be_visible()
    finally:
        context.close()


def test_deep_link_to_a_field_is_highlighted_without_the_playground(browser: Browser, sites):
    context, page = _cold_page(browser)
    try:
        page.goto(sites["api-site"] + "api-reference/pets/get-a-pet/")
        target = page.evaluate(
            "document.querySelector('.dg-api [id^=\"param-\"], .dg-api .dg-api-field[id]')?.id"
        )
        assert target
        page.goto(sites["api-site"] + f"api-reference/pets/get-a-pet/#{target}")
        expect(page.locator(f"[id='{target}']")).to_have_attribute("data-highlighted", "true")
    finally:
        context.close()


def test_the_theme_font_is_preloaded_and_the_text_uses_that_download(browser: Browser, sites):
    """Inter is asked for by the page's <link rel=preload> (while the stylesheet loads), not by the first layout:
    one request for it, made by the link, the font loaded and used, no "preloaded but not used" warning."""
    context, page = _cold_page(browser)
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text))
    fonts: list[str] = []
    page.on("request", lambda r: fonts.append(r.url) if r.url.endswith(".woff2") else None)
    try:
        page.goto(sites["example"] + "guides/buckets/")
        page.wait_for_load_state("networkidle")
        page.evaluate("document.fonts.ready.then(() => true)")
        entries = page.evaluate(
            "performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.woff2'))"
            ".map((r) => [new URL(r.name).pathname, r.initiatorType, r.renderBlockingStatus])"
        )
        assert entries == [["/_static/fonts/inter-latin-wght-normal.woff2", "link", "non-blocking"]]
        assert len(fonts) == 1
        assert page.evaluate("document.fonts.check('16px Inter')")
        assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith("Inter")
        page.wait_for_timeout(3500)  # Chromium warns about an unused preload a few seconds after load
        assert not [m for m in messages if "preload" in m], messages
    finally:
        context.close()


_BLUR = "getComputedStyle(document.querySelector('#navbar')).backdropFilter"


def test_the_header_blurs_what_scrolls_under_it_only_once_scrolled(browser: Browser, sites):
    """The header's backdrop blur costs the first frame ~10 ms of compositing in Chromium's software compositor and
    at the top of a page has only the page's plain background under it: it is on once the page is scrolled, off at
    the top again, and kept at the top where a background decoration is under the header."""
    context = browser.new_context(viewport={"width": 1280, "height": 400})
    try:
        page = context.new_page()
        page.goto(sites["example"] + "guides/buckets/")
        page.wait_for_load_state("networkidle")
        assert page.evaluate(_BLUR) == "none"
        page.mouse.move(640, 300)
        page.mouse.wheel(0, 200)
        page.wait_for_function("scrollY > 0 && " + _BLUR + " === 'blur(8px)'")
        page.evaluate("scrollTo(0, 0)")
        page.wait_for_function(_BLUR + " === 'none'")
        page.goto(sites["decorated"] + "guides/buckets/")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("getComputedStyle(document.body).backgroundImage").startswith("linear-gradient")
        assert page.evaluate(_BLUR) == "blur(8px)"
    finally:
        context.close()
