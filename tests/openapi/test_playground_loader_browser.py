"""The 'Try it' button playground-loader.js places before the playground's scripts load, in chromium: a reader who
presses it, or focuses it, while the playground builds keeps their press and their focus (building moved the
button, so a held press's click went to the endpoint bar and was lost, and keyboard focus fell to the page).
The scripts are held back by the test until the press (or focus) has started, so the order is certain."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Route, expect

from docsgen.dev.app import start

SCRIPTS = re.compile(r"/_static/js/playground(-(?!loader)[a-z]+)?\.js")


@pytest.fixture
def url(make_site):
    ok = {"200": {"description": "ok"}}
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Items", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": {"/items": {"get": {"summary": "List items", "operationId": "list", "responses": ok}}},
    }
    config = {
        "name": "P",
        "theme": "mint",
        "colors": {"primary": "#0D9373"},
        "navigation": {"groups": [{"group": "API", "openapi": "openapi.json"}]},
    }
    site = make_site({"docs.json": json.dumps(config), "openapi.json": json.dumps(spec)})
    app = start(site, watch=False)
    yield app.url + "api-reference/list-items/"
    app.stop()


def _hold_scripts(page: Page) -> list[Route]:
    """Hold the playground's scripts back: they load when the returned routes are continued."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(SCRIPTS, hold)
    return held


def _release_when_all_asked(page: Page, held: list[Route]) -> None:
    count = page.evaluate("JSON.parse(document.querySelector('script[data-scripts]').dataset.scripts).length")
    for _ in range(400):
        if len(held) == count:
            break
        page.wait_for_timeout(50)
    assert len(held) == count, f"{len(held)} of {count} playground scripts asked for"
    for route in held:
        route.continue_()
    page.unroute(SCRIPTS)


def _try_it(page: Page, url: str):
    page.set_default_timeout(20000)
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-playground", "interactive")
    button = page.get_by_role("button", name="Try it")
    expect(page.locator(".dg-pg-dialog")).to_have_count(0)  # not loaded yet
    return button


def test_a_press_held_while_the_playground_builds_opens_it(page: Page, url: str) -> None:
    held = _hold_scripts(page)
    button = _try_it(page, url)
    box = button.bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # pointerenter: loading starts
    page.mouse.down()
    _release_when_all_asked(page, held)
    expect(page.locator(".dg-pg-dialog")).to_have_count(1)  # built while the button is held down
    page.mouse.up()
    expect(page.get_by_role("button", name="Send")).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Escape")
    expect(button).to_have_attribute("aria-expanded", "false")
    button.click()  # loaded now: one click opens, the next closes
    expect(page.get_by_role("button", name="Send")).to_be_visible()


def test_keyboard_focus_stays_on_try_it_while_the_playground_builds(page: Page, url: str) -> None:
    held = _hold_scripts(page)
    button = _try_it(page, url)
    button.focus()  # focus starts loading
    _release_when_all_asked(page, held)
    expect(page.locator(".dg-pg-dialog")).to_have_count(1)
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Send")).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
