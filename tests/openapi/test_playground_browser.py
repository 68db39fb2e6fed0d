"""The API playground in Debian's chromium against a real API on 127.0.0.1 (fixtures/playground + a test spec)."""

from __future__ import annotations

import base64
import functools
import io
import json
import re
import shutil
import socket
import struct
import subprocess
import threading
import time
import wave
import zlib
from email.parser import BytesParser
from email.policy import default as email_policy
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, expect

from docsgen.build import build

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "playground"
SPEC = REPO / "tests" / "playground_specs" / "api.yaml"
BASIC = "Basic " + base64.b64encode(b"alice:wonder land").decode()
VALID = {
    "/auth/bearer": ("authorization", "Bearer secret-bearer"),
    "/auth/basic": ("authorization", BASIC),
    "/auth/header": ("x-api-key", "k-123"),
    "/auth/oauth": ("authorization", "Bearer oauth-tok"),
}


def png(width: int, height: int) -> bytes:
    """A real PNG (red pixels) so the browser can decode it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    )


def wav() -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\x00\x10" * 1600)
    return buf.getvalue()


MEDIA = {
    "image": ("image/png", png(2, 3)),
    "audio": ("audio/wav", wav()),
    "video": ("video/mp4", b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + b"\x00" * 64),
    "text": ("text/plain; charset=utf-8", b"hello text body"),
    "big": ("text/plain", b"".join(b"line %06d of a big body\n" % i for i in range(12000))),
    "json": ("application/json", json.dumps({"list": [1, True, None], "word": "x"}).encode()),
}


class Api(BaseHTTPRequestHandler):
    """The API the playground calls: echoes what it receives and checks credentials, with CORS."""

    protocol_version = "HTTP/1.1"
    seen: list[dict] = []

    def log_message(self, *args: object) -> None:
        pass

    def _cors(self) -> None:
        self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
        self.send_header("Access-Control-Allow-Credentials", "true")
        self.send_header("Access-Control-Expose-Headers", "X-Request-Id")
        self.send_header("Vary", "Origin")

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        if not self.path.endswith("/nocors"):
            self._cors()
            self.send_header("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
            self.send_header(
                "Access-Control-Allow-Headers", self.headers.get("Access-Control-Request-Headers", "")
            )
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _reply(self, status: int, body: bytes, ctype: str = "application/json", cors: bool = True) -> None:
        self.send_response(status)
        if cors:
            self._cors()
        self.send_header("Content-Type", ctype)
        self.send_header("X-Request-Id", "req-1")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, data: object) -> None:
        self._reply(status, json.dumps(data).encode())

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        version, rest = parts[0], "/" + "/".join(parts[1:])
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k.lower(): v for k, v in self.headers.items()}
        info = {"version": version, "method": self.command, "path": rest, "query": parse_qs(url.query)}
        info["headers"] = headers
        Api.seen.append(info)
        ctype = headers.get("content-type", "")
        if rest in VALID:
            name, want = VALID[rest]
            ok = headers.get(name) == want
            return self._json(200 if ok else 401, {"ok": ok, "got": headers.get(name)})
        if rest == "/auth/query":
            ok = info["query"].get("api_key") == ["q-456"]
            return self._json(200 if ok else 401, {"ok": ok})
        if rest == "/auth/cookie":
            ok = "session_key=c-789" in headers.get("cookie", "")
            return self._json(200 if ok else 401, {"ok": ok, "got": headers.get("cookie")})
        if rest.startswith("/media/"):
            kind = rest.rsplit("/", 1)[1]
            return self._reply(200, MEDIA[kind][1], MEDIA[kind][0])
        if rest == "/missing":
            return self._json(404, {"error": "no such thing"})
        if rest == "/nocors":
            return self._reply(200, b'{"hidden": true}', cors=False)
        if rest == "/upload" and ctype.startswith("multipart/form-data"):
            msg = BytesParser(policy=email_policy).parsebytes(
                b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + raw
            )
            fields = {}
            for part in msg.iter_parts():
                name = part.get_param("name", header="content-disposition")
                data = part.get_payload(decode=True) or b""
                fields[name] = (
                    {"filename": part.get_filename(), "size": len(data), "text": data.decode("latin-1")}
                    if part.get_filename()
                    else data.decode()
                )
            info["multipart"] = fields
        elif ctype.startswith("application/x-www-form-urlencoded"):
            info["form"] = parse_qs(raw.decode())
        elif ctype.startswith("application/json"):
            info["json"] = json.loads(raw or b"null")
        elif raw:
            info["raw"] = raw.decode("latin-1")
            info["size"] = len(raw)
        self._json(201 if self.command == "POST" and rest == "/items" else 200, info)

    do_POST = do_PUT = do_DELETE = do_GET


class Site(SimpleHTTPRequestHandler):
    """The built site, plus /__proxy?url= forwarding like the dev server's proxy does."""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/__proxy"):
            return self._proxy()
        super().do_GET()

    def do_POST(self) -> None:
        self._proxy()

    def _proxy(self) -> None:
        target = parse_qs(urlsplit(self.path).query)["url"][0]
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)) or None
        keep = {
            k: v for k, v in self.headers.items() if k.lower() not in ("host", "origin", "content-length")
        }
        try:
            with urlopen(Request(target, data=body, headers=keep, method=self.command), timeout=5) as r:
                status, data, ctype = r.status, r.read(), r.headers.get("Content-Type", "")
        except Exception as exc:  # noqa: BLE001 - an HTTPError is a response too
            status = getattr(exc, "code", 502)
            data = exc.read() if hasattr(exc, "read") else b""
            ctype = "application/json"
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def serve(handler) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Signer:
    """An RSA key made with the openssl CLI; signs RS256 JWTs."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.private = folder / "private.pem"
        subprocess.run(
            [
                "openssl",
                "genpkey",
                "-algorithm",
                "RSA",
                "-pkeyopt",
                "rsa_keygen_bits:2048",
                "-out",
                str(self.private),
            ],
            check=True,
            capture_output=True,
        )
        self.public = subprocess.run(
            ["openssl", "pkey", "-in", str(self.private), "-pubout"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    def token(self, **claims: object) -> str:
        claims.setdefault("exp", int(time.time()) + 3600)
        head = b64url(json.dumps({"alg": "RS256", "typ": "JWT"}).encode())
        body = b64url(json.dumps(claims).encode())
        signed = subprocess.run(
            ["openssl", "dgst", "-sha256", "-sign", str(self.private)],
            input=f"{head}.{body}".encode(),
            check=True,
            capture_output=True,
        ).stdout
        return f"{head}.{body}.{b64url(signed)}"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """Start the API, build fixtures/playground pointed at it, serve the site; yield URLs and signers."""
    tmp = tmp_path_factory.mktemp("playground")
    api = serve(Api)
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    down_port = closed.getsockname()[1]
    closed.close()  # nothing listens there any more: connections are refused
    docs = tmp / "docs"
    shutil.copytree(FIXTURE, docs)
    spec = SPEC.read_text().replace("__API_PORT__", str(api.server_address[1]))
    (docs / "api.yaml").write_text(spec.replace("__DOWN_PORT__", str(down_port)))
    signer, stranger = Signer(tmp / "keys"), Signer(tmp / "other")
    (docs / "keys" / "public.pem").write_text(signer.public)
    config = json.loads((docs / "docs.json").read_text())
    config["api"]["mdx"]["server"] = f"http://127.0.0.1:{api.server_address[1]}/v1"
    (docs / "docs.json").write_text(json.dumps(config))
    out = tmp / "site"
    build(docs, out, workers=1)
    site = serve(functools.partial(Site, directory=str(out)))
    shots = tmp / "screenshots"
    shots.mkdir()
    yield {
        "site": f"http://127.0.0.1:{site.server_address[1]}/",
        "api": f"http://127.0.0.1:{api.server_address[1]}",
        "signer": signer,
        "stranger": stranger,
        "shots": shots,
    }
    site.shutdown()
    api.shutdown()


def shot(page: Page, env: dict, name: str) -> None:
    path = env["shots"] / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")


def open_playground(page: Page, env: dict, path: str) -> None:
    page.set_default_timeout(10000)
    page.on("console", lambda m: print(f"console[{m.type}]: {m.text}") if m.type == "error" else None)
    page.goto(env["site"] + path)
    expect(page.locator("html")).to_have_attribute("data-playground", re.compile(r"interactive|simple"))
    page.get_by_role("button", name=re.compile("Try it|Build a request")).click()


def field(page: Page, key: str):
    return page.locator(f'.dg-pg-field[data-field="{key}"]')


def response_json(page: Page) -> dict:
    expect(page.locator(".dg-pg-status")).to_be_visible(timeout=8000)
    return json.loads(page.locator(".dg-pg-body pre").inner_text())


def send(page: Page) -> None:
    page.locator(".dg-pg-response").evaluate("box => box.textContent = ''")
    page.get_by_role("button", name="Send").click()


def test_parameters_required_validation_and_live_samples(page: Page, env: dict) -> None:
    open_playground(page, env, "api-reference/get-item/")
    before = len(Api.seen)
    send(page)
    errors = page.locator(".dg-pg-errors")
    expect(errors).to_contain_text("itemId is required")
    expect(errors).to_contain_text("X-Trace is required")
    assert len(Api.seen) == before, "a request went out although required fields were empty"
    assert page.evaluate("document.activeElement.getAttribute('aria-invalid')") == "true"
    field(page, "path:itemId").locator("input").fill("42/a b")
    field(page, "header:X-Trace").locator("input").fill("t-1")
    field(page, "query:limit").locator("input").fill("500")
    expect(field(page, "query:limit").locator(".dg-pg-field-error")).to_have_text("must be at most 100")
    field(page, "query:limit").locator("input").fill("5")
    assert field(page, "query:q").locator("input").input_value() == "hello"  # x-default
    assert field(page, "query:limit").locator("input").get_attribute("max") == "100"
    field(page, "query:kind").locator("select").select_option(label="dog")
    field(page, "query:flag").locator("select").select_option(label="true")
    tags = field(page, "query:tags")
    for value in ("red", "blue"):
        tags.get_by_role("button", name="Add item").click()
        page.keyboard.type(value)
    curl = page.locator('.dg-api-panel[data-key="bash"] code')
    expect(curl).to_contain_text("/v1/items/42%2Fa%20b?q=hello&limit=5&kind=dog&tags=red&tags=blue&flag=true")
    expect(curl).to_contain_text("--header 'X-Trace: t-1'")
    expect(page.locator('.dg-api-panel[data-key="python"] code')).to_contain_text('"X-Trace": "t-1"')
    expect(page.locator('.dg-api-panel[data-key="go"] code')).to_contain_text(
        'req.Header.Add("X-Trace", "t-1")'
    )
    send(page)
    data = response_json(page)
    assert data["path"] == "/items/42%2Fa%20b"  # one path segment: the slash is encoded
    assert data["query"] == {
        "q": ["hello"],
        "limit": ["5"],
        "kind": ["dog"],
        "tags": ["red", "blue"],
        "flag": ["true"],
    }
    assert data["headers"]["x-trace"] == "t-1"
    expect(page.locator(".dg-pg-status")).to_have_attribute("data-status", "200")
    expect(page.locator(".dg-pg-time")).to_have_text(re.compile(r"^\d+ ms$"))
    size = page.locator(".dg-pg-size").inner_text()
    assert re.fullmatch(r"[\d.]+ (B|KB)", size)
    page.get_by_text(re.compile(r"Headers \(\d+\)")).click()
    expect(page.locator(".dg-pg-headers")).to_contain_text("req-1")  # exposed header
    shot(page, env, "get-item-response")


def test_server_dropdown_variables_and_refused_connection(page: Page, env: dict) -> None:
    open_playground(page, env, "api-reference/get-item/")
    field(page, "path:itemId").locator("input").fill("7")
    field(page, "header:X-Trace").locator("input").fill("x")
    field(page, "server:version").locator("select").select_option(label="v2")
    expect(page.locator(".dg-pg-dialog-url")).to_contain_text(env["api"] + "/v2/items/7")
    send(page)
    assert response_json(page)["version"] == "v2"
    page.get_by_label("Base URL").select_option(index=1)
    expect(page.locator('.dg-api-panel[data-key="bash"] code')).to_contain_text("/v1/items/7")
    assert page.locator('.dg-pg-field[data-field="server:version"]').count() == 0
    send(page)
    error = page.locator(".dg-pg-error")
    expect(error).to_contain_text("Could not reach http://127.0.0.1:", timeout=8000)
    expect(error).to_contain_text("refused the connection")
    shot(page, env, "refused-connection")


def test_json_body_prefill_validation_and_send(page: Page, env: dict) -> None:
    open_playground(page, env, "api-reference/create-item/")
    area = page.locator(".dg-pg-body-text")
    prefilled = json.loads(area.input_value())
    # docs.json examples.defaults = "required": only required fields, plus x-default (not the schema default "red")
    assert set(prefilled) == {"name", "count", "color"}
    assert prefilled["color"] == "blue"
    area.fill('{"name": "x", "count": -1')
    status = page.locator(".dg-pg-body-status")
    expect(status).to_contain_text("not valid JSON")
    area.fill('{"name": "x", "count": -1}')
    expect(status).to_contain_text("name must be at least 2 characters")
    expect(status).to_contain_text("count must be at least 0")
    send(page)
    expect(page.locator(".dg-pg-errors")).to_contain_text("Fix these fields before sending (2)")
    area.fill('{"name": "Rex", "count": 3, "owner": {"email": "a@b.c"}}')
    expect(status).to_have_text("Valid JSON for this schema.")
    expect(page.locator('.dg-api-panel[data-key="javascript"] code')).to_contain_text('"name": "Rex"')
    send(page)
    data = response_json(page)
    assert data["json"] == {"name": "Rex", "count": 3, "owner": {"email": "a@b.c"}}
    assert data["headers"]["content-type"] == "application/json"
    expect(page.locator(".dg-pg-status")).to_have_attribute("data-status", "201")
    shot(page, env, "json-body")


def test_multipart_upload_and_urlencoded(page: Page, env: dict) -> None:
    open_playground(page, env, "api-reference/upload-file/")
    field(page, "body:file").locator("input").set_input_files(
        {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"file contents 123"}
    )
    field(page, "body:note").locator("input").fill("hi there")
    expect(page.locator('.dg-api-panel[data-key="bash"] code')).to_contain_text("--form 'file=@notes.txt'")
    send(page)
    data = response_json(page)
    assert data["multipart"]["file"] == {"filename": "notes.txt", "size": 17, "text": "file contents 123"}
    assert data["multipart"]["note"] == "hi there"
    page.get_by_label("Content type").select_option("1")
    send(page)
    expect(page.locator(".dg-pg-errors")).to_contain_text("note is required")
    field(page, "body:note").locator("input").fill("a&b=c")
    field(page, "body:count").locator("input").fill("4")
    send(page)
    data = response_json(page)
    assert data["form"] == {"note": ["a&b=c"], "count": ["4"]}


def test_raw_text_and_binary_bodies(page: Page, env: dict) -> None:
    open_playground(page, env, "api-reference/send-raw-text/")
    area = page.locator(".dg-pg-body-text")
    assert (
        area.input_value() == "<string>"
    )  # examples.defaults "required": generated, not the documented example
    area.fill("plain words")
    send(page)
    data = response_json(page)
    assert data["raw"] == "plain words" and data["headers"]["content-type"] == "text/plain"
    page.get_by_label("Content type").select_option("1")
    page.locator('.dg-pg-editor input[type="file"]').set_input_files(
        {"name": "blob.bin", "mimeType": "application/octet-stream", "buffer": bytes(range(256)) * 4}
    )
    send(page)
    data = response_json(page)
    assert data["size"] == 1024 and data["headers"]["content-type"] == "application/octet-stream"


AUTH_CASES = [
    ("bearer-auth", {}, "authorization"),  # x-default pre-fills the token
    ("basic-auth", {"Username": "alice", "Password": "wonder land"}, "authorization"),
    ("header-key-auth", {"X-API-Key (header)": "k-123"}, "x-api-key"),
    ("query-key-auth", {"api_key (query)": "q-456"}, None),
    ("cookie-key-auth", {"session_key (cookie)": "c-789"}, "cookie"),
    ("oauth-auth", {"Access token (oauth)": "oauth-tok"}, "authorization"),
]


@pytest.mark.parametrize(("slug", "inputs", "header"), AUTH_CASES, ids=[c[0] for c in AUTH_CASES])
def test_each_auth_type_reaches_the_api(
    page: Page, env: dict, slug: str, inputs: dict, header: str | None
) -> None:
    open_playground(page, env, f"api-reference/{slug}/")
    if slug == "bearer-auth":
        assert page.get_by_label("Bearer token (bearer)").input_value() == "secret-bearer"
    for label, value in inputs.items():
        page.get_by_label(label).fill(value)
    send(page)
    data = response_json(page)
    assert data["ok"] is True, data
    stored = page.evaluate("Object.keys(sessionStorage).filter(k => k.startsWith('dg-pg-auth:'))")
    if inputs:
        assert stored, "credentials are kept in sessionStorage"
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('dg-pg-auth')).length") == 0
    if slug == "cookie-key-auth":
        assert "session_key" not in page.evaluate("document.cookie"), (
            "the cookie is removed after the request"
        )
    if slug == "oauth-auth":
        page.get_by_label("Method").select_option(label="None")
        send(page)
        assert response_json(page)["ok"] is False  # sent without credentials: the server refuses


def test_responses_render_by_content_type(page: Page, env: dict) -> None:
    open_playground(page, env, "api-reference/get-media/")
    choose = field(page, "path:name").locator("select")
    choose.select_option(label="image")
    send(page)
    img = page.locator(".dg-pg-body img")
    expect(img).to_have_attribute("src", re.compile(r"^blob:"))
    page.wait_for_function("document.querySelector('.dg-pg-body img').naturalWidth === 2")
    assert page.locator(".dg-pg-body img").evaluate("i => i.naturalHeight") == 3
    shot(page, env, "image-response")
    choose.select_option(label="audio")
    send(page)
    expect(page.locator(".dg-pg-body audio[controls]")).to_have_attribute("src", re.compile(r"^blob:"))
    page.wait_for_function("document.querySelector('.dg-pg-body audio').readyState >= 1")
    assert page.locator(".dg-pg-body audio").evaluate("a => a.duration") == pytest.approx(0.2, abs=0.01)
    choose.select_option(label="video")
    send(page)
    expect(page.locator(".dg-pg-body video[controls]")).to_have_attribute("src", re.compile(r"^blob:"))
    choose.select_option(label="json")
    send(page)
    expect(page.locator('.dg-pg-body[data-kind="json"] .dg-pg-key').first).to_have_text('"list"')
    assert page.locator(".dg-pg-body .dg-pg-lit").all_inner_texts() == ["true", "null"]
    choose.select_option(label="text")
    send(page)
    expect(page.locator('.dg-pg-body[data-kind="text"] pre')).to_have_text("hello text body")
    choose.select_option(label="big")
    send(page)
    code = page.locator(".dg-pg-body pre code")
    total = len(MEDIA["big"][1])
    expect(page.locator(".dg-pg-truncated")).to_contain_text(f"Showing 50,000 of {total:,} characters")
    assert len(code.inner_text()) == 50000
    started = time.perf_counter()
    page.get_by_role("button", name="Show all").click()
    page.wait_for_function(
        "document.querySelector('.dg-pg-body pre code').textContent.length === " + str(total)
    )
    assert time.perf_counter() - started < 5
    shot(page, env, "big-text-response")


def test_error_status_cors_failure_and_proxy(page: Page, env: dict) -> None:
    open_playground(page, env, "api-reference/missing-thing/")
    field(page, "query:why").locator("input").fill("test")
    expect(page.locator('.dg-api-panel[data-key="bash"] code')).to_contain_text("missing?why=test")
    # the spec's own x-codeSamples stay as written
    expect(page.locator('.dg-api-panel[data-key="python"] code')).to_have_text("print('written by hand')")
    send(page)
    status = page.locator(".dg-pg-status")
    expect(status).to_have_attribute("data-status", "404")
    expect(status).to_have_class(re.compile("dg-pg-bad"))
    assert response_json(page) == {"error": "no such thing"}
    open_playground(page, env, "api-reference/no-cors/")
    send(page)
    error = page.locator(".dg-pg-error")
    expect(error).to_contain_text("CORS", timeout=8000)
    expect(error).to_contain_text("Access-Control-Allow-Origin")
    shot(page, env, "cors-explained")
    # The same request through the docs proxy (the dev server injects its URL) succeeds.
    page.add_init_script("window.DOCSGEN_PROXY = '/__proxy'")
    open_playground(page, env, "api-reference/no-cors/")
    expect(page.get_by_label("Send through the docs proxy (avoids CORS)")).to_be_checked()
    send(page)
    assert response_json(page) == {"hidden": True}
    expect(page.locator(".dg-pg-via")).to_have_text("via proxy")


def test_display_modes_simple_none_and_no_server(page: Page, env: dict) -> None:
    open_playground(page, env, "modes/simple/")
    assert page.locator(".dg-pg").get_attribute("data-mode") == "simple"
    assert page.get_by_role("button", name="Send").count() == 0
    field(page, "path:itemId").locator("input").fill("99")
    expect(page.locator('.dg-api-panel[data-key="bash"] code')).to_contain_text("/items/99")
    page.goto(env["site"] + "modes/none/")
    assert page.locator(".dg-pg").count() == 0
    assert page.locator('script[src*="playground"]').count() == 0
    open_playground(page, env, "api-reference/ping-without-server/")
    expect(page.locator(".dg-pg-simple-note")).to_contain_text("defines no server")
    assert page.get_by_role("button", name="Send").count() == 0
    page.goto(env["site"])
    assert page.locator('script[src*="playground"]').count() == 0  # content pages stay light


def _auth_state(page: Page, env: dict, path: str, token: str | None) -> str:
    page.goto("about:blank")  # a real navigation, as from the owner's login page
    page.goto(env["site"] + path + (f"#token={token}" if token else ""))
    page.wait_for_function("document.documentElement.hasAttribute('data-playground')")
    return page.evaluate("document.documentElement.getAttribute('data-playground')")


def test_display_auth_with_and_without_group_match(page: Page, env: dict) -> None:
    signer, stranger = env["signer"], env["stranger"]
    assert _auth_state(page, env, "modes/auth/", None) == "hidden"
    assert page.locator(".dg-pg").count() == 0
    assert _auth_state(page, env, "modes/auth/", stranger.token(sub="eve")) == "hidden"
    page.evaluate("localStorage.clear()")
    assert (
        _auth_state(page, env, "modes/auth/", signer.token(sub="old", exp=int(time.time()) - 3600))
        == "hidden"
    )
    page.evaluate("localStorage.clear()")
    assert _auth_state(page, env, "modes/auth/", signer.token(sub="ann", groups=["users"])) == "interactive"
    assert "token=" not in page.url, "the token is removed from the address bar"
    expect(page.locator(".dg-pg-toggle")).to_be_visible()  # "Try it" in the endpoint bar
    # the token is remembered: the next page needs no hand-over
    assert _auth_state(page, env, "modes/admins/", None) == "hidden"  # signed in, but not in group "admins"
    assert (
        _auth_state(page, env, "modes/admins/", signer.token(sub="bob", groups=["users", "admins"]))
        == "interactive"
    )
    page.get_by_role("button", name="Try it").click()
    shot(page, env, "auth-admins")


def test_keyboard_labels_and_deep_links(page: Page, env: dict) -> None:
    page.goto(env["site"] + "api-reference/create-item/#owner.email")
    target = page.locator('[id="owner.email"]')
    expect(target).to_have_attribute("data-highlighted", "true")
    expect(target).to_be_in_viewport()
    page.goto(env["site"] + "api-reference/get-item/")
    expect(page.locator("html")).to_have_attribute("data-playground", "interactive")
    page.locator(".dg-pg-toggle").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".dg-pg-toggle")).to_have_attribute("aria-expanded", "true")
    unlabeled = page.evaluate(
        """() => [...document.querySelectorAll('.dg-pg-panel input, .dg-pg-panel select, .dg-pg-panel textarea')]
             .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map(e => e.outerHTML)"""
    )
    assert unlabeled == []
    page.get_by_role("textbox", name=re.compile("^itemId")).fill("5")
    page.get_by_role("textbox", name=re.compile("^X-Trace")).fill("kb")
    page.keyboard.press("Enter")  # submits the form from a text field
    assert response_json(page)["path"] == "/items/5"
    page.goto(env["site"] + "api-reference/get-item/#limit")
    expect(page.locator('[id="limit"]')).to_have_attribute("data-highlighted", "true")
    shot(page, env, "deep-link")


def test_hand_written_api_page(page: Page, env: dict) -> None:
    open_playground(page, env, "modes/manual/")
    page.get_by_label("X-API-Key (header)").fill("k-123")
    expect(page.locator(".dg-pg-dialog-url")).to_have_text(f"{env['api']}/v1/auth/header")
    send(page)
    assert response_json(page)["ok"] is True


def test_token_handed_to_an_open_page(page: Page, env: dict) -> None:
    assert _auth_state(page, env, "modes/auth/", None) == "hidden"
    page.evaluate("t => { location.hash = 'token=' + t; }", env["signer"].token(sub="late"))
    expect(page.locator("html")).to_have_attribute("data-playground", "interactive")
