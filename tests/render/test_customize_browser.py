"""Customisation in a real browser: default and strict appearance, custom JS and CSS, local fonts."""

from __future__ import annotations

import json
import shutil

import pytest
from playwright.sync_api import expect

from docsgen.build import build
from tests.conftest import FIXTURES, write_tree
from tests.outputs.test_redirects_browser import serve


def _local_only(page) -> list[str]:
    """Refuse every request that leaves 127.0.0.1 (analytics snippets must not reach the network in tests)."""
    blocked: list[str] = []

    def handle(route):
        if route.request.url.startswith("http://127.0.0.1"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", handle)
    return blocked


@pytest.fixture(scope="module")
def default_dark(tmp_path_factory):
    root = tmp_path_factory.mktemp("appearance")
    config = {
        "name": "Dark",
        "theme": "mint",
        "colors": {"primary": "#0D9373"},
        "appearance": {"default": "dark"},
        "navigation": {"pages": ["index"]},
    }
    docs = write_tree(root / "docs", {"docs.json": json.dumps(config), "index.mdx": "# Hi\n\nText.\n"})
    build(docs, root / "out", strict=True)
    with serve(root / "out") as url:
        yield url


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("customize")
    docs = shutil.copytree(FIXTURES / "customize", root / "docs")
    build(docs, root / "out", strict=True)
    with serve(root / "out") as url:
        yield url


def test_default_dark_then_toggle_is_remembered(page, default_dark):
    page.emulate_media(color_scheme="light")
    page.goto(f"{default_dark}/")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.locator(".dg-theme-toggle").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")


def test_strict_appearance_ignores_stored_choice_and_hides_toggle(page, fixture_site):
    blocked = _local_only(page)
    page.emulate_media(color_scheme="light")
    page.goto(f"{fixture_site}/")
    page.evaluate("localStorage.setItem('dg-theme', 'light')")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator(".dg-theme-toggle")).to_have_count(0)
    assert any("googletagmanager.com" in u for u in blocked)  # configured analytics do load
    assert any("plausible.io" in u for u in blocked)


def test_custom_js_css_and_fonts_apply(page, fixture_site):
    _local_only(page)
    page.goto(f"{fixture_site}/guides/no-date/")
    expect(page.locator("html")).to_have_attribute("data-custom-script", "loaded")
    assert page.evaluate("window.SHOULD_NOT_LOAD") is None
    body_font = page.evaluate("getComputedStyle(document.body).fontFamily")
    title_font = page.evaluate("getComputedStyle(document.querySelector('.dg-title')).fontFamily")
    assert body_font.startswith('"Fixture Text"')
    assert title_font.startswith('"Fixture Display"')
    spacing = page.evaluate("getComputedStyle(document.querySelector('.dg-title')).letterSpacing")
    assert spacing != "normal"  # from the docs folder's style.css
    background = page.evaluate("getComputedStyle(document.body).backgroundImage")
    assert "night.svg" in background
