"""The API playground in the page's language, in chromium, on a site in German and Arabic: the OAuth box (flows,
labels, buttons, its status and failure), validation messages, the explanation of a request nothing answered, the
WebSocket console of an AsyncAPI channel, the "Deprecated" badge and the pagination's label. The site is served by
a small static server on 127.0.0.1; the API, the token endpoint and the WebSocket server are a port nobody
listens on, so every request fails the way a reader's would."""

from __future__ import annotations

import functools
import json
import re
import socket
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from docsgen.build import build
from docsgen.render.strings import catalogue
from tests.conftest import write_tree

pytestmark = pytest.mark.browser


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


DEAD = _closed_port()
SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Items", "version": "1"},
    "servers": [{"url": f"http://127.0.0.1:{DEAD}/v1"}],
    "components": {
        "securitySchemes": {
            "oauth": {
                "type": "oauth2",
                "flows": {
                    "authorizationCode": {
                        "authorizationUrl": f"http://127.0.0.1:{DEAD}/authorize",
                        "tokenUrl": f"http://127.0.0.1:{DEAD}/token",
                        "scopes": {"read": "Read"},
                    },
                    "clientCredentials": {
                        "tokenUrl": f"http://127.0.0.1:{DEAD}/token",
                        "scopes": {"read": "Read"},
                    },
                },
            }
        }
    },
    "paths": {
        "/items/{id}": {
            "get": {
                "summary": "Get an item",
                "deprecated": True,
                "security": [{"oauth": ["read"]}],
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                ],
                "responses": {"200": {"description": "The item"}},
            }
        }
    },
}
CHAT = f"""asyncapi: 2.6.0
info: {{title: Echo, version: "1"}}
servers:
  local: {{url: "127.0.0.1:{DEAD}", protocol: ws}}
channels:
  /echo:
    publish:
      message: {{name: ping, payload: {{type: object}}, examples: [{{payload: {{id: 7}}}}]}}
"""
LANGS = (("de", ""), ("ar", "ar/"))


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pg-langs")
    out = tmp / "out"
    out.mkdir()
    docs = {
        "name": "Acme",
        "theme": "mint",
        "colors": {"primary": "#4F46E5"},
        "navigation": {
            "languages": [
                {
                    "language": code,
                    "default": code == "de",
                    "groups": [{"group": code, "pages": [f"{p}item", f"{p}echo", f"{p}end"]}],
                }
                for code, p in LANGS
            ]
        },
    }
    files = {"docs.json": json.dumps(docs), "openapi.json": json.dumps(SPEC), "chat.yaml": CHAT}
    for _, prefix in LANGS:
        files[f"{prefix}item.mdx"] = "---\ntitle: Item\nopenapi: openapi.json GET /items/{id}\n---\n"
        files[f"{prefix}echo.mdx"] = "---\ntitle: Echo\nasyncapi: chat.yaml /echo\n---\n"
        files[f"{prefix}end.mdx"] = "---\ntitle: End\n---\n\nDone.\n"
    build(write_tree(tmp / "docs", files), out)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.parametrize(("code", "prefix"), LANGS)
def test_the_playground_speaks_the_page_language(browser, site, code, prefix):
    words = catalogue()[code]
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site}/{prefix}item/")
    # the page itself: the deprecated badge in the title and the sidebar, the pagination's name
    expect(page.locator("#page-title .dg-badge-deprecated")).to_have_text(words["deprecated"])
    expect(page.locator(".dg-sidebar .dg-badge-deprecated").first).to_have_text(words["deprecated"])
    assert page.locator("nav.dg-pagination").get_attribute("aria-label") == words["pagination"]
    page.locator(".dg-pg-toggle").click()
    dialog = page.locator(".dg-pg-dialog")
    # the OAuth box
    box = dialog.locator(".dg-pg-oauth")
    expect(box.locator(".dg-pg-oauth-flow option")).to_have_text(
        [words["oauth_code_flow"], words["oauth_client_flow"]]
    )
    expect(box.get_by_label(words["client_id"])).to_be_visible()
    expect(box.locator(".dg-pg-scopes legend")).to_have_text(words["scopes"])
    expect(box.locator(".dg-pg-oauth-go")).to_have_text(words["authorize"])
    box.locator(".dg-pg-oauth-flow").select_option("1")
    go = box.locator(".dg-pg-oauth-go")
    expect(go).to_have_text(words["get_token"])
    expect(box.get_by_label(words["client_secret"])).to_be_visible()
    go.click()
    status = box.locator(".dg-pg-oauth-status")
    expect(status).to_have_text(words["client_id_first"])
    box.get_by_label(words["client_id"]).fill("docs-client")
    go.click()
    failed = words["token_failed"].split("{url}")[0]
    expect(status).to_contain_text(words["no_token"].replace("{error}", "") + failed)
    expect(status).to_contain_text(words["token_cors"])  # a static site has no proxy
    # validation messages: a required parameter left empty, a number below its minimum
    dialog.locator('[data-auth="oauth:token"]').fill("a-token")
    dialog.locator('[data-field="query:limit"] input').fill("0")
    dialog.locator(".dg-pg-send:not(.dg-pg-oauth-go)").click()
    problems = dialog.locator(".dg-pg-errors")
    expect(problems).to_contain_text(words["fix_fields"].replace("{n}", "2"))
    lines = problems.locator("li").all_text_contents()
    field = words["field_error"]
    assert lines == [
        field.replace("{path}", "id").replace("{message}", words["val_required"]),
        field.replace("{path}", "limit").replace("{message}", words["val_min"].replace("{n}", "1")),
    ], lines
    # a request nothing answers: the explanation, in the page's language
    dialog.locator('[data-field="path:id"] input').fill("42")
    dialog.locator('[data-field="query:limit"] input').fill("5")
    dialog.locator(".dg-pg-send:not(.dg-pg-oauth-go)").click()
    explained = dialog.locator(".dg-pg-error")
    origin = f"http://127.0.0.1:{DEAD}"
    expect(explained.locator(".dg-pg-error-title")).to_have_text(
        words["unreachable_title"].replace("{origin}", origin)
    )
    expect(explained).to_contain_text(words["unreachable_hint"])
    expect(explained).to_contain_text(words["browser_message"].split("{message}")[0].strip())
    text = dialog.inner_text()
    for english in ("Get token", "Client ID", "is required", "Could not reach", "must be at least"):
        assert english not in text, english
    # the WebSocket console
    page.goto(f"{site}/{prefix}echo/")
    expect(page.locator("html")).to_have_attribute("data-ws-console", "ready")
    console = page.get_by_role("region", name=words["ws_console"])
    expect(console.locator(".dg-ws-title")).to_have_text(words["ws_console"])
    expect(console.get_by_label(words["server_url"])).to_have_value(f"ws://127.0.0.1:{DEAD}/echo")
    expect(console.get_by_label(words["message_to_send"])).to_be_visible()
    expect(console.locator(".dg-ws-state")).to_have_text(words["not_connected"])
    expect(console.locator(".dg-ws-clear")).to_have_text(words["clear"])
    assert console.locator(".dg-ws-log").get_attribute("aria-label") == words["messages"]
    connect = console.locator(".dg-ws-connect")
    expect(connect).to_have_text(words["connect"])
    connect.click()
    expect(console.locator(".dg-ws-state")).to_have_text(words["disconnected"].replace("{code}", "1006"))
    expect(console.locator(".dg-ws-entry").last).to_contain_text(
        words["ws_disconnected"].replace("{code}", "1006")
    )
    expect(connect).to_have_text(words["connect"])
    assert not re.search(r"\b(Connect|Not connected|WebSocket console)\b", console.inner_text())
    assert not errors, errors
    context.close()
