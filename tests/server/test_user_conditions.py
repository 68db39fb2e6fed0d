"""Mintlify's personalised conditions on `user` in pages: the evaluator's JavaScript semantics, what a static
build writes (both branches, the one a reader without user data gets shown, a located warning for a condition it
cannot evaluate), and docsgen server's gate sending each reader only the branch their user data selects."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from docsgen.build import build
from docsgen.common.errors import DocsgenError
from docsgen.mdx.expressions import Unevaluable
from docsgen.mdx.user_branches import split_condition
from docsgen.mdx.user_conditions import evaluate_condition
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.reader_sessions import COOKIE, session_key, session_token
from docsgen.server.site_auth import hash_password, save_auth
from docsgen.server.testing import LiveServer, seed_project
from tests.conftest import write_tree

PAGE = """---
title: Home
---

Hello {user.firstName}.

{
  user.plan === 'enterprise'
    ? <>Contact your admin to enable this feature.</>
    : <>See <a href="https://example.com/pricing">pricing</a> for upgrades.</>
}

{user.tags?.includes("beta") && <Note>Beta dashboard ahead.</Note>}

Seats: {user.seats > 10 ? "many" : user.seats > 0 ? "few" : "none"}.

{user.plan?.toUpperCase() === "PRO" ? <>Pro pricing</> : <>Standard pricing</>}

{user.plan(1) ? <>never</> : <>ever</>}
"""
DOCS = {
    "name": "Acme",
    "theme": "mint",
    "colors": {"primary": "#4F46E5"},
    "navigation": {"groups": [{"group": "Start", "public": True, "pages": ["index"]}]},
}


@pytest.mark.parametrize(
    ("condition", "user", "expected"),
    [
        ("user.plan === 'enterprise'", {"plan": "enterprise"}, True),
        ("user.plan === 'enterprise'", {}, False),
        ("user.plan !== 'free' && user.seats >= 5", {"plan": "pro", "seats": 5}, True),
        ("user.seats == '5'", {"seats": 5}, True),
        ("user.seats === '5'", {"seats": 5}, False),
        ("user.org?.plan ?? 'none'", {}, True),  # 'none' is truthy
        ("user.tags?.includes('beta')", {}, False),
        ("user.tags?.includes('beta')", {"tags": ["beta"]}, True),
        ("!user.beta || user.name.startsWith('A')", {"beta": True, "name": "Ann"}, True),
        ("user.items", {"items": []}, True),  # an empty array is true in JavaScript
        ("user.n < 'x'", {"n": 3}, False),  # a number and text compare as false
    ],
)
def test_conditions_follow_javascript(condition, user, expected):
    assert evaluate_condition(condition, user) is expected


def test_what_is_outside_the_subset_is_refused():
    for condition in ("fetch('x')", "user.plan(1)", "window.x", "user.a = 1", "user.x" + " && user.x" * 2000):
        with pytest.raises(Unevaluable):
            evaluate_condition(condition, {})
    assert split_condition("user.a ? <>x: y</> : 'z ? w'") == ("user.a", "<>x: y</>", "'z ? w'")
    assert split_condition("user.a?.b && user.c && (<Note>x</Note>)") == (
        "user.a?.b && user.c",
        "(<Note>x</Note>)",
        None,
    )
    assert split_condition("user.a && user.b") is None


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cond")
    docs = write_tree(tmp / "docs", {"docs.json": json.dumps(DOCS), "index.mdx": PAGE})
    build(docs, tmp / "out")
    return docs, tmp / "out"


def _shown(html: str) -> str:
    """The text a reader sees: without hidden branches and tags."""
    visible = re.sub(r'<(div|span) class="dg-user-if"[^>]* hidden>.*?</\1>', "", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", visible).split())


def test_a_static_build_shows_what_a_reader_without_user_data_gets(site, tmp_path):
    docs, out = site
    page = (out / "index.html").read_text(encoding="utf-8")
    text = _shown(page)
    assert "See pricing for upgrades" in text and "Standard pricing" in text and "Seats: none ." in text
    assert "Contact your admin" not in text and "Beta dashboard" not in text
    assert "Contact your admin" in page  # the other branch is in the file, hidden, for the gate
    assert "never" not in page and "ever" not in text  # the condition it cannot evaluate renders nothing
    with pytest.raises(DocsgenError) as failed:
        build(docs, tmp_path / "strict", strict=True)
    assert any(
        d.code == "mdx.user-condition" and d.line == 19 and "user.plan(1)" in d.message
        for d in failed.value.diagnostics
    )


def test_the_gate_sends_each_reader_only_their_branch(site, tmp_path):
    _, out = site
    engine = open_database(f"sqlite:///{tmp_path / 'gate.sqlite3'}")
    seed_project(engine, "acme", docs_dir=out, out_dir=out)
    with engine.begin() as conn:
        save_auth(conn, "acme", {"method": "password", "passwordHash": hash_password("pw")})
    key = session_key(engine)
    content = {"plan": "enterprise", "seats": 3, "tags": ["beta"], "firstName": "Jane"}
    with LiveServer(create_app(engine=engine, site_project="acme")) as live:
        reader = httpx.get(f"{live.url}/", cookies={COOKIE: session_token(key, {"content": content})}).text
        nobody = httpx.get(f"{live.url}/").text
        pro = httpx.get(
            f"{live.url}/", cookies={COOKIE: session_token(key, {"content": {"plan": "pro"}})}
        ).text
    engine.dispose()
    mine, anonymous, theirs = _shown(reader), _shown(nobody), _shown(pro)
    assert "Contact your admin" in mine and "Beta dashboard ahead" in mine and "Seats: few" in mine
    assert "upgrades" not in reader and "Standard pricing" in reader and " hidden>" not in reader  # not sent
    assert "See pricing for upgrades" in anonymous and "Contact your admin" not in nobody
    assert "Beta dashboard" not in nobody and "Seats: none" in anonymous
    assert "Pro pricing" in theirs and "Standard pricing" not in pro


GROUPS_PAGE = """---
title: Team
---

Signed in as {user.firstName} ({user.groups}).

{user.groups?.includes("admin") && <Note>Admin tools are on the left.</Note>}

{user.groups?.includes("billing") ? <>Your invoices are ready.</> : <>Ask billing for invoices.</>}

{user.groups ? <>Signed-in reader.</> : <>Anonymous visitor.</>}
"""


@pytest.fixture(scope="module")
def groups_site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cond-groups")
    docs = write_tree(tmp / "docs", {"docs.json": json.dumps(DOCS), "index.mdx": GROUPS_PAGE})
    build(docs, tmp / "out")
    return tmp / "out"


def _jwt_gate(tmp_path, out):
    from tests.server.gate_helpers import JwtSigner

    signer = JwtSigner()
    engine = open_database(f"sqlite:///{tmp_path / 'gate.sqlite3'}")
    seed_project(engine, "acme", docs_dir=out, out_dir=out)
    with engine.begin() as conn:
        save_auth(conn, "acme", {"method": "jwt", "publicKey": signer.public_pem})
    return engine, signer


def test_conditions_read_the_readers_groups():
    assert evaluate_condition("user.groups?.includes('admin')", {}) is False  # nobody signed in: {}
    from docsgen.mdx.user_conditions import condition_user

    user = condition_user(True, {"plan": "pro", "groups": ["forged"]}, frozenset({"ops", "admin"}))
    assert user == {"plan": "pro", "groups": ["admin", "ops"]}  # the user data's groups win over content's
    assert evaluate_condition("user.groups.includes('admin') && user.plan === 'pro'", user) is True
    assert condition_user(False, {"plan": "pro"}, frozenset({"admin"})) == {}
    assert condition_user(True, None, frozenset()) == {"groups": []}


def test_the_gate_chooses_branches_by_the_groups_of_a_jwt_reader(groups_site, tmp_path):
    engine, signer = _jwt_gate(tmp_path, groups_site)
    pages = {}
    with LiveServer(create_app(engine=engine, site_project="acme")) as live:
        for name, groups in (("admin", ["admin"]), ("billing", ["billing", "ops"]), ("none", [])):
            with httpx.Client(base_url=live.url) as client:
                token = signer.token(groups=groups, content={"firstName": name.title()})
                signed = client.post("/login/jwt-callback?redirect=/", data={"token": token})
                assert signed.status_code == 303, signed.text
                pages[name] = client.get("/").text
        pages["anonymous"] = httpx.get(f"{live.url}/").text
    engine.dispose()
    admin, billing, none, anonymous = (_shown(pages[k]) for k in ("admin", "billing", "none", "anonymous"))
    assert "Admin tools" in admin and "Ask billing for invoices" in admin and "Signed-in reader" in admin
    assert "Admin tools" not in pages["billing"] and "Your invoices are ready" in billing
    assert "Admin tools" not in pages["none"] and "Ask billing" in none and "Signed-in reader" in none
    assert "Anonymous visitor" in anonymous and "Admin tools" not in pages["anonymous"]
    # the page's scripts get the same object the conditions read (Mintlify's window.mintlify.user)
    assert 'window.mintlify.user={"firstName": "Billing", "groups": ["billing", "ops"]}' in pages["billing"]
    assert "window.mintlify" not in pages["anonymous"]


def test_scripts_and_placeholders_see_the_groups_in_a_browser(browser, groups_site, tmp_path):
    engine, signer = _jwt_gate(tmp_path, groups_site)
    with LiveServer(create_app(engine=engine, site_project="acme")) as live:
        context = browser.new_context()
        page = context.new_page()
        token = signer.token(groups=["billing", "ops"], content={"firstName": "Bea"})
        page.goto(f"{live.url}/login/jwt-callback?redirect=/#{token}")
        page.wait_for_url(f"{live.url}/")
        assert page.evaluate("window.mintlify.user") == {"firstName": "Bea", "groups": ["billing", "ops"]}
        assert page.evaluate("window.docsgenUser.groups") == ["billing", "ops"]
        text = page.locator("#content-area").inner_text()
        assert "Signed in as Bea (billing, ops)." in text and "Your invoices are ready." in text
        assert "Admin tools" not in text and "Ask billing" not in text
        context.close()
    engine.dispose()
