"""docsgen dev against a hostile web page: DNS rebinding (forged Host), other origins using the proxy and the event
stream, upstream CORS headers, and free server variables that would open the proxy to any host.

Every test sends real HTTP requests to a real dev server on 127.0.0.1 with the headers a browser would send.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from docsgen.dev.app import DevApp, start
from docsgen.dev.proxy import rules_for


class CorsApi(BaseHTTPRequestHandler):
    """An API that allows every origin (as public APIs do) and counts the requests it receives."""

    hits: list[str] = []

    def log_message(self, *args) -> None:
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        CorsApi.hits.append(f"{self.command} {self.path}")
        data = json.dumps({"method": self.command, "path": self.path, "host": self.headers["Host"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Credentials", "true")
        self.send_header("Access-Control-Expose-Headers", "X-Secret")
        self.send_header("Timing-Allow-Origin", "*")
        self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
        self.send_header("X-Secret", "token")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = do_OPTIONS = _answer


@pytest.fixture(scope="module")
def upstream():
    server = ThreadingHTTPServer(("127.0.0.1", 0), CorsApi)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def hits():
    CorsApi.hits.clear()
    return CorsApi.hits


def site_with_servers(make_site, servers: list[dict]):
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Api", "version": "1"},
        "servers": servers,
        "paths": {"/items": {"get": {"summary": "List items", "responses": {"200": {"description": "ok"}}}}},
    }
    return make_site(
        {
            "docs.json": json.dumps(
                {
                    "name": "Guarded",
                    "theme": "mint",
                    "colors": {"primary": "#0D9373"},
                    "api": {"openapi": "openapi.json"},
                    "navigation": {"groups": [{"group": "Docs", "pages": ["index"]}]},
                }
            ),
            "openapi.json": json.dumps(spec),
            "index.mdx": "---\ntitle: Home\n---\n\nSecret draft text\n",
        }
    )


@pytest.fixture
def app(make_site, upstream):
    site = site_with_servers(
        make_site,
        [
            {"url": f"http://127.0.0.1:{upstream}/v1"},
            {"url": "http://{host}"},  # free variables where the proxy must refuse them
            {"url": f"http://{{host}}:{upstream}"},
            {"url": f"http://api.{{domain}}:{upstream}"},
            {"url": f"http://{{a}}.{{b}}.0.1:{upstream}"},
            {"url": f"http://{{tenant}}.corp.example:{upstream}"},  # allowed, for public addresses only
        ],
    )
    app = start(site, watch=False, allow_hosts=["docs.test"])
    yield app
    app.stop()


def port_of(app: DevApp) -> int:
    return app.server.server_address[1]


def proxy_url(app: DevApp) -> str:
    return app.url + "__docsgen/proxy"


# -- Host: DNS rebinding -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",
        "evil.example",
        "127.0.0.1.evil.example:{port}",
        "localhost.evil:{port}",
        "",
        "a b",
    ],
)
def test_pages_for_a_foreign_host_are_refused(app: DevApp, host: str):
    r = httpx.get(app.url, headers={"Host": host.format(port=port_of(app))}, timeout=10)
    assert r.status_code == 403
    assert "Secret draft text" not in r.text and "__docsgenDev" not in r.text
    assert "DNS rebinding" in r.text and "--allow-host" in r.text


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/__docsgen/events"),
        ("GET", "/__docsgen/status"),
        ("POST", "/__docsgen/proxy?url=http://127.0.0.1:{upstream}/v1/items"),
        ("GET", "/_static/site.css"),
    ],
)
def test_every_endpoint_checks_the_host(app: DevApp, upstream: int, hits: list[str], method: str, path: str):
    url = app.url.rstrip("/") + path.format(upstream=upstream)
    r = httpx.request(method, url, headers={"Host": "rebound.example"}, content=b"{}", timeout=10)
    assert r.status_code == 403 and "rebound.example" in r.text
    assert hits == []  # nothing reached the API


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "localhost:{port}", "[::1]:{port}", "LOCALHOST", "docs.test"]
)
def test_the_machines_own_names_are_answered(app: DevApp, host: str):
    r = httpx.get(app.url, headers={"Host": host.format(port=port_of(app))}, timeout=10)
    assert r.status_code == 200 and "Secret draft text" in r.text


# -- Origin: other pages using the proxy and the event stream -----------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://localhost:1"},  # another local server is another origin
        {"Origin": "null"},  # sandboxed frames, data: and file: pages
        {"Origin": "https://127.0.0.1:{port}"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Referer": "http://evil.example/attack.html"},
    ],
)
def test_proxy_refuses_requests_from_other_origins(
    app: DevApp, upstream: int, hits: list[str], headers: dict
):
    headers = {k: v.format(port=port_of(app)) for k, v in headers.items()}
    for method in ("POST", "GET", "OPTIONS"):
        r = httpx.request(
            method,
            proxy_url(app),
            params={"url": f"http://127.0.0.1:{upstream}/v1/items"},
            headers=headers,
            content=b'{"transfer": 1000}' if method == "POST" else None,
            timeout=10,
        )
        assert r.status_code == 403, (method, headers)
        assert r.json()["error"] == "cross_origin"
        assert "access-control-allow-origin" not in r.headers
    assert hits == []


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Referer": "http://localhost:1/"},
    ],
)
def test_event_stream_and_status_refuse_other_origins(app: DevApp, headers: dict):
    for path in ("__docsgen/events", "__docsgen/status"):
        r = httpx.get(app.url + path, headers=headers, timeout=10)
        assert r.status_code == 403 and r.json()["error"] == "cross_origin", path


def test_the_previews_own_pages_use_the_proxy(app: DevApp, upstream: int, hits: list[str]):
    own = f"http://127.0.0.1:{port_of(app)}"
    target = f"http://127.0.0.1:{upstream}/v1/items"
    for headers in (
        {"Origin": own},  # fetch() POST from a page of the preview
        {"Origin": f"http://localhost:{port_of(app)}", "Host": f"localhost:{port_of(app)}"},
        {"Sec-Fetch-Site": "same-origin"},  # fetch() GET: browsers leave Origin out
        {"Sec-Fetch-Site": "none"},  # the developer typed the URL
        {"Referer": own + "/api/items/"},  # browsers without Sec-Fetch-*
        {},  # curl and scripts
    ):
        r = httpx.post(proxy_url(app), params={"url": target}, headers=headers, content=b"{}", timeout=10)
        assert r.status_code == 200, headers
        assert r.json()["path"] == "/v1/items"
    assert len(hits) == 6


def test_upstream_cors_headers_never_reach_the_browser(app: DevApp, upstream: int):
    r = httpx.get(proxy_url(app), params={"url": f"http://127.0.0.1:{upstream}/v1/items"}, timeout=10)
    assert r.status_code == 200 and r.headers["x-secret"] == "token"
    assert not [k for k in r.headers if k.lower().startswith("access-control-")]
    assert "timing-allow-origin" not in r.headers
    assert r.headers["cross-origin-resource-policy"] == "same-origin"
    assert r.headers["content-security-policy"] == "sandbox"  # never a document of the preview's origin
    assert r.headers["x-content-type-options"] == "nosniff"


# -- free server variables ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "http://metadata/computeMetadata/v1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://localhost/",
        "http://localhost:{upstream}/v1/items",  # `http://{host}:port` would reach any local service
        "http://api.localhost:{upstream}/v1/items",  # `http://api.{domain}:port`
        "http://127.1.0.1:{upstream}/v1/items",  # `http://{a}.{b}.0.1:port`
    ],
)
def test_a_free_host_variable_opens_no_host(app: DevApp, upstream: int, hits: list[str], target: str):
    r = httpx.get(proxy_url(app), params={"url": target.format(upstream=upstream)}, timeout=10)
    assert r.status_code == 403, r.text
    body = r.json()
    assert body["error"] == "host_not_allowed"
    assert "http://{host}" in body["message"] and "enum" in body["message"]
    assert hits == []


def test_a_free_label_reaches_public_addresses_only(app: DevApp, upstream: int, hits: list[str], monkeypatch):
    real = socket.getaddrinfo

    def resolve(host, *args, **kwargs):  # acme.corp.example points at this machine (a rebinding DNS would)
        return real("127.0.0.1" if host == "acme.corp.example" else host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    r = httpx.get(proxy_url(app), params={"url": f"http://acme.corp.example:{upstream}/v1/items"}, timeout=10)
    assert r.status_code == 403, r.text
    assert "127.0.0.1" in r.json()["message"] and "public" in r.json()["message"]
    assert hits == []


def test_free_variable_rules():
    assert [r.host.pattern for r in rules_for("https://{tenant}.example.com")] == [
        r"[a-z0-9-]+\.example\.com"
    ]
    assert rules_for("https://{region}-api.example.com")[0].free
    assert rules_for("https://x.{mid}.example.com")[0].allows("https", "x.eu.example.com", 443)
    for refused in (
        "http://{host}",
        "http://{host}:8080/v1",
        "https://api.{domain}",
        "https://{sub}.com",
        "https://{a}.{b}",
        "http://{a}.0.0.1",
    ):
        assert rules_for(refused) == [], refused
    # with values to choose from, the same URLs name those hosts only, literally
    [rule] = rules_for("http://{host}:8080", {"host": {"default": "localhost"}})
    assert rule.allows("http", "localhost", 8080) and not rule.free
    assert not rule.allows("http", "metadata", 8080)


def test_listening_on_every_interface_accepts_addresses_not_names(make_site):
    site = site_with_servers(make_site, [])
    app = start(site, host="0.0.0.0", watch=False)
    try:
        url = f"http://127.0.0.1:{port_of(app)}/"
        for host, status in (
            ("192.168.1.20:3000", 200),  # another machine on the network, by this machine's address
            ("[fe80::1]", 200),
            (socket.gethostname(), 200),
            ("evil.example", 403),
            ("192.168.1.20.evil.example", 403),
        ):
            assert httpx.get(url, headers={"Host": host}, timeout=10).status_code == status, host
    finally:
        app.stop()
