"""Analytics and the assistant end to end: a site built with `docsgen build` for a feedback server, served beside
it, read by a real browser: page views, searches with and without results, a clicked result and a 404 arrive and
the API lists them; Do Not Track and the consent gate send nothing; the assistant (search dialog, contextual menu,
`mode: assistant` page) streams a stand-in model's answer as sanitised Markdown with its sources, and a rating
reaches the feedback list."""

from __future__ import annotations

import secrets
import time
from types import SimpleNamespace

import httpx
import pytest

from docsgen.server import traffic
from docsgen.server.app import create_app
from docsgen.server.assistant_api import AssistantOptions
from docsgen.server.db import open_database
from docsgen.server.model import ModelConfig
from docsgen.server.testing import LiveServer, seed_project
from tests.server.fake_model import fake_model
from tests.server.insights_site import build_site, static_server

# Playwright's headless chromium says "HeadlessChrome", which the server drops as a crawler: present as a reader.
READER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
CONSENT = {"cookies": {"key": "consent", "value": "yes"}}


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    root = tmp_path_factory.mktemp("insights")
    engine = open_database(f"sqlite:///{root / 'db' / 'a.sqlite3'}")
    project = "acme-" + secrets.token_hex(3)
    with fake_model() as (model_url, script):
        options = AssistantOptions(ModelConfig(model_url, "tiny", timeout=10), rate=0)
        app = create_app(engine=engine, rate_limit=0, assistant=options)
        with static_server(root / "out") as origin, LiveServer(app) as live:
            key = seed_project(engine, project, [origin], docs_dir=root / "docs", out_dir=root / "out")
            build_site(root / "docs", root / "out", live.url, project, {"integrations": CONSENT})
            yield SimpleNamespace(
                origin=origin, api=live.url, project=project, key=key, engine=engine, script=script
            )
    engine.dispose()


def api(stack, report: str) -> dict:
    r = httpx.get(
        f"{stack.api}/v1/analytics/{stack.project}/{report}", headers={"Authorization": f"Bearer {stack.key}"}
    )
    assert r.status_code == 200, r.text
    return r.json()


def wait_for(check, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def test_views_searches_clicks_and_404s_arrive(browser, stack):
    context = browser.new_context(user_agent=READER)
    context.add_init_script("localStorage.setItem('consent', 'yes')")
    page = context.new_page()
    beacons: list[str] = []
    page.on("request", lambda r: beacons.append(r.url) if "/v1/events/" in r.url else None)

    def sent(count: int) -> None:  # a reader stays long enough for the page's script to report
        for _ in range(100):
            if len(beacons) >= count:
                return
            page.wait_for_timeout(100)  # lets Playwright deliver request events (time.sleep would not)
        raise AssertionError(beacons)

    page.goto(f"{stack.origin}/guide/")
    sent(1)
    page.locator(".dg-search-button").click()
    page.locator(".dg-search-input").fill("qwxyzzyq")
    page.wait_for_function("document.querySelector('.dg-search-status').textContent.includes('No results')")
    page.wait_for_timeout(1700)  # the reader stops typing: the search counts
    sent(2)
    page.locator(".dg-search-input").fill("refunds")
    page.wait_for_selector("#dg-search-results [role=option]")
    page.locator("#dg-search-results [role=option]").first.click()
    page.wait_for_url(f"{stack.origin}/billing/**")
    sent(4)  # the search with its click, then the view of /billing
    page.goto(
        f"{stack.origin}/no/such/page"
    )  # the 404 page reports itself, then goes home (errors.404.redirect)
    page.wait_for_url(f"{stack.origin}/")
    sent(6)
    context.close()

    wait_for(lambda: api(stack, "views")["totals"]["total"] >= 3)
    views = api(stack, "views")
    assert views["totals"] == {"human": 3, "ai": 0, "total": 3}
    assert {row["path"]: row["total"] for row in views["views"]} == {"/guide": 1, "/billing": 1, "/": 1}
    visitors = api(stack, "visitors")
    assert visitors["totals"] == {"human": 1, "ai": 0, "total": 1} and len(visitors["visitors"]) == 3
    searches = wait_for(lambda: (s := api(stack, "searches"))["totalSearches"] >= 2 and s)
    by_term = {s["searchQuery"]: s for s in searches["searches"]}
    assert by_term["refunds"]["topClickedPage"] == "/billing" and by_term["refunds"]["ctr"] == 1.0
    assert by_term["qwxyzzyq"]["ctr"] == 0 and by_term["qwxyzzyq"]["topClickedPage"] is None
    with stack.engine.connect() as conn:
        missing = traffic.top(conn, stack.project, traffic.Range(None, None, 10, 0), "path", "notfound")
    assert missing == [{"value": "/no/such/page", "count": 1}]


def test_without_consent_or_with_do_not_track_nothing_is_sent(browser, stack):
    for init in (
        "",
        "localStorage.setItem('consent', 'yes'); Object.defineProperty(navigator, 'doNotTrack', {get: () => '1'})",
    ):
        context = browser.new_context(user_agent=READER)
        if init:
            context.add_init_script(init)
        page = context.new_page()
        sent: list[str] = []
        page.on("request", lambda request, sent=sent: sent.append(request.url))
        page.goto(f"{stack.origin}/billing/")
        page.wait_for_load_state("networkidle")
        context.close()
        assert not [url for url in sent if url.startswith(stack.api)]


INJECTION = [
    "Refunds take **five business days**. ",
    '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"> ',
    "[evil](javascript:window.__pwned=3) and [Billing](/billing).\n\n- one\n- two",
]


def test_the_assistant_answers_from_the_search_dialog_as_sanitised_markdown(browser, stack):
    stack.script.replies.append(("stream", INJECTION))
    context = browser.new_context(user_agent=READER)
    page = context.new_page()
    page.goto(f"{stack.origin}/guide/")
    page.locator(".dg-search-button").click()
    page.locator(".dg-search-input").fill("How long do refunds take?")
    ask = page.locator(".dg-search-ask")
    assert "How long do refunds take?" in ask.inner_text()
    ask.click()
    panel = page.locator(".dg-assistant-dialog")
    rate = panel.get_by_role("group", name="Was this answer helpful?")
    rate.wait_for()
    answer = panel.locator(".dg-assistant-answer")
    assert answer.locator("strong").inner_text() == "five business days"
    assert "<script>window.__pwned = 1</script>" in answer.inner_text()  # shown as text, never run
    assert answer.locator("script, img, [onerror]").count() == 0
    assert [a.get_attribute("href") for a in answer.locator("a").all()] == ["../billing"]
    assert answer.locator("li").all_inner_texts() == ["one", "two"]
    assert page.evaluate("window.__pwned") is None
    # Mintlify's CSS hooks (customize/custom-scripts.mdx) on the chat, once each
    assert (
        page.locator("#assistant-entry").count() == 1 and page.locator("#chat-assistant-sheet").count() == 1
    )
    assert page.locator("textarea#chat-assistant-textarea.chat-assistant-input").count() == 1
    assert panel.locator(".chat-assistant-payload-item").count() == 2
    sources = panel.get_by_role("navigation", name="Pages used").locator("a")
    assert sources.first.inner_text() == "Billing"
    sources.first.click()  # a real link to the page
    page.wait_for_url(f"{stack.origin}/billing/")
    page.go_back()
    assert stack.script.requests[-1]["body"]["messages"][-1]["content"].endswith("How long do refunds take?")
    # a rating: the answer again, rated
    page.locator(".dg-search-button").click()
    page.locator(".dg-search-input").fill("refunds")
    stack.script.replies.append(("stream", ["Five days."]))
    page.locator(".dg-search-ask").click()
    rate = page.locator(".dg-assistant-dialog").get_by_role("group", name="Was this answer helpful?")
    rate.get_by_role("button", name="Yes").click()
    rate.get_by_text("Thank you for your feedback!").wait_for()
    context.close()

    listing = api(stack, "assistant")
    assert [c["query"] for c in listing["conversations"]][-2:] == ["refunds", "How long do refunds take?"]
    first = listing["conversations"][-1]
    assert first["pageUrl"] == stack.origin + "/guide" and first["sources"][0] == {
        "title": "Billing",
        "url": "/billing",
    }
    assert api(stack, "assistant/caller-stats")["web"] >= 2
    r = httpx.get(
        f"{stack.api}/v1/analytics/{stack.project}/feedback", headers={"Authorization": f"Bearer {stack.key}"}
    )
    rated = [e for e in r.json()["feedback"] if e["comment"].startswith("Assistant answer")]
    assert len(rated) == 1 and rated[0]["helpful"] is True and rated[0]["path"] == "/guide"


def test_the_contextual_menu_and_an_assistant_page_open_the_chat(browser, stack):
    context = browser.new_context(user_agent=READER)
    page = context.new_page()
    page.goto(f"{stack.origin}/billing/")
    page.locator(".dg-contextual [data-action=assistant]").first.click()
    field = page.locator(".dg-assistant-dialog textarea")
    assert field.input_value() == "Explain the page \u201cBilling\u201d"
    page.keyboard.press("Escape")
    page.goto(f"{stack.origin}/ask/")
    chat = page.locator(".dg-prose .dg-assistant")
    assert chat.is_visible() and page.locator(".dg-assistant-dialog").count() == 0
    stack.script.replies.append(("stream", ["Uploads are retried ", "three times."]))
    chat.locator("textarea").fill("Are uploads retried?")
    chat.locator("textarea").press("Enter")
    chat.get_by_role("group", name="Was this answer helpful?").wait_for()
    assert chat.locator(".dg-assistant-answer").inner_text() == "Uploads are retried three times."
    assert chat.get_by_role("navigation", name="Pages used").locator("a").first.inner_text() == "Upload guide"
    context.close()
