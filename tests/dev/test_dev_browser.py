"""docsgen dev in a real browser: saves reload the page, errors show and clear, CSS swaps without a reload."""

from __future__ import annotations

import json
import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import docsgen.common.resources
from docsgen.dev.app import DevApp, start
from docsgen.dev.themes import reset_theme_caches

CONFIG = json.dumps(
    {
        "name": "Live",
        "theme": "mint",
        "colors": {"primary": "#0D9373"},
        "navigation": {"groups": [{"group": "Docs", "pages": ["index", "guide"]}]},
    }
)


def guide(text: str) -> str:
    return f"---\ntitle: Guide\n---\n\n{text}\n"


@pytest.fixture
def themes(tmp_path, monkeypatch) -> Path:
    """A private copy of the themes, so a test can edit a stylesheet without touching the repository."""
    real = docsgen.common.resources.themes_dir()
    copy = tmp_path / "themes"
    shutil.copytree(real, copy, ignore=shutil.ignore_patterns("vendor", "__pycache__"))
    monkeypatch.setattr(
        docsgen.common.resources, "data_dir", lambda name: copy if name == "themes" else real.parent / name
    )
    reset_theme_caches()
    yield copy
    monkeypatch.undo()
    reset_theme_caches()  # back to the real themes, with the template globals other modules installed


@pytest.fixture
def app(make_site, themes):
    site = make_site(
        {
            "docs.json": CONFIG,
            "index.mdx": "---\ntitle: Home\n---\n\nHome text\n",
            "guide.mdx": guide("First version"),
        }
    )
    app = start(site)
    yield app
    app.stop()


def open_page(page: Page, app: DevApp, path: str) -> list[int]:
    """Open a page, count its load events, and wait until its event stream is connected."""
    loads: list[int] = []
    page.on("load", lambda _: loads.append(1))
    page.goto(app.url + path)
    page.wait_for_function("window.__docsgenDev && window.__docsgenDev.ready === true", timeout=5000)
    return loads


def wait_for_loads(page: Page, loads: list[int], count: int) -> None:
    """Wait (up to 5 s) until the page has had `count` load events: the new text shows while the document is
    still loading, before its load event (a busy machine showed the count read too early)."""
    for _ in range(100):
        if len(loads) >= count:
            break
        page.wait_for_timeout(50)
    assert len(loads) == count, loads


def write(app: DevApp, rel: str, text: str) -> None:
    (app.dev.docs_dir / rel).write_text(text, encoding="utf-8")


def test_saving_a_page_reloads_it(page: Page, app: DevApp):
    other = page.context.new_page()
    other_loads = open_page(other, app, "")
    loads = open_page(page, app, "guide/")
    expect(page.locator("body")).to_contain_text("First version")
    write(app, "guide.mdx", guide("Second version"))
    expect(page.locator("body")).to_contain_text("Second version", timeout=5000)
    wait_for_loads(page, loads, 2)  # one real navigation, made by the reload script
    page.wait_for_function("window.__docsgenDev.ready === true", timeout=5000)
    write(app, "guide.mdx", guide("Third version"))  # the new page's stream keeps working
    expect(page.locator("body")).to_contain_text("Third version", timeout=5000)
    wait_for_loads(page, loads, 3)
    assert len(other_loads) == 1  # the home page was not affected by those edits
    expect(other.locator("body")).to_contain_text("Home text")


def test_broken_page_shows_error_then_recovers(page: Page, app: DevApp):
    open_page(page, app, "guide/")
    write(app, "guide.mdx", guide("Intro\n\n<Tabs>\n\nnever closed"))
    location = page.locator(".dg-dev-error .dg-dev-loc")
    expect(location).to_have_text("guide.mdx:7:1", timeout=5000)
    expect(page.locator(".dg-dev-error")).to_contain_text("<Tabs> is never closed")
    expect(page.locator(".dg-dev-error pre")).to_contain_text("<Tabs>")
    page.wait_for_function("window.__docsgenDev.ready === true", timeout=5000)
    write(app, "guide.mdx", guide("Repaired text"))
    expect(page.locator("body")).to_contain_text("Repaired text", timeout=5000)
    expect(page.locator(".dg-dev-error")).to_have_count(0)


def test_config_error_shows_on_the_open_page(page: Page, app: DevApp):
    open_page(page, app, "")
    write(app, "docs.json", CONFIG.replace('"navigation"', '"navigation": 5, "x"'))
    expect(page.locator(".dg-dev-loc").first).to_contain_text("docs.json:1", timeout=5000)
    page.wait_for_function("window.__docsgenDev.ready === true", timeout=5000)
    write(app, "docs.json", CONFIG)
    expect(page.locator("body")).to_contain_text("Home text", timeout=5000)


def test_stylesheet_change_swaps_without_reload(page: Page, app: DevApp, themes: Path):
    loads = open_page(page, app, "guide/")
    probe = "getComputedStyle(document.documentElement).getPropertyValue('--dg-dev-probe').trim()"
    assert page.evaluate(probe) == ""
    css = themes / "base" / "static" / "site.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n:root { --dg-dev-probe: 42px; }\n", encoding="utf-8")
    page.wait_for_function(f"{probe} === '42px'", timeout=5000)
    assert page.evaluate("window.__docsgenDev.cssSwaps") >= 1
    time.sleep(0.3)
    assert len(loads) == 1  # no navigation happened
    assert (
        page.evaluate("document.querySelectorAll('link[href*=\"docsgen.css\"]').length") == 1
    )  # the joined sheet, swapped in place


class _NoCors(BaseHTTPRequestHandler):
    """An API that sends no CORS headers: a browser page on another origin cannot read it directly."""

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        data = json.dumps({"pets": ["Rex"], "path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_proxy_reaches_an_api_without_cors(page: Page, make_site, themes):
    api = ThreadingHTTPServer(("127.0.0.1", 0), _NoCors)
    api.daemon_threads = True
    threading.Thread(target=api.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{api.server_address[1]}"
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Pets", "version": "1"},
        "servers": [{"url": base}],
        "paths": {},
    }
    config = json.loads(CONFIG)
    config["api"] = {"openapi": "openapi.json"}
    site = make_site(
        {
            "docs.json": json.dumps(config),
            "openapi.json": json.dumps(spec),
            "index.mdx": "Home\n",
            "guide.mdx": guide("x"),
        }
    )
    app = start(site, watch=False)
    try:
        page.goto(app.url)
        direct = page.evaluate(
            "url => fetch(url).then(r => 'read ' + r.status, e => 'blocked: ' + e.name)", base + "/pets"
        )
        assert direct.startswith("blocked")  # the browser refuses a cross-origin read without CORS headers
        through = page.evaluate(
            "url => fetch(window.__docsgenDev.proxy + '?url=' + encodeURIComponent(url)).then(r => r.json())",
            base + "/pets?limit=2",
        )
        assert through == {"pets": ["Rex"], "path": "/pets?limit=2"}
        refused = page.evaluate(
            "url => fetch(window.__docsgenDev.proxy + '?url=' + encodeURIComponent(url)).then(r => r.status)",
            "http://example.org/",
        )
        assert refused == 403
    finally:
        app.stop()
        api.shutdown()
        api.server_close()
