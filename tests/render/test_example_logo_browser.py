"""The example site's logo shows its whole name ("Acme Cloud", was clipped to "Acme Clou") at every width."""

from __future__ import annotations

import pytest

from docsgen.build import build
from tests.conftest import FIXTURES
from tests.outputs.test_redirects_browser import serve

LOGOS = ["logo-light.svg", "logo-dark.svg"]


# `sans-serif` is whatever the reader's system has: Debian's DejaVu Sans is wide enough to push "d" out of a
# 140-unit picture, Liberation Sans is not. The name must fit with any of them.
FONTS = ["sans-serif", "DejaVu Sans", "Liberation Sans", "DejaVu Sans Mono", "serif"]


@pytest.mark.parametrize("name", LOGOS)
def test_the_logo_text_fits_inside_its_own_picture_in_any_font(page, name):
    page.goto((FIXTURES / "example" / "images" / name).as_uri())
    for font in FONTS:
        box = page.evaluate(
            "(font) => { const svg = document.querySelector('svg'), text = svg.querySelector('text');"
            " text.setAttribute('font-family', font); const t = text.getBBox();"
            " return {right: t.x + t.width, width: svg.viewBox.baseVal.width, text: svg.textContent}; }",
            font,
        )
        assert box["text"] == "Acme Cloud"
        assert box["right"] <= box["width"] - 2, (font, box)  # the last letter inside, with a margin


@pytest.mark.parametrize("width", [1280, 390])
def test_the_header_shows_the_logo_unsqueezed(page, tmp_path, width):
    out = tmp_path / "site"
    build(FIXTURES / "example", out, cache=False)
    page.set_viewport_size({"width": width, "height": 800})
    with serve(out) as base:
        page.goto(base + "/")
        size = page.evaluate(
            "(() => { const i = document.querySelector('.dg-logo img:not([hidden])'); const r ="
            " i.getBoundingClientRect(); return {w: r.width, h: r.height, nw: i.naturalWidth,"
            " nh: i.naturalHeight}; })()"
        )
    assert size["nw"] > 0 and size["h"] > 0
    assert abs(size["w"] / size["h"] - size["nw"] / size["nh"]) < 0.02, size  # drawn whole, not cropped
