"""Dashboard security over real HTTP: sessions, CSRF, cookie flags, project isolation, sign-in rate limit."""

from __future__ import annotations

import httpx
import pytest

from docsgen.server.app import create_app
from docsgen.server.dashboard.reports import csv_cell
from docsgen.server.db import now_ms
from docsgen.server.testing import LiveServer
from tests.dashboard_helpers import csrf_of, make_world, sign_in
from tests.htmldom import parse


@pytest.fixture
def live(tmp_path):
    world = make_world(tmp_path, now_ms())
    with LiveServer(create_app(engine=world.engine)) as server:
        yield server, world
    world.engine.dispose()


def test_no_access_without_a_session(live):
    server, world = live
    with httpx.Client(base_url=server.url) as client:
        for path in (
            "/dashboard/feedback",
            "/dashboard/keys",
            "/dashboard/deployments",
            "/dashboard/feedback/export.csv",
        ):
            response = client.get(path)
            assert response.status_code == 303, path
            assert response.headers["location"] == "/dashboard/signin"
            assert "Step 3" not in response.text
        for path in ("/dashboard/keys", "/dashboard/deployments", "/dashboard/feedback/status"):
            response = client.post(path, data={"csrf": "x"})
            assert response.status_code == 401, path
        # A forged cookie is no session either.
        client.cookies.set("dg_dashboard", "forged-session-value", path="/dashboard")
        assert client.get("/dashboard/feedback").status_code == 303
        assert client.get("/dashboard").status_code == 307
        assert client.get("/dashboard/", follow_redirects=True).url.path == "/dashboard/signin"


def test_session_cookie_flags_and_sign_out(live):
    server, world = live
    with httpx.Client(base_url=server.url) as client:
        form = client.get("/dashboard/signin")
        token = parse(form.text).find("input", name="token").attrs["value"]
        response = client.post("/dashboard/signin", data={"token": token, "key": world.key_a})
        assert response.status_code == 303
        cookie = next(
            v
            for k, v in response.headers.multi_items()
            if k == "set-cookie" and v.startswith("dg_dashboard=")
        )
        flags = [part.strip().lower() for part in cookie.split(";")]
        assert "httponly" in flags
        assert "samesite=strict" in flags
        assert "path=/dashboard" in flags
        assert "max-age=28800" in flags
        assert any(f.startswith("expires=") for f in flags)
        assert world.key_a not in cookie  # the key is never handed to the browser
        page = client.get("/dashboard/feedback")
        assert page.status_code == 200
        assert world.key_a not in page.text
        assert page.headers["content-security-policy"].startswith("default-src 'none'")
        assert page.headers["x-frame-options"] == "DENY"
        assert page.headers["cache-control"] == "no-store"
        stolen = client.cookies.get("dg_dashboard")
        signed_out = client.post("/dashboard/signout", data={"csrf": csrf_of(page.text)})
        assert signed_out.status_code == 303
    # The old cookie value no longer works after sign-out, even if it was copied.
    with httpx.Client(base_url=server.url, cookies={"dg_dashboard": stolen}) as other:
        assert other.get("/dashboard/feedback").status_code == 303


def test_expired_session_is_refused(live):
    server, world = live
    from sqlalchemy import update

    from docsgen.server.db import dashboard_sessions

    with httpx.Client(base_url=server.url) as client:
        assert sign_in(client, world.key_a).url.path == "/dashboard/feedback"
        with world.engine.begin() as conn:
            conn.execute(update(dashboard_sessions).values(expires_ms=now_ms() - 1))
        assert client.get("/dashboard/feedback").status_code == 303


def test_csrf_token_required_on_every_state_change(live):
    server, world = live
    with httpx.Client(base_url=server.url) as client:
        page = sign_in(client, world.key_a)
        csrf = csrf_of(page.text)
        entry = parse(page.text).find("li", cls="entry").attrs["data-id"]
        posts = [
            ("/dashboard/feedback/status", {"one": f"{entry}:resolved"}),
            ("/dashboard/keys", {}),
            ("/dashboard/deployments", {}),
            ("/dashboard/signout", {}),
        ]
        for path, data in posts:
            for bad in ({}, {"csrf": "0" * 64}, {"csrf": csrf[:-1]}):
                response = client.post(path, data={**data, **bad})
                assert response.status_code == 403, (path, bad)
        # A correct token from another site's page is refused too.
        response = client.post(
            "/dashboard/keys", data={"csrf": csrf}, headers={"Origin": "https://evil.example"}
        )
        assert response.status_code == 403
        # Nothing changed: still pending, still one key, no deployment, still signed in.
        listing = client.get("/dashboard/feedback?status=resolved")
        assert parse(listing.text).find_all("li", cls="entry") == []
        key_rows = [
            n for n in parse(client.get("/dashboard/keys").text).find_all("tr") if "data-key" in n.attrs
        ]
        assert len(key_rows) == 1
        assert "No deployments yet" in client.get("/dashboard/deployments").text
        # With the token the same change works.
        done = client.post("/dashboard/feedback/status", data={"csrf": csrf, "one": f"{entry}:resolved"})
        assert done.status_code == 303
        assert "changed=1" in done.headers["location"]


def test_sign_in_form_needs_its_own_token(live):
    server, world = live
    with httpx.Client(base_url=server.url) as client:
        response = client.post("/dashboard/signin", data={"key": world.key_a, "token": "a" * 32})
        assert response.status_code == 403
        cookies = [v for k, v in response.headers.multi_items() if k == "set-cookie"]
        assert not any(c.startswith("dg_dashboard=") for c in cookies)
        assert client.get("/dashboard/feedback").status_code == 303


def test_another_projects_data_is_never_shown(live):
    server, world = live
    with httpx.Client(base_url=server.url) as alpha, httpx.Client(base_url=server.url) as beta:
        page = sign_in(alpha, world.key_a)
        assert "BETA SECRET" not in page.text and "/beta-only" not in page.text
        assert "BETA SECRET" not in alpha.get("/dashboard/feedback/export.csv").text
        beta_page = sign_in(beta, world.key_b)
        assert "BETA SECRET" in beta_page.text
        beta_entry = parse(beta_page.text).find("li", cls="entry").attrs["data-id"]
        alpha_keys = parse(alpha.get("/dashboard/keys").text)
        alpha_key_id = next(n.attrs["data-key"] for n in alpha_keys.find_all("tr") if "data-key" in n.attrs)
        assert alpha_key_id not in beta.get("/dashboard/keys").text
        # alpha cannot move beta's entry, nor revoke beta's key, nor see its deployments.
        csrf = csrf_of(page.text)
        moved = alpha.post("/dashboard/feedback/status", data={"csrf": csrf, "one": f"{beta_entry}:resolved"})
        assert "changed=0" in moved.headers["location"] and "refused=1" in moved.headers["location"]
        beta_key_id = world.key_b[3:15]
        assert alpha.post(f"/dashboard/keys/{beta_key_id}/revoke", data={"csrf": csrf}).status_code == 404
        assert (
            httpx.get(
                f"{server.url}/v1/analytics/beta/feedback", headers={"Authorization": f"Bearer {world.key_b}"}
            ).status_code
            == 200
        )
        # beta's entry is untouched.
        assert "pending" in parse(beta.get("/dashboard/feedback").text).find("li", cls="entry").attrs["class"]


def test_failed_sign_ins_are_rate_limited(live):
    server, world = live
    with httpx.Client(base_url=server.url) as client:
        for _ in range(5):
            assert sign_in(client, "dg_" + "x" * 44).status_code == 401
        blocked = sign_in(client, world.key_a)  # even the right key waits now
        assert blocked.status_code == 429
        assert int(blocked.headers["retry-after"]) > 0
        assert client.get("/dashboard/feedback").status_code == 303


def test_user_text_is_escaped_and_csv_is_formula_safe(live):
    server, world = live
    with httpx.Client(base_url=server.url) as client:
        page = sign_in(client, world.key_a)
        assert "<script>alert(1)</script>" not in page.text
        assert "&lt;script&gt;alert(1)&lt;/script&gt; great" in page.text
        assert "<b>hi</b>" not in page.text
        csv_text = client.get("/dashboard/feedback/export.csv").text
        assert "'=HYPERLINK" in csv_text
    assert [csv_cell(v) for v in ("=1+2", "+1", "-1", "@SUM(A1)", "\tx", "plain", None, True)] == [
        "'=1+2",
        "'+1",
        "'-1",
        "'@SUM(A1)",
        "'\tx",
        "plain",
        "",
        "true",
    ]


def test_by_page_api_needs_a_key_of_the_project(live):
    server, world = live
    url = f"{server.url}/v1/analytics/alpha/feedback/by-page"
    assert httpx.get(url).status_code == 401
    assert httpx.get(url, headers={"Authorization": f"Bearer {world.key_b}"}).status_code == 403
    body = httpx.get(url, headers={"Authorization": f"Bearer {world.key_a}"}).json()
    assert body["feedback"][0] == {
        "path": "/quickstart",
        "thumbsUp": 0,
        "thumbsDown": 2,
        "code": 0,
        "total": 2,
    }
    assert {p["path"] for p in body["feedback"]} == {"/quickstart", "/guides/auth", "/api/users"}
    auth = next(p for p in body["feedback"] if p["path"] == "/guides/auth")
    assert (auth["thumbsUp"], auth["thumbsDown"], auth["total"]) == (2, 0, 2)
    code = httpx.get(url + "?source=code_snippet", headers={"Authorization": f"Bearer {world.key_a}"}).json()
    assert code["feedback"] == [{"path": "/api/users", "thumbsUp": 0, "thumbsDown": 0, "code": 1, "total": 1}]
    bad = httpx.get(url + "?cursor=x", headers={"Authorization": f"Bearer {world.key_a}"})
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "cursor"


def test_served_by_docsgen_server_run(tmp_path):
    from tests.server.test_server_crash import start_server

    world = make_world(tmp_path, now_ms())
    world.engine.dispose()
    process, base = start_server(f"sqlite:///{tmp_path / 'dash.sqlite3'}")
    try:
        with httpx.Client(base_url=base) as client:
            assert client.get("/dashboard", follow_redirects=True).url.path == "/dashboard/signin"
            css = client.get("/dashboard/static/dashboard.css")
            assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
            assert client.get("/dashboard/static/dashboard.js").status_code == 200
            assert ".hl" in client.get("/dashboard/static/pygments.css").text
            page = sign_in(client, world.key_a)
            assert page.url.path == "/dashboard/feedback"
            assert len(parse(page.text).find_all("li", cls="entry")) == 5
    finally:
        process.terminate()
        process.wait(10)
