"""The site gate of `docsgen server run --site`: restricted files refused without a session (every file of the
output tried), sign-in by password, by a JWT signed by the test, and by OpenID Connect against a provider on
127.0.0.1; groups, cut lists, sessions that survive a restart and refuse forgeries."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

from docsgen.server.app import create_app
from docsgen.server.reader_sessions import COOKIE, session_key, sign
from docsgen.server.site_auth import hash_password
from docsgen.server.testing import LiveServer
from tests.server.gate_helpers import JwtSigner, OidcProvider, build_private_site, gate_project

PASSWORD = {"method": "password", "passwordHash": hash_password("open sesame")}
SECRET_WORDS = {
    "members": "albatross",
    "groups:admin": "cormorant",
    "groups:billing": "heron",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_private_site(tmp_path_factory.mktemp("private") / "out")


@pytest.fixture(scope="module")
def manifest(site) -> dict:
    return json.loads((site / "_access.json").read_text(encoding="utf-8"))


def _serve(tmp_path, site, config):
    engine = gate_project(tmp_path, site, config)
    return engine, LiveServer(create_app(engine=engine, site_project="acme"))


def restricted_files(site: Path, manifest: dict) -> dict[str, str]:
    """Every file of the output a reader without a session may not fetch, with the access guarding it."""
    out: dict[str, str] = {}
    for entry in manifest["pages"].values():
        if entry["access"] != "public":
            for path in entry["files"]:
                out[path] = entry["access"]
    for path, labels in manifest["specs"].items():
        out[path] = ",".join(labels)
    for folder, entry in manifest["search"].items():
        if entry["access"] != "public":
            for file in (site / folder).rglob("*"):
                if file.is_file():
                    out[file.relative_to(site).as_posix()] = entry["access"]
    return out


def test_every_restricted_file_is_refused_without_a_session(tmp_path, site, manifest):
    restricted = restricted_files(site, manifest)
    kinds = {Path(p).suffix or "bundle" for p in restricted}
    assert {".html", ".md", ".json", ".pf_fragment"} <= kinds | {Path(p).suffix for p in restricted}
    assert any(p.startswith("pagefind/access-groups-") for p in restricted)
    assert "api/openapi.json" in restricted
    engine, live = _serve(tmp_path, site, PASSWORD)
    with live, httpx.Client(base_url=live.url) as client:
        for file in sorted(p for p in site.rglob("*") if p.is_file()):
            rel = file.relative_to(site).as_posix()
            answer = client.get("/" + rel)
            if rel in ("_access.json", "_headers"):
                assert answer.status_code == 404
            elif rel in restricted:
                assert answer.status_code in (302, 401), rel
                if answer.status_code == 302:
                    assert rel.endswith(".html")
                    assert answer.headers["location"].startswith("/login?redirect=")
                assert all(word.encode() not in answer.content for word in SECRET_WORDS.values()), rel
            else:
                assert answer.status_code == 200, rel
                for word in SECRET_WORDS.values():  # public files never carry restricted text
                    assert word.encode() not in answer.content, (rel, word)
        # the lists anyone may read name only public pages
        sitemap = client.get("/sitemap.xml").text
        assert "public-intro" in sitemap and "members-guide" not in sitemap
        llms = client.get("/llms.txt").text
        assert "Public introduction" in llms and "Members guide" not in llms
        full = client.get("/llms-full.txt").text
        assert "flamingo" in full and "albatross" not in full
        assert client.get("/pagefind/access.json").json() == {}
        assert client.get("/guides/members-guide/").status_code == 302
    engine.dispose()


def test_password_sign_in_reaches_members_pages_but_no_group(tmp_path, site):
    engine, live = _serve(tmp_path, site, PASSWORD)
    with live, httpx.Client(base_url=live.url) as client:
        form = client.get("/login?redirect=/guides/members-guide/")
        assert 'type="password"' in form.text
        wrong = client.post("/login?redirect=/guides/members-guide/", data={"password": "nope"})
        assert wrong.status_code == 401 and COOKIE not in client.cookies
        right = client.post("/login?redirect=/guides/members-guide/", data={"password": "open sesame"})
        assert right.status_code == 303 and right.headers["location"] == "/guides/members-guide/"
        assert "albatross" in client.get("/guides/members-guide/").text
        assert client.get("/guides/members-guide.md").status_code == 200
        assert client.get("/admin/console/").status_code == 404  # outside the group: as if missing
        assert client.get("/api/openapi.json").status_code == 404  # documents a billing-only operation
        assert client.get("/pagefind/access.json").json() == {"pagefind": ["pagefind/access-members"]}
        assert "albatross" in client.get("/llms-full.txt").text
        # an open redirect is refused
        again = client.post("/login?redirect=//evil.test/", data={"password": "open sesame"})
        assert again.headers["location"] == "/"
    engine.dispose()


def test_jwt_handover_signs_in_with_groups_and_user_data(tmp_path, site):
    signer = JwtSigner()
    config = {"method": "jwt", "publicKey": signer.public_pem, "loginUrl": "https://app.acme.test/docs-login"}
    engine, live = _serve(tmp_path, site, config)
    user = {
        "groups": ["admin"],
        "content": {"firstName": "Ada"},
        "apiPlaygroundInputs": {"header": {"X-Api-Key": "key_ada"}},
    }
    with live, httpx.Client(base_url=live.url) as client:
        login = client.get("/admin/console/")
        assert login.status_code == 302
        bounce = client.get(login.headers["location"])
        assert bounce.headers["location"] == "https://app.acme.test/docs-login?redirect=/admin/console/"
        for bad in (
            JwtSigner().token(**user),  # another key
            signer.token(ttl=-120, **user),  # expired
            signer.token(host="docs.other.test", **user),  # made for another site
            "not-a-jwt",
        ):
            refused = client.post("/login/jwt-callback", data={"token": bad})
            assert refused.status_code == 401 and COOKIE not in client.cookies
        answer = client.post(
            "/login/jwt-callback?redirect=/admin/console/", data={"token": signer.token(**user)}
        )
        assert answer.status_code == 303 and answer.headers["location"] == "/admin/console/"
        page = client.get("/admin/console/").text
        assert "cormorant" in page and '"firstName": "Ada"' in page and "key_ada" in page
        assert client.get("/billing/invoices/").status_code == 404
        assert client.get("/billing/invoices.md").status_code == 404
        listing = client.get("/pagefind/access.json").json()["pagefind"]
        admin_bundle = next(f for f in listing if "groups" in f)
        assert len(listing) == 2 and client.get(f"/{admin_bundle}/pagefind-entry.json").status_code == 200
        me = client.get("/_docsgen/user").json()
        assert me["groups"] == ["admin"] and me["apiPlaygroundInputs"]["header"]["X-Api-Key"] == "key_ada"
        assert "cormorant" not in client.get("/llms-full.txt").text  # group pages stay out of llms files
        client.get("/logout")
        assert client.get("/admin/console/").status_code == 302
    engine.dispose()


def test_oidc_code_flow_with_pkce_against_a_local_provider(tmp_path, site):
    provider = OidcProvider()
    with LiveServer(provider.app) as idp:
        provider.url = idp.url
        config = {
            "method": "oauth",
            "issuer": idp.url,
            "clientId": provider.client_id,
            "scopes": "openid profile",
            "groupsClaim": "groups",
            "groupsDelimiter": ",",
        }
        engine, live = _serve(tmp_path, site, config)
        with live, httpx.Client(base_url=live.url, follow_redirects=True) as client:
            page = client.get("/billing/invoices/")  # -> /login -> provider -> callback -> the page
            assert page.status_code == 200 and "heron" in page.text
            assert [str(r.url).split("?")[0] for r in page.history][-1] == f"{live.url}/login/oidc-callback"
            [request] = provider.token_requests
            assert request["code_verifier"] and "client_secret" not in request
            assert client.get("/_docsgen/user").json()["groups"] == ["billing", "ops"]
            assert client.get("/api/openapi.json").status_code == 200  # billing may read the billing spec
            assert client.get("/admin/console/").status_code == 404
            # a callback replayed with a state of its own is refused
            forged = client.get("/login/oidc-callback?code=x&state=y")
            assert forged.status_code == 400
        engine.dispose()


def test_sessions_survive_a_restart_and_refuse_forgeries(tmp_path, site):
    engine, live = _serve(tmp_path, site, PASSWORD)
    with live, httpx.Client(base_url=live.url) as client:
        client.post("/login", data={"password": "open sesame"})
        cookie = client.cookies[COOKIE]
    with LiveServer(create_app(engine=engine, site_project="acme")) as again:  # a new server, same database
        with httpx.Client(base_url=again.url, cookies={COOKIE: cookie}) as client:
            assert client.get("/guides/members-guide/").status_code == 200
        key = session_key(engine)
        expired = sign(key, "session", {"exp": int(time.time()) - 1, "g": ["admin"], "c": {}, "i": {}})
        forged = sign(b"x" * 32, "session", {"exp": int(time.time()) + 60, "g": ["admin"], "c": {}, "i": {}})
        body, _, tag = cookie.partition(".")
        for bad in (expired, forged, body + "." + tag[::-1], "garbage"):
            with httpx.Client(base_url=again.url, cookies={COOKIE: bad}) as client:
                assert client.get("/guides/members-guide/").status_code == 302
    engine.dispose()


def test_an_open_site_serves_everything_but_the_manifest(tmp_path, site):
    engine, live = _serve(tmp_path, site, None)
    with live, httpx.Client(base_url=live.url) as client:
        assert "cormorant" in client.get("/admin/console/").text
        assert client.get("/_access.json").status_code == 404
        assert client.get("/guides/members-guide").status_code == 301
        assert client.get("/../gate.sqlite3").status_code == 404
        assert client.get("/%2e%2e/gate.sqlite3").status_code == 404
    engine.dispose()
