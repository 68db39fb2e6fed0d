"""The reader widget in a real browser, posting to a real feedback server on another port."""

from __future__ import annotations

import functools
import itertools
import secrets
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from playwright.sync_api import expect

from docsgen.common.theme import environment
from docsgen.mdx.code import CodeMeta, render_code_block
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.testing import LiveServer, seed_project

THEME = Path(__file__).resolve().parents[2] / "themes" / "base"
CODE = 'import docsgen\n\nprint("<hello> & bye")\n'


def render_partial(feedback: dict | None, url: str = "guides/setup/", root: str = "./") -> str:
    """Render the widget partial as the page layout does."""
    site = SimpleNamespace(feedback=feedback, static_version="t1")
    page = SimpleNamespace(url=url)
    return environment("mint").get_template("partials/feedback.html").render(site=site, page=page, root=root)


def write_page(folder: Path, feedback: dict) -> None:
    """Write a page with two code blocks and the widget, plus the widget's static files."""
    blocks = render_code_block(CODE, CodeMeta(lang="python", title="main.py"), 0)
    blocks += render_code_block("echo hi\n", CodeMeta(lang="bash"), 1)
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Setup</title>'
        '<link rel="stylesheet" href="_static/site.css"></head><body><main class="dg-prose">'
        f"<h1>Setup</h1>{blocks}{render_partial(feedback)}</main></body></html>"
    )
    (folder / "_static" / "js").mkdir(parents=True)
    shutil.copy(THEME / "static" / "js" / "feedback.js", folder / "_static" / "js" / "feedback.js")
    shutil.copy(THEME / "static" / "feedback.css", folder / "_static" / "feedback.css")
    shutil.copy(THEME / "static" / "site.css", folder / "_static" / "site.css")
    (folder / "index.html").write_text(html, encoding="utf-8")


@pytest.fixture
def static_site(tmp_path):
    """Serve a folder over HTTP on a free port; returns (folder, origin)."""
    folder = tmp_path / "site"
    folder.mkdir()
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield folder, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def feedback_server(tmp_path, static_site):
    """A feedback server (SQLite file) whose project accepts the static site's origin."""
    _, origin = static_site
    engine = open_database(f"sqlite:///{tmp_path / 'fb.sqlite3'}")
    project = "docs-" + secrets.token_hex(3)
    key = seed_project(engine, project, [origin])
    with LiveServer(create_app(engine=engine, rate_limit=0)) as live:
        yield SimpleNamespace(url=live.url, project=project, key=key)
    engine.dispose()


def listing(server) -> list[dict]:
    response = httpx.get(
        f"{server.url}/v1/analytics/{server.project}/feedback",
        headers={"Authorization": f"Bearer {server.key}"},
    )
    assert response.status_code == 200, response.text
    return response.json()["feedback"]


_LOADS = itertools.count()


def open_page(page, static_site, server, **switches):
    folder, origin = static_site
    write_page(folder, {"endpoint": f"{server.url}/v1/feedback/{server.project}", **switches})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: print("console:", message.text))
    # A fresh query string: a page rewritten within the same second would otherwise come back as 304 (stale).
    page.goto(f"{origin}/index.html?load={next(_LOADS)}")
    page.wait_for_load_state("networkidle")
    assert not [url for url in requests if url.startswith(server.url)], (
        "the widget must not call the server on load"
    )
    return requests


def test_thumbs_down_with_comment_is_stored_as_contextual_feedback(page, static_site, feedback_server):
    open_page(page, static_site, feedback_server)
    widget = page.locator("[data-dg-feedback]")
    expect(widget.get_by_role("heading", name="Was this page helpful?")).to_be_visible()
    no = widget.get_by_role("button", name="No")
    no.click()
    expect(no).to_have_attribute("aria-pressed", "true")
    comment = widget.get_by_label("What could we improve? (optional)")
    expect(comment).to_be_focused()
    comment.fill("Step 2 is missing <b>the install</b> & more")
    widget.get_by_label("Your e-mail, if we may reply (optional)").fill("reader@example.com")
    widget.get_by_role("button", name="Send feedback").click()
    expect(widget.get_by_role("status")).to_have_text("Thank you for your feedback!", timeout=5000)
    expect(widget.locator("form")).to_be_hidden()
    [entry] = listing(feedback_server)
    assert entry["source"] == "contextual" and entry["status"] == "pending"
    assert entry["helpful"] is False
    assert entry["comment"] == "Step 2 is missing <b>the install</b> & more"
    assert entry["contact"] == "reader@example.com"
    assert entry["path"] == "/guides/setup/"
    assert "code" not in entry


def test_code_snippet_report_sends_code_filename_and_language(page, static_site, feedback_server):
    open_page(page, static_site, feedback_server)
    buttons = page.get_by_role("button", name="Comment on")
    expect(buttons).to_have_count(2)
    first = page.get_by_role("button", name="Comment on the code snippet main.py")
    first.click()
    expect(first).to_have_attribute("aria-expanded", "true")
    box = page.locator(".dg-code").first.get_by_label("What is wrong or unclear in this snippet?")
    expect(box).to_be_focused()
    page.locator(".dg-code").first.get_by_role("button", name="Send comment").click()
    expect(page.locator(".dg-code").first.get_by_role("alert")).to_have_text("Please write a comment first.")
    box.fill("The print call needs parentheses explained")
    page.locator(".dg-code").first.get_by_role("button", name="Send comment").click()
    expect(page.locator(".dg-code").first.locator(".dg-feedback-status")).to_have_text(
        "Thank you! Your comment on this snippet was sent.", timeout=5000
    )
    [entry] = listing(feedback_server)
    assert entry["source"] == "code_snippet"
    assert entry["code"] == CODE.rstrip("\n")
    assert entry["filename"] == "main.py" and entry["lang"] == "python"
    assert entry["comment"] == "The print call needs parentheses explained"
    assert "helpful" not in entry and "contact" not in entry


def test_keyboard_rating_without_comments_and_failure_state(page, static_site, feedback_server):
    folder, origin = static_site
    dead = SimpleNamespace(url="http://127.0.0.1:9", project=feedback_server.project)  # nothing listens there
    open_page(page, static_site, dead, contextual=False, codeSnippets=False)
    expect(page.get_by_role("button", name="Comment on")).to_have_count(0)
    yes = page.get_by_role("button", name="Yes")
    yes.focus()
    page.keyboard.press("Enter")
    alert = page.locator("[data-dg-feedback]").get_by_role("alert")
    expect(alert).to_contain_text("Your feedback was not sent", timeout=5000)
    # Same widget, a live server: the rating goes through as thumbs_only.
    shutil.rmtree(folder / "_static")
    open_page(page, static_site, feedback_server, contextual=False)
    page.get_by_role("button", name="Yes").focus()
    page.keyboard.press("Space")
    expect(page.locator("[data-dg-feedback] .dg-feedback-status")).to_have_text(
        "Thank you for your feedback!", timeout=5000
    )
    [entry] = listing(feedback_server)
    assert entry["source"] == "thumbs_only" and entry["helpful"] is True and entry["contact"] is None


def test_partial_renders_nothing_without_an_endpoint_and_escapes_config():
    assert render_partial(None).strip() == ""
    assert render_partial({"thumbsRating": True}).strip() == ""  # mint's switches alone configure no server
    html = render_partial({"endpoint": 'https://fb.example/v1/feedback/p"><script>x</script>'}, url="a/")
    assert "<script>x</script>" not in html and "&#34;&gt;&lt;script&gt;" in html
    assert 'data-path="/a/"' in html
    combined = render_partial({"server": "https://fb.example/", "project": "docs"}, root="../../")
    assert 'data-endpoint="https://fb.example/v1/feedback/docs"' in combined
    assert 'src="../../_static/js/feedback.js?v=t1"' in combined
    no_thumbs = render_partial({"endpoint": "https://fb.example/v1/feedback/p", "thumbsRating": False})
    assert "Was this page helpful?" not in no_thumbs and 'data-code-snippets="true"' in no_thumbs


def test_a_real_build_renders_the_widget_on_every_page(tmp_path):
    import json

    from docsgen.build import build

    docs = tmp_path / "docs"
    docs.mkdir()
    config = {
        "theme": "mint",
        "name": "Widget",
        "colors": {"primary": "#0D9373"},
        "navigation": {"pages": ["index", "guides/setup"]},
        "feedback": {"endpoint": "https://fb.example/v1/feedback/acme", "thumbsRating": True},
    }
    (docs / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    (docs / "index.mdx").write_text("---\ntitle: Home\n---\n\nHi.\n", encoding="utf-8")
    (docs / "guides").mkdir()
    (docs / "guides" / "setup.mdx").write_text(
        "---\ntitle: Setup\n---\n\n```python main.py\nprint(1)\n```\n", encoding="utf-8"
    )
    build(docs, tmp_path / "out")
    setup = (tmp_path / "out" / "guides" / "setup" / "index.html").read_text(encoding="utf-8")
    assert 'data-endpoint="https://fb.example/v1/feedback/acme"' in setup
    assert 'data-path="/guides/setup/"' in setup and "Was this page helpful?" in setup
    assert 'src="../../_static/js/feedback.js' in setup
    assert (tmp_path / "out" / "_static" / "js" / "feedback.js").exists()
    assert (tmp_path / "out" / "_static" / "feedback.css").exists()
    assert 'data-lang="python"' in setup  # the code block the widget attaches its snippet button to
