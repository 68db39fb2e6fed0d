"""api-reference.js in a real browser: alternatives and samples become tabs, #anchors open their tree."""

from __future__ import annotations

import functools
import threading
from html import escape
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from docsgen.openapi.render import ApiSettings, render_operation

REPO = Path(__file__).resolve().parents[2]
STATIC = REPO / "themes" / "base" / "static"
SPEC = Path(__file__).parents[1] / "openapi_render_specs" / "features-3.0.yaml"
MD = MarkdownIt("commonmark", {"html": False}).render


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Serve two rendered pages plus the theme's CSS and JS from 127.0.0.1."""
    root = tmp_path_factory.mktemp("api-site")
    data = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    for name, (method, path) in {"shapes": ("post", "/shapes"), "pet": ("put", "/pets/{petId}")}.items():
        page = render_operation(data, method, path, settings=ApiSettings(), markdown=MD)
        (root / f"{name}.html").write_text(
            "<!doctype html><html><head><meta charset='utf-8'>"
            "<link rel='stylesheet' href='site.css'><link rel='stylesheet' href='api.css'></head><body>"
            f"<h1>{escape(page.title)}</h1><div class='dg-prose'>{page.html}</div>"
            f"<aside class='dg-api-aside'>{page.aside_html}</aside>"
            "<script src='api-reference.js'></script></body></html>",
            encoding="utf-8",
        )
    for name in ("site.css", "api.css", "js/api-reference.js"):
        (root / Path(name).name).write_bytes((STATIC / name).read_bytes())
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_alternatives_become_switchable_tabs(page, site):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site}/shapes.html")
    box = page.locator(".dg-api-alts[data-kind='oneOf']").first
    buttons = box.locator(":scope > .dg-api-switch button")
    assert buttons.all_inner_texts() == ["round", "boxy"]
    assert page.locator("#round\\.radius").is_visible()
    assert not page.locator("#boxy\\.side").is_visible()
    buttons.nth(1).click()
    assert page.locator("#boxy\\.side").is_visible()
    assert not page.locator("#round\\.radius").is_visible()
    assert errors == []


def test_language_tabs_and_choice_is_remembered(page, site):
    page.goto(f"{site}/pet.html")
    card = page.locator(".dg-api-card[data-tabs='lang']")
    tabs = card.locator(".dg-api-tabbar button")
    assert tabs.all_inner_texts()[:3] == ["cURL", "Python", "JavaScript"]
    assert card.locator(".dg-api-panel[data-key='bash']").is_visible()
    assert not card.locator(".dg-api-panel[data-key='python']").is_visible()
    tabs.nth(1).click()
    assert card.locator(".dg-api-panel[data-key='python'] code").inner_text().startswith("import requests")
    page.reload()
    assert page.locator(".dg-api-card[data-tabs='lang'] .dg-api-panel[data-key='python']").is_visible()


def test_anchor_opens_nested_tree(page, site):
    page.goto(f"{site}/pet.html#owner.address.city")
    target = page.locator("[id='owner.address.city']")
    assert target.is_visible()
    assert page.evaluate("document.querySelector('[id=\"owner.address\"]').closest('details').open")


def test_content_is_readable_without_javascript(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site}/shapes.html")
    # every alternative and every sample stays on the page, labelled
    assert page.locator("[id='round.radius']").is_visible() and page.locator("[id='boxy.side']").is_visible()
    assert page.locator(".dg-api-panel-label").first.is_visible()
    context.close()
