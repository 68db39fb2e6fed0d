"""External link checks against a local HTTP server: statuses, HEAD fallback, per-host pacing, time bound."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner

from docsgen.cli import main
from docsgen.commands.external_links import check_urls


class Handler(BaseHTTPRequestHandler):
    hits: list[tuple[float, str, str]] = []

    def log_message(self, *args):
        pass

    def _answer(self, body: bool) -> None:
        Handler.hits.append((time.monotonic(), self.command, self.path))
        if self.path.startswith("/slow"):
            time.sleep(3)
        if self.path == "/head-refused" and self.command == "HEAD":
            status = 405
        elif self.path.startswith("/missing"):
            status = 404
        elif self.path == "/moved":
            self.send_response(301)
            self.send_header("Location", "/ok")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        else:
            status = 200
        data = b"ok"
        try:
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                self.wfile.write(data)
        except OSError:
            pass

    def do_HEAD(self):
        self._answer(False)

    def do_GET(self):
        self._answer(True)


@pytest.fixture(scope="module")
def server_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_statuses_and_locations(server_url):
    urls = {
        f"{server_url}/ok": [("a.mdx", 3, 1)],
        f"{server_url}/missing": [("a.mdx", 5, 3), ("b.mdx", 1, 9)],
        f"{server_url}/head-refused": [("b.mdx", 2, 1)],
        f"{server_url}/moved": [("b.mdx", 4, 1)],
        "http://127.0.0.1:9/refused": [("c.mdx", 7, 1)],
    }
    results = check_urls(urls, timeout=2, max_time=20, per_host_interval=0)
    assert results.statuses[f"{server_url}/ok"] == 200
    assert results.statuses[f"{server_url}/head-refused"] == 200  # HEAD refused, GET works
    assert results.statuses[f"{server_url}/moved"] == 200
    assert [f.format() for f in sorted(results.findings)] == [
        f"a.mdx:5:3: error: broken external link '{server_url}/missing' (HTTP 404) [link.broken-external]",
        f"b.mdx:1:9: error: broken external link '{server_url}/missing' (HTTP 404) [link.broken-external]",
        "c.mdx:7:1: error: broken external link 'http://127.0.0.1:9/refused' (ConnectError) [link.broken-external]",
    ]


def test_one_request_at_a_time_per_host_with_interval(server_url):
    Handler.hits.clear()
    urls = {f"{server_url}/paced/{i}": [("p.mdx", i, 1)] for i in range(4)}
    results = check_urls(urls, timeout=2, max_time=20, workers=4, per_host_interval=0.3)
    assert not results.findings
    times = sorted(t for t, _, path in Handler.hits if path.startswith("/paced/"))
    assert len(times) == 4
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) >= 0.28


def test_overall_time_bound(server_url):
    urls = {f"{server_url}/slow/{i}": [("s.mdx", i, 1)] for i in range(5)}
    started = time.monotonic()
    results = check_urls(urls, timeout=10, max_time=1.5, per_host_interval=0)
    elapsed = time.monotonic() - started
    assert elapsed < 4
    assert results.notes and "not checked within 1.5s" in results.notes[0]
    assert all("timed out" in f.message for f in results.findings)


def test_cli_check_external(make_site, server_url):
    docs = make_site(
        {
            "docs.json": json.dumps(
                {
                    "name": "Ext",
                    "theme": "mint",
                    "colors": {"primary": "#0D9373"},
                    "navigation": {"pages": ["index"]},
                }
            ),
            "index.mdx": f"# Hi\n\n[fine]({server_url}/ok)\n\n[gone]({server_url}/missing/page)\n",
        }
    )
    plain = CliRunner().invoke(main, ["broken-links", str(docs)])
    assert plain.exit_code == 0, plain.output
    result = CliRunner().invoke(main, ["broken-links", str(docs), "--check-external", "--max-time", "20"])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"index.mdx:5:8: error: broken external link '{server_url}/missing/page' (HTTP 404) [link.broken-external]"
    ]
    assert "2 external URL(s)" in result.stderr
