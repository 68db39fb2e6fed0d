"""The dev proxy streams upstream answers (memory: a chunk, not the answer) and cuts them at MAX_RESPONSE_BYTES,
telling the browser (no last chunk); a target path that is not ASCII is percent-encoded (was a traceback).
Upstreams: real HTTP servers on 127.0.0.1, one of them sending a large answer slowly
(tests/playground_servers.py SlowApi)."""

from __future__ import annotations

import json
import threading
import time
import tracemalloc
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from docsgen.dev import proxy_stream
from docsgen.dev.app import start
from docsgen.dev.proxy import ProxyError, ProxyPolicy, rules_for
from docsgen.dev.proxy_stream import forward
from tests.playground_servers import SlowApi, serve


class Upstream(BaseHTTPRequestHandler):
    paths: list[str] = []
    sent = 0

    def do_GET(self):
        Upstream.paths.append(self.path)
        if self.path.startswith("/huge"):
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.end_headers()
            chunk = b"x" * 65536
            try:
                for _ in range(16 * 200):  # 200 MB unless the client stops reading
                    self.wfile.write(chunk)
                    Upstream.sent += len(chunk)
            except OSError:
                return
            return
        body = b"ok " + self.path.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def upstream():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_non_ascii_path_is_percent_encoded(upstream):
    policy = ProxyPolicy(rules_for(upstream))
    status, _, body = forward("GET", upstream + "/é?q=ü v", [], None, policy)
    assert status == 200 and body == b"ok /%C3%A9?q=%C3%BC%20v"
    status, _, body = forward("GET", upstream + "/a%20b", [], None, policy)
    assert body == b"ok /a%20b"  # already encoded: kept


def test_an_upstream_answer_over_the_cap_is_refused_without_reading_it_all(upstream, monkeypatch):
    monkeypatch.setattr(proxy_stream, "MAX_RESPONSE_BYTES", 4 * 1024 * 1024)
    Upstream.sent = 0
    with pytest.raises(ProxyError) as refused:
        forward("GET", upstream + "/huge", [], None, ProxyPolicy(rules_for(upstream)), timeout=30)
    assert refused.value.status == 502 and refused.value.body["error"] == "upstream_too_large"
    assert Upstream.sent < 100 * 1024 * 1024  # it stopped reading near the cap, not at 200 MB


@pytest.fixture
def dev_app(make_site):
    server = serve(SlowApi)
    port = server.server_address[1]
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Slow", "version": "1"},
        "servers": [{"url": f"http://127.0.0.1:{port}"}],
        "paths": {"/stream/1": {"get": {"responses": {"200": {"description": "ok"}}}}},
    }
    site = make_site(
        {
            "docs.json": json.dumps(
                {
                    "name": "P",
                    "theme": "mint",
                    "colors": {"primary": "#0D9373"},
                    "api": {"openapi": "openapi.json"},
                    "navigation": {"pages": ["index"]},
                }
            ),
            "openapi.json": json.dumps(spec),
            "index.mdx": "# Home\n",
        }
    )
    app = start(site, watch=False)
    yield app, f"http://127.0.0.1:{port}"
    app.stop()
    server.shutdown()
    server.server_close()


def test_the_dev_proxy_streams_a_slow_answer_and_cuts_it_at_the_cap(dev_app, monkeypatch):
    app, api = dev_app
    monkeypatch.setattr(proxy_stream, "MAX_RESPONSE_BYTES", 4 * 1024 * 1024)
    received = 0
    url = app.url + "__docsgen/proxy"
    with httpx.stream("GET", url, params={"url": api + "/stream/64"}, timeout=30) as r:
        assert r.status_code == 200 and r.headers["x-upstream"] == "slow"
        assert r.headers["transfer-encoding"] == "chunked"
        assert r.headers["x-docsgen-proxy-limit"] == str(4 * 1024 * 1024)
        # told: the answer ends without its last chunk, so reading it fails instead of looking complete
        with pytest.raises(httpx.RemoteProtocolError):
            for chunk in r.iter_raw():
                received += len(chunk)
    assert received <= 4 * 1024 * 1024
    assert received >= 3 * 1024 * 1024  # everything up to the cap arrived
    time.sleep(0.5)
    assert SlowApi.sent < 16 * 1024 * 1024  # the upstream was stopped near the cap, not read to its 64 MB


def test_the_dev_proxy_relays_a_large_answer_in_bounded_memory(dev_app):
    app, api = dev_app
    url = app.url + "__docsgen/proxy"
    size = 24 * 1024 * 1024
    tracemalloc.start()
    try:
        sent_at_first_byte = -1
        received = 0
        with httpx.stream("GET", url, params={"url": api + "/sized/24"}, timeout=30) as r:
            assert r.status_code == 200 and r.headers["content-length"] == str(size)
            for chunk in r.iter_raw():
                if sent_at_first_byte < 0:
                    sent_at_first_byte = SlowApi.sent
                received += len(chunk)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert received == size
    # streamed: the first bytes came through while the upstream was still sending (it had sent half or less)
    assert 0 <= sent_at_first_byte <= size // 2, sent_at_first_byte
    assert peak < 8 * 1024 * 1024, peak  # was the whole answer (24 MB) and more


def test_an_answer_whose_length_is_over_the_cap_is_refused_before_any_byte(dev_app, monkeypatch):
    app, api = dev_app
    monkeypatch.setattr(proxy_stream, "MAX_RESPONSE_BYTES", 4 * 1024 * 1024)
    r = httpx.get(app.url + "__docsgen/proxy", params={"url": api + "/sized/8"}, timeout=30)
    assert r.status_code == 502 and r.json()["error"] == "upstream_too_large"
    assert "8,388,608 bytes" in r.json()["message"]
