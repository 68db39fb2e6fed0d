"""The words the theme's scripts write, in chromium, on a site in German, Japanese and Arabic: search counts and
"no results", the feedback thanks, the playground's buttons, legends and response, copy feedback, "Show more",
image zoom labels and the "Last updated" line. The site and the API it documents are served by one small server
on 127.0.0.1 that also accepts the feedback posts."""

from __future__ import annotations

import functools
import json
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from docsgen.build import build
from docsgen.render.strings import catalogue
from tests.conftest import write_tree

SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Items", "version": "1"},
    "servers": [{"url": "/api"}],
    "paths": {
        "/items/{id}": {
            "get": {
                "summary": "Get an item",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "The item"}},
            }
        }
    },
}
PAGE = """---
title: {title}
lastUpdatedDate: "2024-05-01"
---

## {title}

```python expandable
{code}
```

![Diagram](/diagram.png)
"""
LANGS = (("de", ""), ("jp", "jp/"), ("ar", "ar/"))


class Site(SimpleHTTPRequestHandler):
    """The built site; POST /feedback answers as a feedback server does; GET /api/items/<id> is the API."""

    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._json({"ok": True})

    def do_GET(self):
        if self.path.startswith("/api/items/"):
            return self._json({"id": self.path.rsplit("/", 1)[-1]})
        return super().do_GET()

    def _json(self, data):
        body = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("langs-js")
    out = tmp / "out"
    out.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Site, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    docs = {
        "name": "Acme",
        "theme": "mint",
        "colors": {"primary": "#4F46E5"},
        "feedback": {"endpoint": f"{origin}/feedback", "thumbsRating": True, "contextual": False},
        "navigation": {
            "languages": [
                {
                    "language": code,
                    "default": code == "de",
                    "groups": [{"group": code, "pages": [f"{p}index", f"{p}item"]}],
                }
                for code, p in LANGS
            ]
        },
    }
    files = {"docs.json": json.dumps(docs), "openapi.json": json.dumps(SPEC), "diagram.png": ""}
    long_code = "\n".join(f"print({i})" for i in range(60))
    for code, prefix in LANGS:
        files[f"{prefix}index.mdx"] = PAGE.format(title=f"Start {code}", code=long_code)
        files[f"{prefix}item.mdx"] = "---\ntitle: Item\nopenapi: openapi.json GET /items/{id}\n---\n"
    build(write_tree(tmp / "docs", files), out)
    yield origin
    server.shutdown()


@pytest.mark.parametrize(("code", "prefix"), LANGS)
def test_script_written_words_are_in_the_page_language(browser, site, code, prefix):
    words = catalogue()[code]
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site}/{prefix}")
    # "Last updated", with the date in the page's language
    line = page.locator(".dg-last-updated")
    expect(line).to_contain_text(words["last_updated"])
    date = {"de": "1. Mai 2024", "jp": "2024年5月1日"}.get(code)
    if date:
        expect(line.locator("time")).to_have_text(date)
    else:
        expect(line.locator("time")).not_to_have_text("May 1, 2024")
    # image zoom label, "Show more" on a long code block, copy feedback
    assert page.locator(".dg-zoomable").first.get_attribute("aria-label").startswith(words["zoom_image"])
    expand = page.locator(".dg-code-expand").first
    expand.click()
    expect(expand).to_have_text(words["show_less"])
    copy = page.locator(".dg-code .dg-copy").first
    copy.click()  # the label says how the copy went for 1.5 s
    done = "^(" + re.escape(words["copied"]) + "|" + re.escape(words["copy_failed"]) + ")$"
    expect(copy).to_have_attribute("aria-label", re.compile(done))
    # search: a count and "no results" with the query
    page.locator(".dg-search-button").first.click()
    page.locator(".dg-search-input").fill("qwxyzzyq")
    status = page.locator(".dg-search-status")
    expect(status).to_have_text(words["no_results_for"].replace("{q}", "qwxyzzyq"), timeout=10000)
    page.locator(".dg-search-input").fill("print")
    page.wait_for_selector("#dg-search-results [role=option]", timeout=10000)
    count = page.locator("#dg-search-results [role=option]").count()
    expect(status).to_have_text(
        words["results_one"] if count == 1 else words["results"].replace("{n}", str(count))
    )
    page.keyboard.press("Escape")
    # feedback thanks
    page.locator("#feedback-thumbs-up").click()
    expect(page.locator("section.dg-feedback .dg-feedback-status")).to_have_text(words["feedback_thanks"])
    expect(page.locator(".dg-snippet-fb-open").first).to_have_text(words["comment_snippet"])
    # the playground: its button, legend, send and the response
    page.goto(f"{site}/{prefix}item/")
    toggle = page.locator(".dg-pg-toggle")
    expect(toggle).to_have_text(words["try_it"])
    toggle.click()
    expect(page.locator(".dg-pg-dialog legend").first).to_have_text(words["env"])
    legends = page.locator(".dg-pg-dialog legend").all_text_contents()
    assert {words["path_params"], words["server"]} <= set(legends), legends
    send = page.locator(".dg-pg-send")
    expect(send).to_have_text(words["send"])
    path_fields = page.locator(".dg-pg-dialog fieldset").filter(has_text=words["path_params"])
    path_fields.locator("input").first.fill("42")
    send.click()
    expect(page.locator(".dg-pg-status")).to_contain_text("200")
    expect(page.locator(".dg-pg-response summary").first).to_contain_text(words["headers"])
    expect(page.locator(".dg-pg-copy").first).to_have_text(words["copy"])
    expect(page.locator(".dg-pg-history summary")).to_have_text(f"{words['history']} (1)")
    assert not errors, errors
    context.close()
