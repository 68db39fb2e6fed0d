"""A small docsgen site built for a feedback server, served by a static server beside it (browser tests, bench)."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from docsgen.build import build

PAGES = {
    "index": ("Welcome", "Acme Cloud stores files. Read the [guide](/guide) to start."),
    "guide": (
        "Upload guide",
        "## Uploading files\n\nUse `acme upload` to send a zebrafish image to a bucket.\n\n"
        "## Retries\n\nUploads are retried three times with exponential backoff.",
    ),
    "billing": (
        "Billing",
        "## Invoices\n\nInvoices are sent on the first day of each month by e-mail.\n\n"
        "## Refunds\n\nRefunds take five business days to reach your card.",
    ),
    "ask": ("Ask AI", "Ask anything about Acme Cloud."),
}


class Static(SimpleHTTPRequestHandler):
    """Serve the built folder; a missing path gets the site's 404.html with status 404 (as hosts do)."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".md": "text/markdown; charset=utf-8"}

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.exists():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """Serve `folder` on a free loopback port; yield its origin."""
    folder.mkdir(parents=True, exist_ok=True)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Static, directory=str(folder)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def build_site(docs: Path, out: Path, server_url: str, project: str, extra: dict | None = None) -> None:
    """Write the docs folder (four pages, feedback server configured) and build it into `out`."""
    docs.mkdir(parents=True, exist_ok=True)
    for name, (title, body) in PAGES.items():
        mode = "mode: assistant\n" if name == "ask" else ""
        (docs / f"{name}.mdx").write_text(f"---\ntitle: {title}\n{mode}---\n\n{body}\n", encoding="utf-8")
    config = {
        "name": "Acme Cloud",
        "theme": "mint",
        "colors": {"primary": "#4F46E5"},
        "navigation": {"groups": [{"group": "Docs", "pages": list(PAGES)}]},
        "feedback": {"server": server_url, "project": project, "thumbsRating": True},
        "contextual": {"options": ["assistant", "copy"]},
        **(extra or {}),
    }
    (docs / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    assert build(docs, out).pages >= len(PAGES)
