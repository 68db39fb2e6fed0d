"""The playground's tools in chromium against a real API on 127.0.0.1: the wide dialog (desktop and 390 px phones),
environments, request history, named body examples, the body form kept in sync with the JSON, and the ParamFields
of a hand-written `api:` page as inputs."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.playground_servers import TokenApi, running_site

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("DOCSGEN_ARTIFACTS", "/tmp/docsgen-test-artifacts")) / "playground"


def shot(page: Page, name: str) -> None:
    """Save a screenshot for reviewers (DOCSGEN_ARTIFACTS/playground)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_site(tmp_path_factory.mktemp("tools")) as env:
        yield env


def open_page(page: Page, site: dict, path: str) -> None:
    page.set_default_timeout(10000)
    page.goto(site["site"] + path)
    expect(page.locator("html")).to_have_attribute("data-playground", "interactive")
    page.get_by_role("button", name="Try it").click()
    expect(page.locator(".dg-pg-dialog")).to_be_visible()


def last_json(page: Page) -> dict:
    expect(page.locator(".dg-pg-response .dg-pg-status")).to_be_visible()
    return json.loads(page.locator(".dg-pg-body pre").inner_text())


def field(form, path: str):
    """The input of one body field in the Form view."""
    return (
        form.locator(f'.dg-pg-field[data-field="bodyform:{path}"]').locator("input, select, textarea").first
    )


def send(page: Page) -> None:
    page.locator(".dg-pg-response").evaluate("box => box.textContent = ''")
    page.get_by_role("button", name="Send").click()


def test_the_playground_is_a_wide_dialog_and_long_responses_scroll_inside(page: Page, site: dict) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page(page, site, "api-reference/add-pet/")
    dialog = page.locator(".dg-pg-dialog")
    content = page.locator(".dg-content, main").first.bounding_box()
    box = dialog.bounding_box()
    assert box["width"] > 1000 and box["width"] > content["width"]  # wider than the content column
    page.get_by_label("X-Key (header)").fill("k")
    page.locator(".dg-pg-body-text").fill(json.dumps({"name": "x" * 40, "notes": ["line"] * 400}))
    request = page.locator(".dg-pg-request")
    request.locator("summary").click()  # the request as cURL, live, inside the dialog
    expect(request.locator("code")).to_contain_text("--header 'X-Key: k'")
    expect(request.locator("code")).to_contain_text('"name":')
    send(page)
    assert last_json(page)["json"]["name"] == "x" * 40
    out = page.locator(".dg-pg-out")
    sizes = out.evaluate(
        "e => [e.scrollHeight, e.clientHeight, document.documentElement.scrollWidth, innerWidth]"
    )
    assert sizes[0] > sizes[1]  # the long response scrolls inside the dialog's response column
    assert sizes[2] <= sizes[3]
    shot(page, "dialog-1280")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator(".dg-pg-toggle")).to_have_attribute("aria-expanded", "false")


def test_phone_width_has_no_horizontal_scroll(page: Page, site: dict) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    for path in ("api-reference/add-pet/", "api-reference/who-am-i/", "order/"):
        open_page(page, site, path)
        widths = page.evaluate(
            "() => [document.documentElement.scrollWidth, innerWidth,"
            " document.querySelector('.dg-pg-dialog').getBoundingClientRect().width,"
            " Math.max(...[...document.querySelectorAll('.dg-pg-dialog *')].map(e => e.getBoundingClientRect().right))]"
        )
        assert widths[0] <= widths[1], f"{path}: the page scrolls sideways ({widths})"
        assert widths[2] <= 390 and widths[3] <= 391, f"{path}: the dialog is wider than the phone ({widths})"
        shot(page, "dialog-390-" + path.strip("/").replace("/", "-"))


def test_body_examples_and_form_stay_in_sync_with_json(page: Page, site: dict) -> None:
    open_page(page, site, "api-reference/add-pet/")
    area = page.locator(".dg-pg-body-text")
    assert json.loads(area.input_value()) == {"name": "Tom", "age": 2, "kind": "cat"}
    page.get_by_label("Example", exact=True).select_option(label="A big dog")
    assert json.loads(area.input_value())["owner"] == {"email": "a@b.c"}
    page.get_by_role("tab", name="Form").click()
    form = page.locator(".dg-pg-bodyform")
    pills = form.locator('.dg-pg-field[data-field="bodyform:kind"] .dg-pg-pill')
    expect(pills).to_have_text(["beta", "stable soon"])  # x-mint pre / post
    expect(field(form, "name")).to_have_value("Rex")
    expect(field(form, "owner.email")).to_have_value("a@b.c")
    field(form, "name").fill("Fido")
    field(form, "age").fill("4")
    field(form, "kind").select_option("cat")
    field(form, "owner.email").fill("")
    page.get_by_role("tab", name="JSON").click()
    assert json.loads(area.input_value()) == {"name": "Fido", "age": 4, "kind": "cat", "owner": {}}
    area.fill(json.dumps({"name": "Zed", "extra": True}))
    page.get_by_role("tab", name="Form").click()
    expect(field(form, "name")).to_have_value("Zed")
    expect(field(form, "age")).to_have_value("")
    field(form, "age").fill("1")
    page.get_by_role("tab", name="JSON").click()
    assert json.loads(area.input_value()) == {"name": "Zed", "extra": True, "age": 1}  # unknown keys kept
    page.get_by_label("X-Key (header)").fill("k")
    send(page)
    assert last_json(page)["json"] == {"name": "Zed", "extra": True, "age": 1}


def test_history_keeps_the_last_20_and_reruns_with_one_click(page: Page, site: dict) -> None:
    open_page(page, site, "api-reference/add-pet/")
    page.evaluate("() => localStorage.clear()")
    page.reload()
    page.get_by_role("button", name="Try it").click()
    page.get_by_label("X-Key (header)").fill("k")
    area = page.locator(".dg-pg-body-text")
    for n in range(22):
        area.fill(json.dumps({"name": f"pet-{n}"}))
        send(page)
        assert last_json(page)["json"]["name"] == f"pet-{n}"
    history = page.locator(".dg-pg-history")
    history.locator("summary").click()
    items = history.locator(".dg-pg-history-item")
    expect(items).to_have_count(20)
    expect(history.locator("summary")).to_have_text("History (20)")
    page.reload()  # kept in the browser
    page.get_by_role("button", name="Try it").click()
    page.get_by_label("X-Key (header)").fill("k")
    history.locator("summary").click()
    expect(items).to_have_count(20)
    area.fill(json.dumps({"name": "something else"}))
    before = len(TokenApi.seen)
    items.nth(5).get_by_role("button", name=re.compile("^Re-run")).click()  # the 17th request: pet-16
    assert last_json(page)["json"] == {"name": "pet-16"}
    assert len(TokenApi.seen) == before + 1
    assert json.loads(area.input_value()) == {"name": "pet-16"}
    stored = page.evaluate("() => JSON.stringify(localStorage)")
    assert '"k"' not in stored and "X-Key" not in stored  # no credentials in the history


def test_environments_switch_server_variables_and_credentials(page: Page, site: dict) -> None:
    open_page(page, site, "api-reference/add-pet/")
    page.evaluate("() => localStorage.clear()")
    page.reload()
    page.get_by_role("button", name="Try it").click()
    version = page.locator('.dg-pg-field[data-field="server:version"] select')
    version.select_option("v2")
    page.get_by_label("X-Key (header)").fill("staging-key")
    page.get_by_label("Environment name").fill("staging")
    page.get_by_role("button", name="Save", exact=True).click()
    version.select_option("v1")
    page.get_by_label("X-Key (header)").fill("prod-key")
    page.get_by_label("Environment name").fill("production")
    page.get_by_role("button", name="Save", exact=True).click()
    envs = json.loads(page.evaluate("() => localStorage.getItem('dg-pg-envs')"))
    assert envs["envs"]["staging"]["vars"] == {"version": "v2"}
    assert envs["envs"]["staging"]["auth"] == {"key": {"token": "staging-key"}}
    choice = page.get_by_label("Environment", exact=True)
    choice.select_option("staging")
    expect(page.get_by_label("X-Key (header)")).to_have_value("staging-key")
    send(page)
    seen = last_json(page)
    assert seen["path"] == "/v2/pets" and seen["headers"]["x-key"] == "staging-key"
    choice.select_option("production")
    send(page)
    seen = last_json(page)
    assert seen["path"] == "/v1/pets" and seen["headers"]["x-key"] == "prod-key"
    # another endpoint page starts in the environment chosen last
    page.goto(site["site"] + "api-reference/who-am-i/")
    page.get_by_role("button", name="Try it").click()
    expect(page.get_by_label("Environment", exact=True)).to_have_value("production")
    expect(page.locator(".dg-pg-dialog-url")).to_contain_text("/v1/me")
    page.get_by_label("Environment", exact=True).select_option("staging")
    expect(page.locator(".dg-pg-dialog-url")).to_contain_text("/v2/me")
    page.get_by_role("button", name="Delete").click()
    assert "staging" not in json.loads(page.evaluate("() => localStorage.getItem('dg-pg-envs')"))["envs"]


def test_paramfields_of_an_api_page_become_inputs(page: Page, site: dict) -> None:
    open_page(page, site, "order/")
    dialog = page.locator(".dg-pg-dialog")
    send(page)
    expect(page.locator(".dg-pg-errors")).to_contain_text("X-Tenant is required")
    dialog.get_by_label(re.compile("^X-Tenant")).fill("acme")
    dialog.get_by_label(re.compile("^dry_run")).select_option("true")
    page.get_by_role("tab", name="Form").click()
    form = page.locator(".dg-pg-bodyform")
    field(form, "item").fill("book")
    field(form, "count").fill("3")
    field(form, "address.city").fill("Lyon")
    send(page)
    seen = last_json(page)
    assert seen["path"] == "/v1/orders" and seen["query"] == {"dry_run": ["true"]}
    assert seen["headers"]["x-tenant"] == "acme"
    assert seen["json"] == {"item": "book", "count": 3, "address": {"city": "Lyon"}}


AXE = """() => axe.run(document.querySelector('.dg-pg-dialog'), {resultTypes: ["violations"]}).then((r) => r.violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")}`))"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_open_dialog_has_no_serious_accessibility_violation(page: Page, site: dict, scheme: str) -> None:
    from tests.readers_sites import axe_source

    page.emulate_media(color_scheme=scheme)
    for path in ("api-reference/add-pet/", "api-reference/who-am-i/", "order/"):
        open_page(page, site, path)
        if path != "api-reference/who-am-i/":
            page.get_by_role("tab", name="Form").click()
        page.get_by_label("Environment name").fill("x")
        page.add_script_tag(content=axe_source())
        assert page.evaluate(AXE) == [], f"{path} ({scheme})"
