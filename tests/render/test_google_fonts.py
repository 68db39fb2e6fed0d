"""Google Fonts named in docs.json `fonts`: downloaded once at build time into the output (cached), never loaded
from a third party at read time; with no network a located warning and the theme's font. A stand-in for the CSS2
API runs on 127.0.0.1 ($DOCSGEN_GOOGLE_FONTS_URL), serving the stylesheet and the woff2 files it names."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from click.testing import CliRunner

from docsgen.cli import main
from tests.conftest import write_tree

WOFF2 = b"wOF2" + bytes(range(256)) * 8


class FontServer(BaseHTTPRequestHandler):
    """Speaks the CSS2 API: /css2?family=Name:wght@400;700 -> @font-face rules naming woff2 files it serves."""

    requests: list[tuple[str, str]] = []
    extra_css = ""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.requests.append((self.path, self.headers.get("User-Agent", "")))
        url = urlsplit(self.path)
        host = f"http://127.0.0.1:{self.server.server_address[1]}"
        if url.path == "/css2":
            family = parse_qs(url.query).get("family", [""])[0]
            name, _, _ = family.partition(":")
            if name != "Test Sans":
                return self._send(400, b"family not found", "text/plain")
            css = (
                "@import \"https://tracker.example/t.css\";\n/* latin */\n@font-face {\n  font-family: 'Test Sans';\n"
                "  font-style: normal;\n  font-weight: 600;\n  font-display: swap;\n"
                f"  src: url({host}/s/testsans/v1/latin.woff2) format('woff2');\n"
                "  unicode-range: U+0000-00FF;\n}\n" + self.extra_css.replace("HOST", host)
            )
            return self._send(200, css.encode(), "text/css")
        if url.path.startswith("/s/") and url.path.endswith(".woff2"):
            return self._send(200, WOFF2, "font/woff2")
        self._send(404, b"", "text/plain")

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def font_server(monkeypatch, tmp_path):
    FontServer.requests = []
    FontServer.extra_css = ""
    server = ThreadingHTTPServer(("127.0.0.1", 0), FontServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("DOCSGEN_GOOGLE_FONTS_URL", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    yield server
    server.shutdown()
    server.server_close()


def site(root: Path, fonts: dict) -> Path:
    config = (
        '{\n  "theme": "mint",\n  "name": "Fonts",\n  "colors": {"primary": "#1D4ED8"},\n'
        f'  "fonts": {json.dumps(fonts)},\n  "navigation": {{"pages": ["index"]}}\n}}\n'
    )
    return write_tree(root, {"docs.json": config, "index.mdx": "---\ntitle: Home\n---\n\n## Hello\n\ntext\n"})


def run_build(docs: Path, out: Path) -> str:
    result = CliRunner().invoke(main, ["build", str(docs), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_google_font_is_downloaded_into_the_site_and_served_from_it(font_server, tmp_path):
    docs = site(tmp_path / "docs", {"family": "Test Sans", "weight": 600})
    output = run_build(docs, tmp_path / "out")
    assert "fonts.google" not in output
    css_request, user_agent = FontServer.requests[0]
    assert css_request.startswith("/css2?family=Test+Sans:wght@600&display=swap") and "Chrome/" in user_agent
    files = list((tmp_path / "out" / "_fonts").iterdir())
    assert (
        len(files) == 1
        and files[0].read_bytes() == WOFF2
        and re.fullmatch(r"[0-9a-f]{20}\.woff2", files[0].name)
    )
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert f"src:url(\"./_fonts/{files[0].name}\") format('woff2')" in html
    assert "font-family:'Test Sans'" in html and 'html:root{--dg-font:"Test Sans",' in html
    # nothing at read time from anyone else: no stand-in host, no @import, no tracker
    text = "".join(
        p.read_text(errors="replace") for p in (tmp_path / "out").rglob("*") if p.suffix in (".html", ".css")
    )
    assert "127.0.0.1" not in text and "tracker.example" not in text and "@import" not in text

    # a second build, the server gone: the cached copy, not one request more
    count = len(FontServer.requests)
    font_server.shutdown()
    font_server.server_close()
    output = run_build(docs, tmp_path / "out2")
    assert "fonts.google" not in output and len(FontServer.requests) == count
    assert (tmp_path / "out2" / "_fonts" / files[0].name).read_bytes() == WOFF2


def test_no_network_is_a_located_warning_and_the_themes_font(monkeypatch, tmp_path):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("DOCSGEN_GOOGLE_FONTS_URL", "http://127.0.0.1:9")  # nothing listens there
    docs = site(tmp_path / "docs", {"family": "Test Sans"})
    output = run_build(docs, tmp_path / "out")
    assert re.search(
        r"docs\.json:5:12: warning: Google font 'Test Sans' could not be downloaded: no connection", output
    )
    assert "[fonts.google]" in output
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "@font-face" not in html and '--dg-font:"Test Sans"' not in html
    assert not (tmp_path / "out" / "_fonts").exists()


def test_unknown_family_and_files_outside_https_are_refused(font_server, tmp_path):
    output = run_build(site(tmp_path / "a", {"family": "No Such Font"}), tmp_path / "out-a")
    assert "Google font 'No Such Font' could not be downloaded: HTTP 400" in output
    FontServer.extra_css = "@font-face { font-family: 'Test Sans'; src: url(http://evil.example/x.woff2); }"
    output = run_build(site(tmp_path / "b", {"family": "Test Sans"}), tmp_path / "out-b")
    assert "names a file outside https: http://evil.example/x.woff2" in output
    assert not (tmp_path / "out-b" / "_fonts").exists()
    assert not any("evil" in path for path, _ in FontServer.requests)


def test_heading_font_downloaded_and_a_system_body_font_used_as_named(font_server, tmp_path):
    docs = site(tmp_path / "docs", {"heading": {"family": "Test Sans"}, "body": {"family": "system-ui"}})
    output = run_build(docs, tmp_path / "out")
    assert "fonts.google" not in output
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "html:root{--dg-font:system-ui," in html
    assert '.dg-title,.dg-prose h1,.dg-prose h2,.dg-prose h3,.dg-prose h4{font-family:"Test Sans"' in html
    assert [p for p, _ in FontServer.requests if p.startswith("/css2")] == [
        "/css2?family=Test+Sans&display=swap"
    ]
