"""What `docsgen build` emits for the playground: body examples, ParamField inputs of `api:` pages, the WebSocket
console of AsyncAPI channel pages, the OAuth callback page, scripts per page type, and the dev proxy's token hosts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from docsgen.build import build
from docsgen.dev.app import start
from docsgen.dev.proxy import ProxyError, check_target
from tests.htmldom import parse
from tests.playground_servers import write_site

CHAT = """asyncapi: 2.6.0
info: {title: Chat, version: "1"}
servers:
  ws: {url: "chat.example.com/socket", protocol: wss}
  mq: {url: "broker.example.com", protocol: mqtt}
channels:
  rooms:
    publish: {operationId: say, message: {name: Say, payload: {type: object, properties: {text: {type: string, example: hi}}}}}
    subscribe: {operationId: hear, message: {name: Heard, payload: {type: object}}}
"""
MQTT_ONLY = CHAT.replace('  ws: {url: "chat.example.com/socket", protocol: wss}\n', "")


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("data")
    extra = {"chat.yaml": CHAT, "mq.yaml": MQTT_ONLY, "index.mdx": "---\ntitle: Home\n---\n\nHello.\n"}
    extra["plain.mdx"] = (
        '---\ntitle: Plain\n---\n\n<ParamField query="q" type="string">Not an API page.</ParamField>\n'
    )
    extra["mq.mdx"] = '---\ntitle: Broker\nasyncapi: "/mq.yaml rooms"\n---\n'
    docs = write_site(tmp / "docs", 8001, 8002, extra)
    config = json.loads((docs / "docs.json").read_text())
    config["navigation"]["groups"][0]["pages"] = ["index", "plain", "order", "mq"]
    (docs / "docs.json").write_text(json.dumps(config))
    result = build(docs, tmp / "out", workers=1)
    assert result.warnings == []
    return tmp / "out"


def page_of(out: Path, rel: str):
    return parse((out / rel / "index.html" if rel else out / "index.html").read_text(encoding="utf-8"))


def api_data(out: Path, rel: str) -> dict:
    text = (out / rel / "index.html").read_text(encoding="utf-8")
    match = re.search(r'<script type="application/json" id="dg-api">(.*?)</script>', text, re.S)
    assert match, f"{rel} has no playground data"
    return json.loads(match.group(1))


def scripts(out: Path, rel: str) -> list[str]:
    """The scripts a page loads: with the page, or when the reader opens the playground (the loader's list)."""
    found = []
    for s in page_of(out, rel).find_all("script"):
        if s.attrs.get("src"):
            found += [s.attrs["src"], *json.loads(s.attrs.get("data-scripts") or "[]")]
    return [src.split("?")[0].rsplit("/", 1)[-1] for src in found]


def test_named_body_examples_reach_the_playground(out: Path) -> None:
    content = api_data(out, "api-reference/add-pet")["body"]["contents"][0]
    assert [e["label"] for e in content["examples"]] == ["A small cat", "A big dog"]
    assert content["example"] == content["examples"][0]["value"] == {"name": "Tom", "age": 2, "kind": "cat"}
    assert content["examples"][1]["value"]["owner"] == {"email": "a@b.c"}
    kind = content["schema"]["properties"]["kind"]
    assert (kind["pre"], kind["post"]) == (["beta"], ["stable soon"])  # x-mint pills reach the playground


def test_paramfields_of_an_api_page_become_inputs(out: Path) -> None:
    data = api_data(out, "order")
    assert [(p["in"], p["name"], p["required"], p["schema"]["type"]) for p in data["parameters"]] == [
        ("query", "dry_run", False, "boolean"),
        ("header", "X-Tenant", True, "string"),
    ]
    body = data["body"]["contents"][0]["schema"]
    assert body["required"] == ["item"]
    assert body["properties"]["count"] == {"type": "integer", "default": 1}
    assert body["properties"]["address"]["properties"] == {"city": {"type": "string"}}  # nested ParamField
    assert "city" not in body["properties"]
    field = page_of(out, "order").find("div", cls="dg-field", id="address.city") or next(
        n
        for n in page_of(out, "order").find_all("div", cls="dg-field")
        if "city" in (n.attrs.get("id") or "")
    )
    assert json.loads(field.attrs["data-pg"])["parent"] == "address"


def test_websocket_console_data_and_script_only_where_there_is_a_ws_server(out: Path) -> None:
    mount = page_of(out, "websockets/rooms").find("div", cls="dg-ws")
    data = json.loads(mount.attrs["data-ws"])
    assert data["urls"] == [
        "wss://chat.example.com/socket/rooms"
    ]  # the mqtt server cannot be reached from a page
    assert [(m["name"], json.loads(m["example"])) for m in data["messages"]] == [("Say", {"text": "hi"})]
    assert "playground-ws.js" in scripts(out, "websockets/rooms")
    assert page_of(out, "mq").find("div", cls="dg-ws") is None
    assert "playground-ws.js" not in scripts(out, "mq")
    assert (out / "_static" / "playground-ws.css").is_file()


def test_pages_without_a_playground_load_no_playground_script(out: Path) -> None:
    endpoint = scripts(out, "api-reference/add-pet")
    for name in (
        "playground.js",
        "playground-base.js",
        "playground-form.js",
        "playground-oauth.js",
        "playground-env.js",
    ):
        assert name in endpoint
    assert "playground-loader.js" in endpoint
    for rel in ("", "plain"):
        assert not [s for s in scripts(out, rel) if s.startswith("playground")], rel
    assert "data-pg" not in (out / "plain" / "index.html").read_text()  # a ParamField outside `api:` pages


def test_the_oauth_callback_page_is_part_of_the_site(out: Path) -> None:
    callback = parse((out / "_static" / "oauth-callback.html").read_text())
    src = callback.find("script").attrs["src"]
    assert src == "js/oauth-callback.js" and (out / "_static" / src).is_file()
    code = (out / "_static" / src).read_text()
    assert "postMessage(message, location.origin)" in code  # never to another origin


def test_the_dev_proxy_allows_the_specs_token_urls_and_nothing_more(tmp_path: Path) -> None:
    docs = write_site(tmp_path / "docs", 8101, 8102)
    app = start(docs, watch=False)
    try:
        policy = app.server.proxy_policy()
        assert check_target("http://127.0.0.1:8102/token", policy)[:3] == ("http", "127.0.0.1", 8102)
        assert check_target("http://127.0.0.1:8101/v1/me", policy)[2] == 8101
        with pytest.raises(ProxyError):
            check_target("http://127.0.0.1:8103/token", policy)
    finally:
        app.stop()


def test_documented_fields_survive_odd_input() -> None:
    from docsgen.openapi.render.playground import MAX_FIELDS, documented_fields, manual_inputs

    html = '<div data-pg="{not json"></div><div data-pg="[1]"></div>' + "".join(
        f'<div data-pg="{{&quot;in&quot;: &quot;body&quot;, &quot;name&quot;: &quot;f{i}&quot;}}"></div>'
        for i in range(MAX_FIELDS + 50)
    )
    fields = documented_fields(html)
    assert len(fields) == MAX_FIELDS and fields[0]["name"] == "f0"
    params, body = manual_inputs(
        [
            {"in": "body", "name": "orphan", "parent": "nowhere", "path": "nowhere.orphan"},
            {"in": "query", "name": "n", "type": "Number", "default": "2.5", "enum": ["1", "x"]},
            {"in": "body", "name": "tags", "type": "array<integer>"},
            {"in": "body", "name": "upload", "type": "file"},
            {"name": "legacy"},  # no location: a query parameter, as before
        ]
    )
    assert body is not None and set(body["contents"][0]["schema"]["properties"]) == {"tags", "upload"}
    assert body["contents"][0]["schema"]["properties"]["tags"] == {
        "type": "array",
        "items": {"type": "integer"},
    }
    assert body["contents"][0]["schema"]["properties"]["upload"] == {"type": "string", "binary": True}
    assert params[0]["schema"] == {"type": "number", "default": 2.5, "enum": [1.0, "x"]}
    assert (params[1]["name"], params[1]["in"]) == ("legacy", "query")
