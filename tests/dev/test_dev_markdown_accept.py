"""`docsgen dev` answers `Accept: text/markdown` with the page's Markdown twin (Mintlify's behaviour), real HTTP."""

from __future__ import annotations

import json

import httpx
import pytest

from docsgen.dev.app import start
from docsgen.dev.negotiate import twin_of, wants_markdown

DOCS = {
    "docs.json": json.dumps(
        {
            "name": "X",
            "theme": "mint",
            "colors": {"primary": "#0D9373"},
            "navigation": {"pages": ["index", "guide/setup"]},
        }
    ),
    "index.mdx": "---\ntitle: Home\n---\n# Welcome\n\nHello **there**.\n",
    "guide/setup.mdx": "---\ntitle: Setup\n---\n<Note>Install it first.</Note>\n\nThen run it.\n",
}


@pytest.fixture
def app(make_site):
    app = start(make_site(DOCS), watch=False)
    yield app
    app.stop()


def test_markdown_twin_for_markdown_accept(app) -> None:
    for accept in ("text/markdown", "text/plain", "text/markdown, text/html;q=0.5"):
        r = httpx.get(app.url + "guide/setup/", headers={"Accept": accept})
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/markdown")
        assert r.headers["vary"] == "Accept"
        assert "Install it first." in r.text and "<html" not in r.text.lower()
    home = httpx.get(app.url, headers={"Accept": "text/markdown"})
    assert home.headers["content-type"].startswith("text/markdown") and "Hello **there**." in home.text


def test_browsers_still_get_html(app) -> None:
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    for accept in (browser, None, "*/*", "text/*", "text/html, text/markdown"):
        headers = {"Accept": accept} if accept else {}
        r = httpx.get(app.url + "guide/setup/", headers=headers)
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/html"), accept
        assert r.headers["vary"] == "Accept"
    head = httpx.head(app.url + "guide/setup/", headers={"Accept": "text/markdown"})
    assert head.headers["content-type"].startswith("text/markdown") and head.content == b""


def test_non_pages_are_not_negotiated(app) -> None:
    r = httpx.get(app.url + "llms.txt", headers={"Accept": "text/markdown"})
    assert r.status_code == 200 and "vary" not in r.headers
    missing = httpx.get(app.url + "nope/", headers={"Accept": "text/markdown"})
    assert missing.status_code == 404


def test_accept_parsing() -> None:
    assert wants_markdown("text/markdown")
    assert wants_markdown("text/plain;q=0.9, text/html;q=0.1")
    assert not wants_markdown("text/markdown;q=0")
    assert not wants_markdown("text/markdown;q=0.5, text/html")
    assert not wants_markdown("application/json")
    assert wants_markdown("text/markdown;q=abc")  # a malformed q counts as 1
    assert not wants_markdown("," * 100_000 + "text/markdown")  # only the first 4096 characters are read
    assert twin_of("index.html") == "index.md"
    assert twin_of("a/b/index.html") == "a/b.md"
    assert twin_of("a.css") is None
