"""The announcement banner's colours in a browser: white text on colors.dark (darkened only as far as white text
needs), and colors.dark as written when the site's own CSS gives the banner its text colour (as langchain's does)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from docsgen.build import build
from docsgen.common.contrast import parse_color, ratio
from tests.readers_checks import AXE
from tests.readers_sites import axe_source, serve


def _site(root, css: str | None):
    src = root / "src"
    src.mkdir(parents=True)
    config = {
        "name": "Banner",
        "theme": "aspen",
        "colors": {"primary": "#2F6868", "light": "#84C4C0", "dark": "#84C4C0"},
        "banner": {"content": "A course is live! [Enroll](https://example.com/course)"},
        "navigation": {"pages": ["index"]},
    }
    (src / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    (src / "index.mdx").write_text("---\ntitle: Home\n---\n\nHello.\n", encoding="utf-8")
    if css is not None:
        (src / "style.css").write_text(css, encoding="utf-8")
    build(src, root / "out")
    return serve(root / "out")


def _colours(page: Page) -> tuple[str, str]:
    return page.evaluate(
        "(() => { const s = getComputedStyle(document.getElementById('banner')); return [s.color, s.backgroundColor] })()"
    )


def _ratio(text: str, background: str) -> float:
    fg, bg = parse_color(text), parse_color(background)
    assert fg is not None and bg is not None
    return ratio(fg, bg)


@pytest.mark.browser
@pytest.mark.parametrize("mode", ["light", "dark"])
def test_site_text_colour_gets_mintlifys_banner_background(page: Page, tmp_path, mode):
    server, url = _site(
        tmp_path, "#banner {\n  max-width: 100% !important;\n  color: #1a2c2a !important;\n}\n"
    )
    try:
        page.emulate_media(color_scheme=mode)
        page.goto(url)
        page.wait_for_load_state("networkidle")
        text, background = _colours(page)
        assert text == "rgb(26, 44, 42)"
        assert (
            background == "rgb(132, 196, 192)"
        )  # colors.dark as written: what the site chose its text against
        assert _ratio(text, background) >= 4.5
        page.add_script_tag(content=axe_source())
        assert not [v for v in page.evaluate(AXE) if "banner" in v], page.evaluate(AXE)
    finally:
        server.shutdown()


@pytest.mark.browser
def test_white_banner_text_keeps_its_darkened_background(page: Page, tmp_path):
    server, url = _site(tmp_path, None)
    try:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        text, background = _colours(page)
        assert text == "rgb(255, 255, 255)"
        assert background != "rgb(132, 196, 192)"
        assert _ratio(text, background) >= 4.5
        assert page.locator("#banner.dg-banner-site-text").count() == 0
    finally:
        server.shutdown()
