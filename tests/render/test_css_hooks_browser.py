"""Mintlify's CSS hooks in a browser: the ids the page's scripts make, and corpus sites' own style.css matching."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from docsgen.build import build
from tests.conftest import REAL_SITES
from tests.readers_sites import serve
from tests.render.test_css_hooks import DOCUMENTED_IDS, NO_SUCH_ELEMENT, hook_site


@pytest.fixture(scope="module")
def hook_pages(tmp_path_factory):
    root = tmp_path_factory.mktemp("hooks-browser")
    build(hook_site(root / "src"), root / "out")
    server, url = serve(root / "out")
    yield url, root
    server.shutdown()


def _api_url(root: Path) -> str:
    page = next(p for p in (root / "out").rglob("index.html") if "list-pets" in str(p))
    return page.parent.relative_to(root / "out").as_posix() + "/"


def test_ids_made_by_the_pages_scripts(page: Page, hook_pages):
    url, root = hook_pages
    page.goto(url + "guide/")
    page.wait_for_load_state("networkidle")
    assert page.locator("#code-snippet-feedback-button").count() == 1
    assert page.locator("textarea#code-snippet-feedback-textarea").count() == 1
    assert page.locator("#sidebar-content li[data-active]").inner_text() == "Guide"
    assert page.locator(".sidebar-group[data-active]").count() == 1
    page.goto(url + _api_url(root))
    page.wait_for_load_state("networkidle")
    assert page.locator(".tryit-button").count() >= 1
    assert page.locator("form#api-playground-input").count() == 0  # the playground loads when opened
    page.locator(".tryit-button").first.click()
    expect(page.locator("form#api-playground-input")).to_have_count(1)
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids))


# Real sites' own stylesheets: each hook they name (#id or .class) is on an element of some page kind, unless
# docsgen has no such element; and their rules take effect.
def _hooks_in(css: str) -> set[str]:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    selectors = re.findall(r"([^{}]+)\{", css)
    found = set()
    for selector in selectors:
        for token in re.findall(r"([#.][a-zA-Z][\w-]*)", selector):
            name = token[1:]
            if (token[0] == "#" and name in DOCUMENTED_IDS) or (token[0] == "." and name in MINTLIFY_CLASSES):
                found.add(token)
    return found


MINTLIFY_CLASSES = {
    "nav-logo",
    "navbar-link",
    "nav-tabs",
    "nav-tabs-item",
    "topbar-right-container",
    "eyebrow",
    "accordion-group",
    "accordion",
    "code-block",
    "callout",
    "card",
    "steps",
    "step",
    "mdx-content",
    "nav-dropdown-item-icon",
    "nav-dropdown-item-description",
    "sidebar-group",
    "toc",
    "toc-item",
}


@pytest.mark.shared
def test_corpus_sites_style_css_applies(page: Page, tmp_path):
    sheets = sorted(p for p in REAL_SITES.glob("*/**/*.css") if "node_modules" not in p.parts)
    assert len(sheets) >= 10
    missing: list[str] = []
    matched = 0
    for sheet in sheets:
        hooks = _hooks_in(sheet.read_text(encoding="utf-8", errors="replace"))
        if not hooks:
            continue
        site = tmp_path / sheet.parent.name / "src"
        hook_site(site)
        shutil.copy(sheet, site / "corpus-style.css")
        out = tmp_path / sheet.parent.name / "out"
        build(site, out)
        server, url = serve(out)
        try:
            found: set[str] = set()
            for path in ("guide/", "panel/", "changelog/", "views/", "404.html"):
                page.goto(url + path)
                page.wait_for_load_state("networkidle")
                found |= {h for h in hooks if page.locator(h).count()}
            absent = {h for h in hooks - found if h[1:] not in NO_SUCH_ELEMENT}
            missing += [f"{sheet.relative_to(REAL_SITES)}: {h}" for h in sorted(absent)]
            matched += len(found)
        finally:
            server.shutdown()
    assert not missing, missing
    assert matched >= 12


@pytest.mark.shared
def test_corpus_rules_take_effect(page: Page, tmp_path):
    site = hook_site(tmp_path / "src")
    for name in ("spree__spree", "traceloop__docs", "Portkey-AI__docs-core"):
        shutil.copy(REAL_SITES / name / "style.css", site / f"{name}.css")
    build(site, tmp_path / "out")
    server, url = serve(tmp_path / "out")
    try:
        page.emulate_media(color_scheme="light")
        page.goto(url + "guide/")
        page.wait_for_load_state("networkidle")

        def style(selector: str, prop: str) -> str:
            return page.evaluate(f"getComputedStyle(document.querySelector({selector!r}))[{prop!r}]")

        assert style("#navbar", "borderBottomColor") == "rgb(226, 223, 216)"  # spree: html:not(.dark) #navbar
        assert style("#search-bar-entry", "backgroundColor") == "rgb(255, 255, 255)"  # spree
        assert style(".nav-logo", "width") == "140px"  # traceloop's !important wins over spree's height
        assert "linear-gradient" in style("#banner", "backgroundImage")  # Portkey
    finally:
        server.shutdown()


def test_class_hooks_made_or_shown_in_the_browser(page: Page, tmp_path):
    from tests.render.test_css_hook_classes import class_site

    build(class_site(tmp_path / "src"), tmp_path / "out")
    server, url = serve(tmp_path / "out")
    try:
        page.goto(url + "guide/")
        page.wait_for_load_state("networkidle")
        fade = page.locator(".code-block .code-block-fade-overlay")
        assert fade.is_visible() and (fade.bounding_box() or {"height": 0})["height"] > 30
        page.locator(".dg-code-expand").click()
        assert not fade.is_visible()  # an expanded block has no fade
        api = next(p for p in (tmp_path / "out").rglob("index.html") if "create-pet" in str(p))
        page.goto(url + api.parent.relative_to(tmp_path / "out").as_posix() + "/")
        page.wait_for_load_state("networkidle")
        switch = page.locator(".dg-api .option-dropdown").first
        assert [b.text_content() for b in switch.locator("button").all()] == ["Cat", "Dog"]
    finally:
        server.shutdown()
