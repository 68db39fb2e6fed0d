"""docsgen dev against hostile pages in a real browser: a page on another origin, and a DNS-rebound name.

Chromium's --host-resolver-rules makes `rebound.test` resolve to 127.0.0.1, exactly what a rebinding DNS server
does on its second answer: the page at http://rebound.test:PORT/ is then served by the dev server's socket.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser, BrowserType, Page

from docsgen.dev.app import DevApp, start

CONFIG = {
    "name": "Guarded",
    "theme": "mint",
    "colors": {"primary": "#0D9373"},
    "api": {"openapi": "openapi.json"},
    "navigation": {"groups": [{"group": "Docs", "pages": ["index"]}]},
}


class OpenApi(BaseHTTPRequestHandler):
    """An API that allows every origin (Access-Control-Allow-Origin: *) and records what reaches it."""

    hits: list[str] = []

    def log_message(self, *args) -> None:
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        OpenApi.hits.append(self.command)
        data = json.dumps({"account": "secret"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Headers", "*")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_OPTIONS = _answer


class Attacker(BaseHTTPRequestHandler):
    """Another origin on this machine: serves an empty page the test runs its script in."""

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        data = b"<!doctype html><title>elsewhere</title><p>elsewhere</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def serve(handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def env(make_site) -> Iterator[tuple[DevApp, str, str]]:
    """The dev server, the API URL its spec names, and another origin's page URL."""
    OpenApi.hits.clear()
    api, attacker = serve(OpenApi), serve(Attacker)
    api_url = f"http://127.0.0.1:{api.server_address[1]}/v1/account"
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Bank", "version": "1"},
        "servers": [{"url": f"http://127.0.0.1:{api.server_address[1]}/v1"}],
        "paths": {},
    }
    site = make_site(
        {
            "docs.json": json.dumps(CONFIG),
            "openapi.json": json.dumps(spec),
            "index.mdx": "---\ntitle: Home\n---\n\nUnreleased draft\n",
        }
    )
    app = start(site, watch=False)
    yield app, api_url, f"http://localhost:{attacker.server_address[1]}/"
    app.stop()
    for server in (api, attacker):
        server.shutdown()
        server.server_close()


SEND = """([proxy, target, method]) => fetch(proxy + '?url=' + encodeURIComponent(target),
    {method, body: method === 'POST' ? '{"amount": 1000}' : undefined})
  .then(r => r.text().then(t => 'read ' + r.status + ' ' + t), e => 'blocked: ' + e.name)"""


def test_another_origin_cannot_use_the_proxy(page: Page, env):
    app, api_url, elsewhere = env
    page.goto(elsewhere)
    for method in ("POST", "GET"):
        result = page.evaluate(SEND, [app.url + "__docsgen/proxy", api_url, method])
        assert result.startswith("blocked"), result  # the browser could not read the reply
    assert OpenApi.hits == []  # and nothing reached the API
    listened = page.evaluate(
        """url => new Promise(done => {
            const es = new EventSource(url);
            es.onopen = () => { es.close(); done('open'); };
            es.onerror = () => { es.close(); done('refused'); };
        })""",
        app.url + "__docsgen/events",
    )
    assert listened == "refused"


def test_the_previews_own_pages_use_the_proxy(page: Page, env):
    app, api_url, _ = env
    page.goto(app.url)
    page.wait_for_function("window.__docsgenDev && window.__docsgenDev.ready === true", timeout=5000)
    for method in ("POST", "GET"):
        result = page.evaluate(SEND, ["/__docsgen/proxy", api_url, method])
        assert result == 'read 200 {"account": "secret"}', result
    assert OpenApi.hits == ["POST", "GET"]


@pytest.fixture
def rebinding_browser(browser_type: BrowserType, browser_type_launch_args: dict) -> Iterator[Browser]:
    """A Chromium whose DNS answers 127.0.0.1 for rebound.test (as a rebinding attack makes it)."""
    args = [*browser_type_launch_args.get("args", []), "--host-resolver-rules=MAP rebound.test 127.0.0.1"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    yield browser
    browser.close()


def test_a_rebound_name_cannot_read_the_preview(rebinding_browser: Browser, env):
    app, api_url, _ = env
    port = app.server.server_address[1]
    page = rebinding_browser.new_page()
    response = page.goto(f"http://rebound.test:{port}/")
    assert response is not None and response.status == 403
    assert "Unreleased draft" not in page.content() and "DNS rebinding" in page.content()
    # the rebound page is same-origin with itself: were it served, it could read everything, the proxy too
    result = page.evaluate(SEND, ["/__docsgen/proxy", api_url, "POST"])
    assert result.startswith("read 403"), result
    assert OpenApi.hits == []
    page.close()
