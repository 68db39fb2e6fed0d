"""The API playground through `docsgen dev`'s proxy, in chromium: an answer cut at the proxy's limit is reported
as cut (it was 'Could not reach the server'), and an answer within the limit shows. Upstream: a real HTTP server
on 127.0.0.1 sending its answer slowly, without a length (tests/playground_servers.py SlowApi)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from docsgen.dev import proxy_stream
from docsgen.dev.app import start
from tests.playground_servers import SlowApi, serve


@pytest.fixture
def dev(make_site):
    server = serve(SlowApi)
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
