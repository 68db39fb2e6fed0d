"""Tailwind classes in a real browser: a Mintlify-style landing grid is in columns on a desktop and one column on
a phone, `not-prose` blocks lose the theme's typography, `dark:` follows docsgen's theme toggle."""

from __future__ import annotations

import json

import pytest

from docsgen.build import build
from tests.conftest import write_tree
from tests.outputs.test_redirects_browser import serve

LANDING = """---
title: Home
mode: wide
---

<div className="grid grid-cols-1 sm:grid-cols-2 lg:grid-cols-3 gap-8 not-prose" id="cards">
  <a href="/guide" className="block rounded-xl border border-zinc-950/10 p-6 hover:border-primary dark:bg-zinc-900">
    <img src="/hero.svg" className="w-full aspect-video" alt="" />
    <h2 className="mt-4 text-lg font-semibold text-primary">Guide</h2>
    <p className="mt-2 text-sm text-gray-500">Read the guide</p>
  </a>
  <a href="/guide" className="block rounded-xl border p-6">Two</a>
  <a href="/guide" className="block rounded-xl border p-6">Three</a>
</div>

<div className="hidden dark:block" id="dark-only">Only in dark mode</div>
"""


@pytest.fixture(scope="module")
def landing(tmp_path_factory):
    root = tmp_path_factory.mktemp("tailwind")
    config = {
        "name": "Landing",
        "theme": "mint",
        "colors": {"primary": "#16A34A", "light": "#4ADE80", "dark": "#166534"},
        "navigation": {"pages": ["index", "guide"]},
    }
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><rect width="1600" height="900"/></svg>'
    docs = write_tree(
        root / "docs",
        {
            "docs.json": json.dumps(config),
            "index.mdx": LANDING,
            "guide.mdx": "---\ntitle: Guide\n---\n\nText.\n",
            "hero.svg": svg,
        },
    )
    build(docs, root / "out", strict=True)
    with serve(root / "out") as url:
        yield url


def _card_boxes(page) -> list[dict]:
    return page.eval_on_selector_all("#cards > a", "els => els.map(e => e.getBoundingClientRect().toJSON())")


def test_grid_has_columns_on_desktop_and_one_on_a_phone(page, landing):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{landing}/")
    boxes = _card_boxes(page)
    assert len({round(b["top"]) for b in boxes}) == 1  # three cards on one row
    assert boxes[0]["right"] < boxes[1]["left"] < boxes[1]["right"] < boxes[2]["left"]
    gap = boxes[1]["left"] - boxes[0]["right"]
    assert abs(gap - 32) < 1  # gap-8
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{landing}/")
    boxes = _card_boxes(page)
    assert len({round(b["left"]) for b in boxes}) == 1  # one column
    assert boxes[0]["bottom"] <= boxes[1]["top"]
    # the image fills its card instead of taking its own size (1600 px)
    width = page.eval_on_selector("#cards img", "e => e.getBoundingClientRect().width")
    card = page.eval_on_selector("#cards > a", "e => e.clientWidth")
    assert width <= card


def test_not_prose_links_and_headings_lose_the_theme_typography(page, landing):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{landing}/")
    style = page.eval_on_selector(
        "#cards > a",
        "e => { const s = getComputedStyle(e); return [s.textDecorationLine, s.borderTopStyle, s.borderTopWidth,"
        " s.borderRadius, s.paddingTop] }",
    )
    assert style == ["none", "solid", "1px", "12px", "24px"]
    heading = page.eval_on_selector(
        "#cards h2", "e => { const s = getComputedStyle(e); return [s.fontSize, s.color, s.marginTop] }"
    )
    # text-lg, mt-4 and the site's primary (#16A34A), darkened to read on white as the theme's accent text is
    assert heading == ["18px", "rgb(16, 122, 56)", "16px"]


def test_dark_variant_follows_the_theme_toggle(page, landing):
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{landing}/")
    assert page.eval_on_selector("#dark-only", "e => getComputedStyle(e).display") == "none"
    page.locator(".dg-theme-toggle").first.click()
    assert page.eval_on_selector("#dark-only", "e => getComputedStyle(e).display") == "block"
    background = page.eval_on_selector("#cards > a", "e => getComputedStyle(e).backgroundColor")
    assert background == "rgb(24, 24, 27)"  # dark:bg-zinc-900
