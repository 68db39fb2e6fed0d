"""The API playground through `docsgen dev`'s proxy, in chromium: an answer cut at the proxy's limit is reported
as cut (it was 'Could not reach the server'), and an answer within the limit shows. Upstream: a real HTTP server
on 127.0.0.1 sending its answer slowly, without a length."""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Page, expect

from docsgen.dev import proxy_stream
from docsgen.dev.app import start


class Slow(BaseHTTPRequestHandler):
    """`/stream/N`: N MB of text in 256 KB pieces, no Content-Length (the end is the end of the connection)."""

    protocol_version = "HTTP/1.1"

    def do_GET(self):
        size = int(self.path.rsplit("/", 1)[1]) * 1024 * 1024
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Connection", "close")
        self.end_headers()
        sent = 0
        try:
            while sent < size:
                self.wfile.write(b"z" * (256 * 1024))
                sent += 256 * 1024
                time.sleep(0.005)
        except OSError:
            pass
        self.close_connection = True

    def log_message(self, *args):
        pass


@pytest.fixture
def dev(make_site):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    ok = {"200": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}}}}
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Slow", "version": "1"},
        "servers": [{"url": f"http://127.0.0.1:{server.server_address[1]}"}],
        "paths": {
            "/stream/16": {"get": {"summary": "Big answer", "operationId": "big", "responses": ok}},
            "/stream/1": {"get": {"summary": "Small answer", "operationId": "small", "responses": ok}},
        },
    }
    config = {
        "name": "P",
        "theme": "mint",
        "colors": {"primary": "#0D9373"},
        "navigation": {
            "groups": [{"group": "Home", "pages": ["index"]}, {"group": "API", "openapi": "openapi.json"}]
        },
    }
    site = make_site(
        {"docs.json": json.dumps(config), "openapi.json": json.dumps(spec), "index.mdx": "# Home\n"}
    )
    app = start(site, watch=False)
    yield app
    app.stop()
    server.shutdown()
    server.server_close()


def _send(page: Page, url: str) -> None:
    page.set_default_timeout(20000)
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-playground", "interactive")
    page.get_by_role("button", name=re.compile("Try it")).click()
    expect(page.get_by_label("Send through the docs proxy (avoids CORS)")).to_be_checked()
    page.get_by_role("button", name="Send").click()


def test_the_playground_says_the_proxy_cut_an_answer(dev, page: Page, monkeypatch):
    monkeypatch.setattr(proxy_stream, "MAX_RESPONSE_BYTES", 4 * 1024 * 1024)
    _send(page, dev.url + "api-reference/big-answer/")
    error = page.locator(".dg-pg-error")
    expect(error).to_contain_text("The answer broke off (HTTP 200)")
    expect(error).to_contain_text("at most 4 MB")
    _send(page, dev.url + "api-reference/small-answer/")
    expect(page.locator(".dg-pg-status")).to_have_attribute("data-status", "200")
    expect(page.locator(".dg-pg-error")).to_have_count(0)
