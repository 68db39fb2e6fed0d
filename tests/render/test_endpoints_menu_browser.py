"""Mintlify's endpoint selector (#endpoints-menu-trigger) on API pages: it lists the endpoints of the page's API
section with their methods, marks the current one, switches endpoint by mouse and by keyboard, closes on Escape;
guide pages and endpoints outside a group of endpoints have none."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from docsgen.build import build
from docsgen.nav.tree import NavGroup, NavLink, Placement, Section
from docsgen.render import endpoints_menu
from tests.conftest import write_tree
from tests.readers_sites import serve


def _op(summary: str) -> dict:
    return {"summary": summary, "responses": {"200": {"description": "ok"}}}


SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Pets", "version": "1"},
    "servers": [{"url": "https://api.example.com"}],
    "paths": {
        "/pets": {"get": _op("List pets"), "post": _op("Create a pet")},
        "/pets/{id}": {"delete": _op("Delete a pet")},
    },
}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("endpoints")
    config = {
        "name": "Ends",
        "theme": "mint",
        "colors": {"primary": "#1D4ED8"},
        "openapi": "openapi.json",
        "navigation": {
            "groups": [
                {"group": "Guides", "pages": ["guide"]},
                {"group": "Pets", "pages": ["GET /pets", "POST /pets", "DELETE /pets/{id}"]},
            ]
        },
    }
    files = {
        "docs.json": json.dumps(config),
        "openapi.json": json.dumps(SPEC),
        "guide.mdx": "---\ntitle: G\n---\n\nHi.\n",
    }
    build(write_tree(root / "src", files), root / "out")
    pages = {
        p.parent.name: p.parent.relative_to(root / "out").as_posix() + "/"
        for p in (root / "out").rglob("index.html")
    }
    server, url = serve(root / "out")
    yield url, pages
    server.shutdown()


def test_menu_lists_the_sections_endpoints_and_switches_by_mouse(page: Page, served):
    url, pages = served
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + pages["create-a-pet"])
    trigger = page.locator("#endpoints-menu-trigger")
    expect(trigger).to_be_visible()
    assert " ".join(trigger.inner_text().split()) == "POST Create a pet"
    menu = page.locator(".dg-endpoints-list")
    expect(menu).to_be_hidden()
    trigger.click()
    expect(menu).to_be_visible()
    rows = [" ".join(t.split()) for t in menu.locator("a").all_inner_texts()]
    assert rows == ["GET List pets", "POST Create a pet", "DEL Delete a pet"]
    assert menu.locator("a[aria-current=page]").inner_text().endswith("Create a pet")
    page.mouse.click(5, 700)  # a click outside closes it
    expect(menu).to_be_hidden()
    trigger.click()
    menu.get_by_role("link", name="Delete a pet").click()
    page.wait_for_url("**/delete-a-pet/")
    assert " ".join(page.locator("#endpoints-menu-trigger").inner_text().split()) == "DEL Delete a pet"
    assert not errors


def test_menu_by_keyboard(page: Page, served):
    url, pages = served
    page.goto(url + pages["list-pets"])
    page.locator("#endpoints-menu-trigger").focus()
    page.keyboard.press("Enter")
    menu = page.locator(".dg-endpoints-list")
    expect(menu).to_be_visible()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(page.locator("#endpoints-menu-trigger")).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # past "List pets" (the current one) to "Create a pet"
    page.keyboard.press("Enter")
    page.wait_for_url("**/create-a-pet/")


def test_guide_pages_have_no_endpoint_menu(page: Page, served):
    url, pages = served
    page.goto(url + pages["guide"])
    assert page.locator("#endpoints-menu-trigger, .dg-endpoints").count() == 0


def test_the_menu_is_bounded_around_the_current_endpoint():
    links: list[NavGroup | NavLink] = [NavLink(f"E{i}", f"e{i}", f"e{i}/", method="GET") for i in range(500)]
    place = Placement(Section("s", "tab", "S", {}), [NavGroup("API", links, depth=0)])
    found = endpoints_menu.endpoints(place, "e450")
    assert len(found) == endpoints_menu.MAX and [e.key for e in found if e.current] == ["e450"]
    assert found[-1].key == "e499"
    assert endpoints_menu.endpoints(place, "elsewhere") == ()
