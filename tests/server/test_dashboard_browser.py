"""The dashboard in Debian's chromium against a real server: sign in, filter, triage, export, keys, deployments."""

from __future__ import annotations

import csv
import threading

import httpx
import pytest
from playwright.sync_api import expect

from docsgen.common.errors import DocsgenError, error
from docsgen.server.app import create_app
from docsgen.server.db import now_ms
from docsgen.server.testing import LiveServer
from tests.dashboard_helpers import make_world


class QuickBuild:
    """A build that waits for the test's go-ahead, then writes a page or fails with a located error."""

    def __init__(self):
        self.fail = False
        self.go = threading.Event()
        self.go.set()

    def __call__(self, docs_dir, out_dir, strict=False):
        assert self.go.wait(10)
        if self.fail:
            raise DocsgenError([error("config.schema", "navigation is required", "docs.json", 3, 5)])
        out_dir.mkdir(parents=True)
        (out_dir / "index.html").write_text("built", encoding="utf-8")
        return type("Result", (), {"pages": 1, "files": 1, "seconds": 0.01, "diagnostics": []})()


@pytest.fixture
def live(tmp_path):
    world = make_world(tmp_path, now_ms())
    build = QuickBuild()
    with LiveServer(create_app(engine=world.engine, build_fn=build)) as server:
        yield server, world, build
    world.engine.dispose()


def sign_in(page, url: str, key: str) -> None:
    page.goto(f"{url}/dashboard/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.get_by_label("Admin key").fill(key)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Feedback", exact=True)).to_be_visible()


def test_sign_in_filter_change_status_and_export(live, page, tmp_path):
    server, world, _ = live
    page.goto(f"{server.url}/dashboard/signin")
    page.get_by_label("Admin key").fill("dg_" + "w" * 44)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("unknown, revoked or mistyped")
    sign_in(page, server.url, world.key_a)
    entries = page.locator("li.entry")
    expect(entries).to_have_count(5)
    expect(
        page.locator(".entries .comment").filter(has_text="<script>alert(1)</script> great")
    ).to_have_count(1)
    assert page.evaluate("() => document.querySelectorAll('.entries script').length") == 0
    # The summary puts the page with the most thumbs down first; the chart is inline SVG.
    expect(page.locator("table.pages tbody tr").first.locator("th")).to_have_text("/quickstart")
    assert page.locator("svg.chart rect[data-source]").count() == 5
    expect(page.locator("svg.ratio")).to_contain_text("2 helpful")

    # Filter by source: one code comment, highlighted, with its filename and language.
    page.get_by_label("Source", exact=True).select_option("code_snippet")
    page.get_by_role("button", name="Apply filters").click()
    expect(entries).to_have_count(1)
    code = entries.first.locator("figure.code")
    expect(code.locator(".filename")).to_have_text("main.py")
    expect(code.locator(".lang")).to_have_text("python")
    expect(code.locator(".hl pre")).to_contain_text('print("<b>hi</b>")')
    assert code.locator(".hl span").count() > 2  # Pygments token spans
    assert page.url.endswith("source=code_snippet")

    # Change its status, then find it under the resolved filter.
    entries.first.get_by_role("button", name="Mark resolved").click()
    expect(page.locator("#flash")).to_contain_text("1 entry changed")
    expect(entries.first.locator(".badge.status")).to_have_text("resolved")
    page.get_by_label("Source", exact=True).select_option("")
    page.get_by_label("resolved", exact=True).check()
    page.get_by_role("button", name="Apply filters").click()
    expect(entries).to_have_count(1)
    expect(entries.first).to_contain_text("/api/users")

    # A selection: every pending entry moves to in progress at once.
    page.goto(f"{server.url}/dashboard/feedback?status=pending")
    expect(entries).to_have_count(4)
    page.get_by_label("Select all on this page").check()
    page.get_by_label("Move selected to").select_option("in_progress")
    page.get_by_role("button", name="Apply to selected").click()
    expect(page.locator("#flash")).to_contain_text("4 entries changed")
    expect(page.locator("li.entry")).to_have_count(0)

    # Export the current filter (in progress, thumbs only) as CSV.
    page.goto(f"{server.url}/dashboard/feedback?status=in_progress&source=thumbs_only")
    expect(entries).to_have_count(2)
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export CSV").click()
    target = tmp_path / "export.csv"
    download_info.value.save_as(target)
    rows = list(csv.DictReader(target.open(encoding="utf-8", newline="")))
    assert [(r["source"], r["status"]) for r in rows] == [("thumbs_only", "in_progress")] * 2
    assert sorted(r["path"] for r in rows) == ["/guides/auth", "/quickstart"]
    assert sorted(r["helpful"] for r in rows) == ["false", "true"]


def test_cursor_paging(live, page):
    server, world, _ = live
    from docsgen.server import feedback as fb

    with world.engine.begin() as conn:
        for i in range(30):
            values = fb.validate_submission({"source": "thumbs_only", "path": f"/p{i}", "helpful": True})
            fb.store(conn, "alpha", values, now_ms() - 10 * 86_400_000 + i)
    sign_in(page, server.url, world.key_a)
    expect(page.locator("li.entry")).to_have_count(25)
    first_page = set(page.locator("li.entry").evaluate_all("els => els.map(e => e.dataset.id)"))
    page.get_by_role("link", name="Older entries").click()
    expect(page.locator("li.entry")).to_have_count(10)
    second_page = set(page.locator("li.entry").evaluate_all("els => els.map(e => e.dataset.id)"))
    assert not first_page & second_page
    expect(page.get_by_role("link", name="Older entries")).to_have_count(0)
    page.get_by_role("link", name="Newest").click()
    expect(page.locator("li.entry")).to_have_count(25)


def test_create_copy_and_revoke_a_key(live, page):
    server, world, _ = live
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_in(page, server.url, world.key_a)
    page.get_by_role("link", name="API keys").click()
    expect(page.locator("tr[data-key]")).to_have_count(1)
    expect(page.locator("tr[data-key]").first).to_contain_text("just now")  # signing in used the key
    page.get_by_role("button", name="Create a key").click()
    new_key = page.locator("#new-key").input_value()
    assert new_key.startswith("dg_") and len(new_key) == 47
    page.get_by_role("button", name="Copy").click()
    expect(page.locator(".copied")).to_have_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == new_key
    listing = f"{server.url}/v1/analytics/alpha/feedback"
    auth = {"Authorization": f"Bearer {new_key}"}
    assert httpx.get(listing, headers=auth).status_code == 200
    page.goto(f"{server.url}/dashboard/keys")
    assert new_key not in page.content()  # shown once only
    row = page.locator(f'tr[data-key="{new_key[3:15]}"]')
    expect(row).to_contain_text("active")
    expect(row.locator("td").nth(1)).to_have_text("just now")  # the API call counted as a use
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Revoke").click()
    expect(page.get_by_role("status")).to_contain_text("revoked")
    expect(row).to_contain_text("revoked")
    assert httpx.get(listing, headers=auth).status_code == 401
    assert httpx.get(listing, headers={"Authorization": f"Bearer {world.key_a}"}).status_code == 200


def test_trigger_deployments_and_read_a_failure(live, page):
    server, world, build = live
    sign_in(page, server.url, world.key_a)
    page.get_by_role("link", name="Deployments").click()
    expect(page.get_by_text("No deployments yet")).to_be_visible()
    build.go.clear()
    page.get_by_role("button", name="Deploy now").click()
    expect(page.locator("#dep-status")).to_have_text("running")
    build.go.set()
    expect(page.locator("#dep-status")).to_have_text(
        "succeeded", timeout=15_000
    )  # the page follows the build
    expect(page.locator("#dep-summary")).to_contain_text("build succeeded: 1 page(s)")
    assert (world.out / "index.html").read_text() == "built"

    build.fail = True
    page.get_by_role("link", name="All deployments").click()
    page.get_by_role("button", name="Deploy now").click()
    expect(page.locator("#dep-status")).to_have_text("failed", timeout=15_000)
    expect(page.locator("#dep-summary")).to_contain_text("build failed: 1 error(s)")
    expect(page.locator("ul.errors li")).to_contain_text("docs.json:3:5")
    expect(page.locator("ul.errors li")).to_contain_text("navigation is required")
    page.get_by_role("link", name="All deployments").click()
    history = page.locator("tr[data-deployment]")
    expect(history).to_have_count(2)
    expect(history.nth(0).locator(".badge")).to_have_text("failed")
    expect(history.nth(1).locator(".badge")).to_have_text("succeeded")


def test_usable_on_a_phone(live, page):
    server, world, _ = live
    page.set_viewport_size({"width": 375, "height": 740})
    sign_in(page, server.url, world.key_a)
    for path in ("/dashboard/feedback", "/dashboard/keys", "/dashboard/deployments"):
        page.goto(server.url + path)
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, path
    # Signing out ends the session in the browser.
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    page.goto(f"{server.url}/dashboard/feedback")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
