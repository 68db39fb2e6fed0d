"""Page modes in a browser, as Mintlify documents them (organize/pages.mdx `mode`): default, wide, custom, frame,
center and assistant, each checked by what is shown and where, at 1280 px, with no page error or sideways scroll
at 390 px."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser

from docsgen.build import build
from tests.conftest import write_tree
from tests.readers_sites import serve

BODY = "## First\n\ntext\n\n## Second\n\n<Panel>Side note</Panel>\n\n<RequestExample>\n\n```bash\ncurl x\n```\n\n</RequestExample>\n"
MODES = ("default", "wide", "custom", "frame", "center", "assistant")

STATE = """() => {
  const shown = (sel) => { const el = document.querySelector(sel); if (!el) return false;
    const r = el.getBoundingClientRect(); return getComputedStyle(el).display !== "none" && r.width > 0 && r.height > 0; };
  const box = (sel) => { const el = document.querySelector(sel); if (!el) return null; const r = el.getBoundingClientRect();
    return {x: r.x, w: r.width}; };
  return {
    navbar: shown("#navbar"), sidebar: shown("#sidebar"), toc: shown("#table-of-contents"), panel: shown("#panel"),
    examples: shown(".dg-api-aside"), title: shown("#page-title"), description: shown(".dg-description"),
    breadcrumbs: shown(".dg-breadcrumbs"), copy: shown(".dg-contextual"), footer: shown("#footer"),
    pagination: shown("#pagination"), prose: box("#content"), article: box(".dg-article"), text: document.querySelector("#content").innerText,
    field: document.querySelector(".dg-assistant-off input")?.disabled ?? null,
    width: innerWidth, scroll: document.documentElement.scrollWidth,
  };
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("modes")
    pages = {
        f"{m}.mdx": f"---\ntitle: {m.title()} page\ndescription: About {m}\n"
        + ("" if m == "default" else f"mode: {m}\n")
        + f"---\n\n{BODY}"
        for m in MODES
    }
    config = {
        "theme": "maple",  # breadcrumbs on
        "name": "Modes",
        "colors": {"primary": "#1D4ED8"},
        "contextual": {"options": ["copy", "view"]},
        "footer": {"socials": {"github": "https://github.com/x"}},
        "navigation": {"groups": [{"group": "Modes", "pages": list(MODES)}]},
    }
    build(write_tree(root / "src", {"docs.json": json.dumps(config), **pages}), root / "out")
    server, url = serve(root / "out")
    yield url
    server.shutdown()


def _state(browser: Browser, url: str, width: int = 1280) -> dict:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    state = page.evaluate(STATE)
    context.close()
    assert not errors, errors
    return state


def test_default_mode_has_every_part(browser: Browser, site):
    s = _state(browser, site + "default/")
    assert s["navbar"] and s["sidebar"] and s["title"] and s["breadcrumbs"] and s["copy"] and s["footer"]
    assert s["panel"] and not s["toc"]  # a <Panel> takes the table of contents' place
    assert s["examples"]


def test_wide_mode_hides_the_side_panel_and_widens_the_content(browser: Browser, site):
    default, wide = _state(browser, site + "default/"), _state(browser, site + "wide/")
    assert wide["sidebar"] and wide["title"] and wide["footer"]
    assert not (wide["toc"] or wide["panel"] or wide["examples"])
    assert wide["prose"]["w"] > default["prose"]["w"] + 100


def test_custom_mode_keeps_only_the_top_bar(browser: Browser, site):
    s = _state(browser, site + "custom/")
    assert s["navbar"] and "text" in s["text"]
    for part in (
        "sidebar",
        "toc",
        "panel",
        "examples",
        "title",
        "description",
        "breadcrumbs",
        "copy",
        "footer",
        "pagination",
    ):
        assert not s[part], part
    assert s["prose"]["x"] == 0 and s["prose"]["w"] == s["width"]  # a blank canvas, edge to edge


def test_frame_mode_is_custom_with_the_sidebar(browser: Browser, site):
    s = _state(browser, site + "frame/")
    assert s["navbar"] and s["sidebar"]
    for part in ("toc", "panel", "title", "description", "breadcrumbs", "copy", "footer", "pagination"):
        assert not s[part], part
    assert abs(s["prose"]["x"] + s["prose"]["w"] - s["width"]) < 2  # the content runs to the right edge


def test_center_mode_centres_the_content_without_sidebar_or_toc(browser: Browser, site):
    s = _state(browser, site + "center/")
    assert s["title"] and s["footer"] and not (s["sidebar"] or s["toc"] or s["panel"])
    article = s["article"]
    assert abs(article["x"] + article["w"] / 2 - s["width"] / 2) < 2 and article["w"] <= 768


def test_assistant_mode_without_an_assistant_shows_a_disabled_field(browser: Browser, site):
    s = _state(browser, site + "assistant/")
    assert s["field"] is True and "text" not in s["text"]
    assert not (s["sidebar"] or s["toc"] or s["footer"] or s["pagination"])


@pytest.mark.parametrize("mode", MODES)
def test_no_sideways_scroll_on_a_phone(browser: Browser, site, mode):
    s = _state(browser, site + f"{mode}/", 390)
    assert s["scroll"] <= s["width"]
