"""The site's own JavaScript in a real browser: shared sidebar, theme toggle, banner dismissal, drilldown, mobile menu."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from docsgen.build import build
from tests.conftest import FIXTURES


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder: Path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    servers, urls = [], {}
    for name in ("nav-tabs", "nav-groups-mint", "nav-groups-maple"):
        build(FIXTURES / name, root / name)
        server, url = serve(root / name)
        servers.append(server)
        urls[name] = url
    yield urls
    for server in servers:
        server.shutdown()


def test_sidebar_loads_marks_current_and_opens_its_groups(page: Page, sites):
    page.goto(sites["nav-groups-mint"] + "start/advanced/deep/internals/")
    current = page.locator('.dg-sidebar-nav a[aria-current="page"]')
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("data-key", "start/advanced/deep/internals")
    # Both collapsed ancestors of the current page are opened; the unrelated expanded group stays as configured.
    advanced = page.locator("details", has=page.locator('summary:has-text("Advanced")'))
    expect(advanced.first).to_have_attribute("open", "")
    # Links from the shared sidebar are rewritten relative to this page and work.
    page.locator('.dg-sidebar-nav a[data-key="ref/cli"]').click()
    expect(page).to_have_url(sites["nav-groups-mint"] + "ref/cli/")
    expect(page.locator("h1")).to_have_text("CLI")


def test_without_drilldown_a_group_title_only_toggles(page: Page, sites):
    page.goto(sites["nav-groups-mint"] + "ref/cli/")
    details = page.locator("details", has=page.locator('summary:has-text("Advanced")')).first
    expect(details).not_to_have_attribute("open", "")
    details.locator("> summary").click()
    expect(details).to_have_attribute("open", "")
    expect(page).to_have_url(sites["nav-groups-mint"] + "ref/cli/")


def test_with_drilldown_a_group_title_opens_its_first_page(page: Page, sites):
    page.goto(sites["nav-groups-maple"] + "ref/cli/")
    page.locator(".dg-sidebar-nav a.dg-nav-sub-link", has_text="Advanced").click()
    expect(page).to_have_url(sites["nav-groups-maple"] + "start/advanced/scaling/")
    expect(page.locator(".dg-breadcrumbs li").last).to_have_text("Advanced")


def test_theme_toggle_is_remembered(page: Page, sites):
    page.emulate_media(color_scheme="light")
    page.goto(sites["nav-tabs"])
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "light")
    page.locator(".dg-theme-toggle").click()
    expect(html).to_have_attribute("data-theme", "dark")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background != "rgb(255, 255, 255)"
    page.goto(sites["nav-tabs"] + "guides/install/")
    expect(html).to_have_attribute("data-theme", "dark")


def test_banner_dismissal_is_remembered(page: Page, sites):
    page.goto(sites["nav-tabs"])
    banner = page.locator("#banner")
    expect(banner).to_contain_text("is out")
    page.locator(".dg-banner-close").click()
    expect(banner).to_have_count(0)
    page.goto(sites["nav-tabs"] + "reference/errors/")
    expect(page.locator("h1")).to_have_text("Errors")
    expect(page.locator("#banner")).to_have_count(0)


def test_mobile_menu_opens_the_sidebar(page: Page, sites):
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(sites["nav-groups-mint"] + "start/install/")
    sidebar = page.locator("#sidebar")
    expect(sidebar).to_be_hidden()
    button = page.locator(".dg-menu-button")
    button.click()
    expect(sidebar).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(page.locator('.dg-sidebar-nav a[aria-current="page"]')).to_have_text("Install")
