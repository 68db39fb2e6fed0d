"""Redirects followed in a real browser, on a static host that serves 404.html for unknown paths."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import expect

from docsgen.build import build
from tests.conftest import write_tree
from tests.outputs.test_redirects import DOCS, REDIRECTS


class StaticHost(SimpleHTTPRequestHandler):
    """A static host without `_redirects` support: unknown paths get 404.html with status 404."""

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serve(root: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(StaticHost, directory=str(root)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _built(root: Path, errors: dict | None) -> Path:
    config = {
        "name": "Redirects",
        "theme": "mint",
        "colors": {"primary": "#0D9373"},
        "navigation": {"pages": ["index", "new/page", "guides/a", "guides/deep/b"]},
        "redirects": REDIRECTS,
    }
    if errors is not None:
        config["errors"] = errors
    docs = write_tree(root / "docs", {"docs.json": json.dumps(config), **DOCS})
    build(docs, root / "out", strict=True)
    return root / "out"


@pytest.fixture(scope="module")
def default_site(tmp_path_factory):
    with serve(_built(tmp_path_factory.mktemp("redirect-default"), None)) as url:
        yield url


@pytest.fixture(scope="module")
def stay_site(tmp_path_factory):
    errors = {"404": {"redirect": False, "title": "Nothing here", "description": "Check the address."}}
    with serve(_built(tmp_path_factory.mktemp("redirect-stay"), errors)) as url:
        yield url


def test_exact_redirect_page(page, default_site):
    page.goto(f"{default_site}/old")
    expect(page).to_have_url(f"{default_site}/new/page/")
    expect(page.locator("h1.dg-title")).to_have_text("New page")


def test_exact_redirect_keeps_destination_fragment(page, default_site):
    page.goto(f"{default_site}/legacy/page/")
    expect(page).to_have_url(f"{default_site}/new/page/#moved")


def test_wildcard_redirect_from_404_page(page, default_site):
    page.goto(f"{default_site}/blog/deep/b")
    expect(page).to_have_url(f"{default_site}/guides/deep/b/")
    expect(page.locator("h1.dg-title")).to_have_text("Guide B")


def test_named_parameter_redirect(page, default_site):
    page.goto(f"{default_site}/v1/a/intro")
    expect(page).to_have_url(f"{default_site}/guides/a/")
    expect(page.locator("h1.dg-title")).to_have_text("Guide A")


def test_unknown_path_goes_home_by_default(page, default_site):
    page.goto(f"{default_site}/no/such/page")
    expect(page).to_have_url(f"{default_site}/")
    expect(page.locator("h1.dg-title")).to_have_text("Home")


def test_unknown_path_stays_on_404_when_redirect_is_off(page, stay_site):
    response = page.goto(f"{stay_site}/no/such/page")
    assert response is not None and response.status == 404
    expect(page.locator(".dg-notfound .dg-title")).to_have_text("Nothing here")
    expect(page.locator(".dg-notfound")).to_contain_text("Check the address.")
    expect(page).to_have_url(f"{stay_site}/no/such/page")
    page.goto(f"{stay_site}/blog/a")  # redirects still apply
    expect(page).to_have_url(f"{stay_site}/guides/a/")
