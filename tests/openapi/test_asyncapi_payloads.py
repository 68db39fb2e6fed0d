"""AsyncAPI 3.0 channel pages show every message's payload schema and headers."""

from __future__ import annotations

import json

from docsgen.build import build

SPEC = """asyncapi: 3.0.0
info: {title: Chat, version: "1"}
servers:
  prod: {host: chat.example.com, protocol: wss}
channels:
  room:
    address: /rooms/{roomId}
    messages:
      chatMessage: {$ref: '#/components/messages/ChatMessage'}
      typing:
        name: Typing
        payload:
          schemaFormat: application/vnd.aai.asyncapi+json;version=3.0.0
          schema:
            type: object
            properties:
              userTyping: {type: string, description: Who is typing now}
      presence:
        name: Presence
        headers:
          type: object
          properties:
            x-trace: {type: string, description: Trace header value}
        payload:
          type: object
          properties:
            online: {type: boolean, description: Whether the user is online}
operations:
  receiveMessage:
    action: receive
    channel: {$ref: '#/channels/room'}
    messages:
      - $ref: '#/channels/room/messages/chatMessage'
  sendAnything:
    action: send
    channel: {$ref: '#/channels/room'}
components:
  messages:
    ChatMessage:
      name: ChatMessage
      payload:
        type: object
        properties:
          text: {type: string, description: The chat text body}
"""


def _site(make_site, spec: str):
    nav = {"tabs": [{"tab": "Home", "pages": ["index"]}, {"tab": "Events", "asyncapi": "asyncapi.yaml"}]}
    docs = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}, "navigation": nav}
    return make_site({"docs.json": json.dumps(docs), "index.mdx": "# Home\n", "asyncapi.yaml": spec})


def test_channel_page_shows_every_message_payload_and_headers(make_site, tmp_path):
    out = tmp_path / "out"
    result = build(_site(make_site, SPEC), out)
    assert not [d for d in result.diagnostics if d.severity.value != "info"]
    page = next(out.rglob("room/index.html")).read_text()
    for text in (
        "The chat text body",
        "Who is typing now",
        "Whether the user is online",
        "Trace header value",
    ):
        assert text in page, text


def test_messages_no_operation_names_are_shown_too(make_site, tmp_path):
    only_receive = SPEC.split("  sendAnything:")[0] + SPEC[SPEC.index("components:") :]
    out = tmp_path / "out"
    build(_site(make_site, only_receive), out)
    page = next(out.rglob("room/index.html")).read_text()
    assert ">Messages</h2>" in page and "Whether the user is online" in page and "Who is typing now" in page
