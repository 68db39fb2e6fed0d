"""AsyncAPI 2.6 / 3.0 channel pages through `docsgen build`: frontmatter `asyncapi`, navigation `asyncapi`, warnings."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.build import build
from tests.conftest import FIXTURES
from tests.htmldom import parse
from tests.nav.test_build_nav import sidebar

BASE = {"name": "A", "theme": "mint", "colors": {"primary": "#112233"}}
V26 = {
    "asyncapi": "2.6.0",
    "info": {"title": "Chat", "version": "1"},
    "servers": {"prod": {"url": "chat.example.com/ws", "protocol": "wss"}},
    "channels": {
        "rooms/{id}": {
            "description": "A chat **room**.",
            "publish": {
                "operationId": "postMessage",
                "message": {"$ref": "#/components/messages/Post"},
            },
            "subscribe": {
                "operationId": "roomEvents",
                "message": {
                    "oneOf": [{"$ref": "#/components/messages/Post"}, {"name": "Joined", "payload": {}}]
                },
            },
        }
    },
    "components": {
        "messages": {
            "Post": {
                "name": "Post",
                "payload": {
                    "type": "object",
                    "required": ["body"],
                    "properties": {"body": {"type": "string", "description": "What was said <b>"}},
                },
                "examples": [{"payload": {"body": "hello"}}],
            }
        }
    },
}


def _site(tmp_path: Path, files: dict[str, str], nav: dict) -> Path:
    docs = tmp_path / "docs"
    for rel, text in {**files, "docs.json": json.dumps({**BASE, "navigation": nav})}.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text)
    return docs


def _page(out: Path, rel: str):
    return parse((out / rel / "index.html").read_text(encoding="utf-8"))


def test_frontmatter_channel_page_from_a_real_asyncapi_3_document(tmp_path):
    asyncapi = (FIXTURES / "mintlify-docs" / "asyncapi.yaml").read_text()
    page = '---\ntitle: "Websocket"\nasyncapi: "/asyncapi.yaml channelOne"\n---\nWritten intro.\n'
    docs = _site(
        tmp_path, {"asyncapi.yaml": asyncapi, "ws.mdx": page}, {"groups": [{"group": "G", "pages": ["ws"]}]}
    )
    out = tmp_path / "o"
    result = build(docs, out)
    assert result.warnings == []
    dom = _page(out, "ws")
    main = dom.find("div", cls="dg-api")
    assert main.attrs["data-kind"] == "channel"
    assert "wss://echo.websocket.org" in main.text
    assert dom.find("em") is not None and "markdown" in dom.find("em").text  # channel description as Markdown
    headings = [h.text for h in main.find_all("h2")]
    assert headings == ["Receive: sendTestMessage", "Send: receiveTestMessage", "Send: receiveTimestamp"]
    fields = main.find("div", cls="dg-api-fields")  # the OpenAPI schema renderer's rows
    assert fields is not None and "The text of your message" in fields.text
    assert "Written intro." in dom.text
    examples = dom.find("div", cls="dg-api-examples")
    assert '"text"' in examples.text
    twin = (out / "ws.md").read_text() if (out / "ws.md").exists() else (out / "ws" / "index.md").read_text()
    assert "The text of your message" in twin


def test_navigation_asyncapi_generates_a_page_per_channel_from_asyncapi_2_6(tmp_path):
    docs = _site(
        tmp_path,
        {"chat.json": json.dumps(V26), "index.mdx": "---\ntitle: Home\n---\nHi\n"},
        {"groups": [{"group": "Home", "pages": ["index"]}, {"group": "Chat", "asyncapi": "chat.json"}]},
    )
    out = tmp_path / "o"
    result = build(docs, out)
    assert result.warnings == []
    dom = _page(out, "websockets/roomsid")
    side = sidebar(out, dom)
    assert "rooms/{id}" in side.text
    main = dom.find("div", cls="dg-api")
    assert [h.text for h in main.find_all("h2")] == ["Send: postMessage", "Receive: roomEvents"]
    assert [h.text for h in main.find_all("h3")] == ["Post", "Post", "Joined"]
    # balanced HTML in spec text renders as MDX does (docsgen.openapi.descriptions, sanitised); a tag left open is
    # spec text, escaped (not an element that would swallow what follows)
    assert "What was said <b>" in main.text and main.find("b") is None and main.find("script") is None
    assert "wss://chat.example.com/ws" in main.text
    assert '"hello"' in dom.find("div", cls="dg-api-examples").text


def test_unknown_channel_missing_file_and_not_asyncapi_are_located_warnings(tmp_path):
    pages = {
        "a.mdx": '---\ntitle: A\nasyncapi: "/chat.json lobby"\n---\nBody A\n',
        "b.mdx": '---\ntitle: B\nasyncapi: "/missing.yaml x"\n---\nBody B\n',
        "c.mdx": '---\ntitle: C\nasyncapi: "/openapi.json x"\n---\nBody C\n',
        "d.mdx": '---\ntitle: D\nasyncapi: "../../etc/passwd x"\n---\nBody D\n',
        "e.mdx": "---\ntitle: E\nasyncapi: 3\n---\nBody E\n",
        "chat.json": json.dumps(V26),
        "openapi.json": json.dumps({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}),
    }
    nav = {"groups": [{"group": "G", "pages": ["a", "b", "c", "d", "e"]}]}
    docs = _site(tmp_path, pages, nav)
    out = tmp_path / "o"
    result = build(docs, out)
    by_file = {d.path: d for d in result.warnings}
    assert set(by_file) == {"a.mdx", "b.mdx", "c.mdx", "d.mdx", "e.mdx"}
    assert by_file["a.mdx"].code == "asyncapi.unknown-channel" and "rooms/{id}" in by_file["a.mdx"].hint
    assert by_file["b.mdx"].code == "asyncapi.missing-file"
    assert by_file["c.mdx"].code == "asyncapi.unsupported-version"
    assert by_file["d.mdx"].code == "asyncapi.outside-docs"
    assert by_file["e.mdx"].code == "asyncapi.frontmatter"
    assert all(d.line == 2 for d in result.warnings)
    for name in "abcde":
        assert f"Body {name.upper()}" in _page(out, name).text  # the page is still built


def test_asyncapi_document_by_url(tmp_path):
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    served = tmp_path / "served"
    served.mkdir()
    (served / "chat.json").write_text(json.dumps(V26))

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(served)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        nav = {"groups": [{"group": "Chat", "asyncapi": {"source": f"{base}/chat.json", "directory": "ws"}}]}
        page = f'---\ntitle: Room\nasyncapi: "{base}/chat.json rooms/{{id}}"\n---\nMine.\n'
        docs = _site(
            tmp_path,
            {"room.mdx": page},
            {**nav, "groups": [*nav["groups"], {"group": "G", "pages": ["room"]}]},
        )
        out = tmp_path / "o"
        result = build(docs, out)
        assert result.warnings == [], [d.format() for d in result.warnings]
        generated = _page(out, "ws/roomsid").find("div", cls="dg-api")
        assert "What was said" in generated.text
        own = _page(out, "room")
        assert "Mine." in own.text and own.find("div", cls="dg-api").attrs["data-kind"] == "channel"
        nav["groups"][0]["asyncapi"] = f"{base}/missing.json"
        (docs / "docs.json").write_text(json.dumps({**BASE, "navigation": nav}))
        result = build(docs, tmp_path / "o2")
        (problem,) = result.warnings
        assert problem.code == "asyncapi.http-status" and problem.path == "docs.json" and problem.line > 0
    finally:
        server.shutdown()
