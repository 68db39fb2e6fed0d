"""The dev proxy keeps at most MAX_RESPONSE_BYTES of an upstream answer in memory, and a target path that is not
ASCII is percent-encoded (was a traceback). Upstream: a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from docsgen.dev import proxy
from docsgen.dev.proxy import ProxyError, ProxyPolicy, forward, rules_for


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
    monkeypatch.setattr(proxy, "MAX_RESPONSE_BYTES", 4 * 1024 * 1024)
    Upstream.sent = 0
    with pytest.raises(ProxyError) as refused:
        forward("GET", upstream + "/huge", [], None, ProxyPolicy(rules_for(upstream)), timeout=30)
    assert refused.value.status == 502 and refused.value.body["error"] == "upstream_too_large"
    assert Upstream.sent < 100 * 1024 * 1024  # it stopped reading near the cap, not at 200 MB
