"""docs.json languageRedirect in chromium: the site root sends a Japanese browser to the Japanese home page; the
language switcher keeps the reader on the same page, and a language picked there is remembered at the root."""

from __future__ import annotations

import functools
import http.server
import json
import threading

import pytest

from docsgen.build import build
from tests.conftest import write_tree

DOCS = {
    "name": "Acme",
    "theme": "mint",
    "colors": {"primary": "#4F46E5"},
    "languageRedirect": True,
    "navigation": {
        "languages": [
            {"language": "de", "default": True, "groups": [{"group": "Start", "pages": ["index", "guide"]}]},
            {"language": "jp", "groups": [{"group": "開始", "pages": ["jp/index", "jp/guide"]}]},
        ]
    },
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("langs")
    files = {"docs.json": json.dumps(DOCS)}
    for prefix, word in (("", "Willkommen"), ("jp/", "ようこそ")):
        files[f"{prefix}index.mdx"] = f"---\ntitle: {word}\n---\n\n{word}\n"
        files[f"{prefix}guide.mdx"] = f"---\ntitle: Guide {prefix or 'de'}\n---\n\nText.\n"
    build(write_tree(tmp / "docs", files), tmp / "out")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp / "out"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_root_follows_the_browser_language_until_the_reader_picks_one(browser, site):
    context = browser.new_context(locale="ja-JP")
    page = context.new_page()
    page.goto(f"{site}/")
    page.wait_for_url(f"{site}/jp/")
    assert page.locator("html").get_attribute("lang") == "ja"
    page.goto(f"{site}/jp/guide/")
    page.evaluate("document.querySelector('a[hreflang=\"de\"]').click()")  # the switcher, open or not
    page.wait_for_url(f"{site}/guide/")  # the same page in German
    page.goto(f"{site}/")
    page.wait_for_timeout(300)
    assert page.url == f"{site}/"  # the reader's choice wins over the browser's language
    assert page.locator("html").get_attribute("lang") == "de"
    context.close()
    german = browser.new_context(locale="de-DE")
    other = german.new_page()
    other.goto(f"{site}/")
    other.wait_for_timeout(300)
    assert other.url == f"{site}/"
    german.close()
