"""OAuth 2.0 in the playground, in chromium: a real authorization server on 127.0.0.1 (no CORS on its token
endpoint), the site served by `docsgen dev` (whose proxy sends the token requests), and an API that accepts only
the tokens the server issued."""

from __future__ import annotations

import functools
import json
import re
from http.server import SimpleHTTPRequestHandler

import pytest
from playwright.sync_api import Page, expect

from docsgen.build import build
from tests.playground_servers import (
    CLIENT_ID,
    CLIENT_SECRET,
    OAuthServer,
    TokenApi,
    running_site,
    serve,
    write_site,
)


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_site(tmp_path_factory.mktemp("oauth")) as env:
        yield env


def open_me(page: Page, site: dict) -> None:
    page.set_default_timeout(10000)
    page.goto(site["site"] + "api-reference/who-am-i/")
    expect(page.locator("html")).to_have_attribute("data-playground", "interactive")
    page.get_by_role("button", name="Try it").click()


def test_authorization_code_with_pkce_through_the_callback_page(page: Page, site: dict) -> None:
    open_me(page, site)
    box = page.locator(".dg-pg-oauth")
    expect(box.locator(".dg-pg-oauth-flow option")).to_have_text(
        ["Authorization code (PKCE)", "Client credentials"]
    )
    scopes = box.locator(".dg-pg-scopes input")
    expect(scopes).to_have_count(2)  # read, write: the authorization code flow's scopes
    assert box.get_by_label(re.compile("^read")).is_checked()  # the operation requires it
    assert not box.get_by_label(re.compile("^write")).is_checked()
    box.get_by_label(re.compile("^write")).check()
    box.get_by_label("Client ID").fill(CLIENT_ID)
    before = len(OAuthServer.requests)
    with page.expect_popup() as popup_info:
        box.get_by_role("button", name="Authorize").click()
    popup = popup_info.value
    expect(box.locator(".dg-pg-oauth-status")).to_contain_text("Token received", timeout=15000)
    if not popup.is_closed():
        popup.wait_for_event("close")  # the callback page closes its window once it handed the code over
    authorize = next(r for r in OAuthServer.requests[before:] if r["path"] == "/authorize")["query"]
    assert authorize["redirect_uri"] == site["site"] + "_static/oauth-callback.html"
    assert authorize["code_challenge_method"] == "S256" and authorize["scope"] == "read write"
    token_call = next(r for r in OAuthServer.requests[before:] if r["path"] == "/token")
    assert token_call["form"]["grant_type"] == "authorization_code" and token_call["form"]["code_verifier"]
    assert token_call["origin"] is None  # sent by the dev proxy, not by the page (the server has no CORS)
    token = page.locator('[data-auth="oauth:token"]').input_value()
    assert OAuthServer.tokens[token] == "read write"
    # the token is kept for this tab only
    assert page.evaluate("() => sessionStorage.getItem('dg-pg-auth:oauth:token')") == token
    assert (
        page.evaluate("() => Object.keys(localStorage).filter(k => localStorage.getItem(k).includes('at-'))")
        == []
    )
    page.get_by_role("button", name="Send").click()
    expect(page.locator(".dg-pg-status")).to_contain_text("200")
    body = json.loads(page.locator(".dg-pg-body pre").inner_text())
    assert (
        body["scope"] == "read write" and TokenApi.seen[-1]["headers"]["authorization"] == f"Bearer {token}"
    )
    page.reload()  # same tab: the token is still there
    page.get_by_role("button", name="Try it").click()
    expect(page.locator('[data-auth="oauth:token"]')).to_have_value(token)


def test_client_credentials_uses_the_secret_and_chosen_scopes(page: Page, site: dict) -> None:
    open_me(page, site)
    box = page.locator(".dg-pg-oauth")
    box.locator(".dg-pg-oauth-flow").select_option(label="Client credentials")
    expect(box.get_by_label(re.compile("^admin"))).to_be_visible()  # this flow's own scopes
    box.get_by_label("Client ID").fill(CLIENT_ID)
    box.get_by_label("Client secret").fill("wrong")
    box.get_by_role("button", name="Get token").click()
    expect(box.locator(".dg-pg-oauth-status")).to_contain_text("wrong client secret")
    expect(box).to_have_attribute("data-state", "error")
    box.get_by_label("Client secret").fill(CLIENT_SECRET)
    box.get_by_label(re.compile("^admin")).check()
    box.get_by_role("button", name="Get token").click()
    expect(box.locator(".dg-pg-oauth-status")).to_contain_text("Token received")
    token = page.locator('[data-auth="oauth:token"]').input_value()
    assert sorted(OAuthServer.tokens[token].split()) == ["admin", "read"]
    page.get_by_role("button", name="Send").click()
    expect(page.locator(".dg-pg-status")).to_contain_text("200")


def test_a_new_tab_starts_without_the_token(page: Page, site: dict) -> None:
    open_me(page, site)
    page.locator('[data-auth="oauth:token"]').fill("at-kept-here")
    other = page.context.new_page()
    open_me(other, site)
    expect(other.locator('[data-auth="oauth:token"]')).to_have_value("")
    other.close()


def test_an_authorization_url_that_is_not_http_never_runs(page: Page, site: dict) -> None:
    page.set_default_timeout(10000)
    page.goto(site["site"] + "api-reference/evil-flow/")
    page.get_by_role("button", name="Try it").click()
    box = page.locator(".dg-pg-oauth")
    box.get_by_label("Client ID").fill(CLIENT_ID)
    box.get_by_role("button", name="Authorize").click()
    expect(box.locator(".dg-pg-oauth-status")).to_contain_text("not an http(s) URL")
    assert page.title() != "owned" and all(p.title() != "owned" for p in page.context.pages)


def test_on_a_static_host_the_token_request_goes_directly(page: Page, tmp_path) -> None:
    auth, api = serve(OAuthServer), serve(TokenApi)
    docs = write_site(tmp_path / "docs", api.server_address[1], auth.server_address[1])
    build(docs, tmp_path / "out", workers=1)
    static = serve(functools.partial(Quiet, directory=str(tmp_path / "out")))
    OAuthServer.cors = True
    try:
        page.set_default_timeout(10000)
        page.goto(f"http://127.0.0.1:{static.server_address[1]}/api-reference/who-am-i/")
        page.get_by_role("button", name="Try it").click()
        box = page.locator(".dg-pg-oauth")
        box.locator(".dg-pg-oauth-flow").select_option(label="Client credentials")
        box.get_by_label("Client ID").fill(CLIENT_ID)
        box.get_by_label("Client secret").fill(CLIENT_SECRET)
        box.get_by_role("button", name="Get token").click()
        expect(box.locator(".dg-pg-oauth-status")).to_contain_text("Token received")
        token_call = [r for r in OAuthServer.requests if r["path"] == "/token"][-1]
        assert token_call["origin"] == f"http://127.0.0.1:{static.server_address[1]}"  # from the page itself
    finally:
        OAuthServer.cors = False
        for server in (static, auth, api):
            server.shutdown()
