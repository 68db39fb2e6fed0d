"""The WebSocket console of AsyncAPI channel pages, in chromium, against a real echo server on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading

import pytest
from playwright.sync_api import Page, expect
from websockets.sync.server import ServerConnection, serve

from tests.playground_servers import running_site

pytestmark = pytest.mark.browser

CHAT = """asyncapi: 2.6.0
info: {title: Echo, version: "1"}
servers:
  local: {url: "127.0.0.1:__WS__", protocol: ws}
  other: {url: "broker.example.com", protocol: mqtt}
channels:
  /echo:
    publish:
      operationId: sendPing
      message:
        oneOf:
          - name: ping
            payload:
              type: object
              properties:
                type: {type: string, const: ping}
                id: {type: integer}
            examples: [{payload: {type: ping, id: 7}}]
          - name: hello
            payload: {type: object, properties: {greeting: {type: string, example: hi}}}
    subscribe:
      operationId: receivePong
      message: {name: pong, payload: {type: object}}
"""


class Echo:
    """Answers each message with {"echo": <message>} and then "bye" after a "close-me" message."""

    received: list[str] = []

    @staticmethod
    def handler(conn: ServerConnection) -> None:
        for message in conn:
            Echo.received.append(str(message))
            conn.send(json.dumps({"echo": json.loads(message) if str(message).startswith("{") else message}))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    server = serve(Echo.handler, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.socket.getsockname()[1]
    try:
        with running_site(
            tmp_path_factory.mktemp("ws"), {"chat.yaml": CHAT.replace("__WS__", str(port))}
        ) as env:
            env["ws"] = f"ws://127.0.0.1:{port}/echo"
            yield env
    finally:
        server.shutdown()


def test_connect_send_the_schema_example_see_the_stream_disconnect(page: Page, site: dict) -> None:
    page.set_default_timeout(10000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site["site"] + "websockets/echo/")
    expect(page.locator("html")).to_have_attribute("data-ws-console", "ready")
    console = page.get_by_role("region", name="WebSocket console")
    expect(console.get_by_label("Server URL")).to_have_value(site["ws"])  # the ws server, not the mqtt one
    message = console.get_by_label("Message to send")
    assert json.loads(message.input_value()) == {"type": "ping", "id": 7}
    send = console.get_by_role("button", name="Send")
    expect(send).to_be_disabled()
    console.get_by_role("button", name="Connect").click()
    expect(console.locator(".dg-ws-state")).to_contain_text("Connected to " + site["ws"])
    send.click()
    received = console.locator('.dg-ws-entry[data-kind="received"] pre')
    expect(received).to_have_count(1)
    assert json.loads(received.first.inner_text()) == {"echo": {"type": "ping", "id": 7}}
    console.get_by_label("Message", exact=True).select_option(label="hello")
    assert json.loads(message.input_value()) == {"greeting": "hi"}
    message.fill('{"n": 2}')
    send.click()
    expect(received).to_have_count(2)
    assert json.loads(received.nth(1).inner_text()) == {"echo": {"n": 2}}
    assert Echo.received[-2:] == ['{\n  "type": "ping",\n  "id": 7\n}', '{"n": 2}']
    expect(console.locator('.dg-ws-entry[data-kind="sent"]')).to_have_count(2)
    console.get_by_role("button", name="Disconnect").click()
    expect(console.locator(".dg-ws-state")).to_contain_text("Disconnected (code 1000")
    expect(send).to_be_disabled()
    assert errors == []


def test_phone_width_keeps_the_console_inside_the_page(page: Page, site: dict) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(site["site"] + "websockets/echo/")
    expect(page.locator("html")).to_have_attribute("data-ws-console", "ready")
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]


def test_a_refused_connection_is_explained(page: Page, site: dict) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there any more
    page.goto(site["site"] + "websockets/echo/")
    console = page.get_by_role("region", name="WebSocket console")
    console.get_by_label("Server URL").fill(f"ws://127.0.0.1:{port}/echo")
    console.get_by_role("button", name="Connect").click()
    expect(console.locator(".dg-ws-state")).to_contain_text("Disconnected (code 1006")
    expect(console.get_by_role("button", name="Connect")).to_be_enabled()
    expect(console.get_by_role("button", name="Send")).to_be_disabled()
