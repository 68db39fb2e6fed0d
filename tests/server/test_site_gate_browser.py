"""The site gate in Debian's chromium: members of two groups sign in through the JWT handover page and each
sees, opens and finds in search only what their group may read; a reader without a session is sent to sign in."""

from __future__ import annotations

import pytest

from docsgen.server.app import create_app
from docsgen.server.testing import LiveServer
from tests.server.gate_helpers import JwtSigner, build_private_site, gate_project


@pytest.fixture(scope="module")
def gate(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gate-browser")
    site = build_private_site(tmp / "out")
    signer = JwtSigner()
    engine = gate_project(tmp, site, {"method": "jwt", "publicKey": signer.public_pem})
    with LiveServer(create_app(engine=engine, site_project="acme")) as live:
        yield live.url, signer
    engine.dispose()


def search(page, word: str) -> list[str]:
    page.locator(".dg-search-button").click()
    page.locator(".dg-search-input").fill(word)
    page.wait_for_selector("#dg-search-results [role=option], .dg-search-status:not(:empty)")
    page.wait_for_timeout(300)
    titles = page.locator("#dg-search-results .dg-search-title").all_inner_texts()
    page.keyboard.press("Escape")
    return titles


@pytest.mark.parametrize(
    ("group", "mine", "theirs"),
    [
        ("admin", ("/admin/console/", "cormorant", "Admin console"), ("/billing/invoices/", "heron")),
        ("billing", ("/billing/invoices/", "heron", "Invoices"), ("/admin/console/", "cormorant")),
    ],
)
def test_each_group_sees_and_finds_only_its_pages(browser, gate, group, mine, theirs):
    url, signer = gate
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}{mine[0]}")
    assert "/login" in page.url or page.url.endswith("/login")  # not signed in: sent to sign in
    token = signer.token(groups=[group], content={"firstName": group.title()})
    page.goto(f"{url}/login/jwt-callback?redirect={mine[0]}#{token}")
    page.wait_for_url(f"{url}{mine[0]}")
    assert mine[1] in page.locator("main").inner_text()
    assert page.evaluate("window.docsgenUser.groups") == [group]
    if group == "admin":  # {user.firstName} in the page, from the reader's own data
        assert page.locator('[data-dg-user="firstName"]').inner_text() == "Admin"
        assert page.locator('[data-dg-user="company.name"]').inner_text() == ""  # absent: stays empty
    assert search(page, mine[1]) == [mine[2]]
    assert search(page, theirs[1]) == []
    assert search(page, "albatross") == ["Members guide"]  # every signed-in reader's pages
    answer = page.goto(f"{url}{theirs[0]}")
    assert answer is not None and answer.status == 404
    assert theirs[1] not in page.content()
    context.close()


def test_a_reader_without_a_session_finds_only_public_pages(browser, gate):
    url, _ = gate
    page = browser.new_page()
    page.goto(f"{url}/")
    assert search(page, "flamingo") == ["Public introduction"]
    assert search(page, "albatross") == []
    answer = page.goto(f"{url}/guides/members-guide/")
    assert answer is not None and "/login" in page.url
    page.close()


def test_the_playground_is_prefilled_with_the_readers_api_key(browser, gate):
    url, signer = gate
    context = browser.new_context()
    page = context.new_page()
    inputs = {"header": {"X-Api-Key": "key_of_bea"}}
    token = signer.token(groups=["billing"], apiPlaygroundInputs=inputs)
    page.goto(f"{url}/login/jwt-callback?redirect=/api-reference/list-ledgers/#{token}")
    page.wait_for_url(f"{url}/api-reference/list-ledgers/")
    page.get_by_role("button", name="Try it").click()  # the playground loads when opened
    field = page.locator('input[data-auth="key:token"]')
    field.wait_for(state="attached")
    assert field.input_value() == "key_of_bea"
    context.close()
