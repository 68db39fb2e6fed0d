"""The feedback API against a real uvicorn server, on a real SQLite file and on a real PostgreSQL."""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
import pytest

from docsgen.server import feedback as fb
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.limits import DEFAULT_MAX_BODY
from docsgen.server.testing import LiveServer, seed_project
from tests.pg import fresh_database

ORIGIN = "http://docs.example.test:8080"


@dataclass
class Env:
    url: str
    engine: object
    client: httpx.Client


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def env(request, tmp_path_factory):
    """One live server per backend for this module; tests isolate themselves with their own project."""
    if request.param == "sqlite":
        db_url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'feedback.sqlite3'}"
    else:
        db_url = fresh_database()
    engine = open_database(db_url)
    with (
        LiveServer(create_app(engine=engine, rate_limit=0)) as live,
        httpx.Client(base_url=live.url) as client,
    ):
        yield Env(live.url, engine, client)
    engine.dispose()


@dataclass
class Project:
    id: str
    key: str
    env: Env

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    def post(self, body: dict, **headers: str) -> httpx.Response:
        return self.env.client.post(f"/v1/feedback/{self.id}", json=body, headers=headers)

    def list(self, **params) -> httpx.Response:
        return self.env.client.get(f"/v1/analytics/{self.id}/feedback", params=params, headers=self.auth)

    def insert(self, created: str, **values) -> dict:
        """Store an entry with a chosen createdAt directly in the database."""
        body = {"path": "/p", "source": "thumbs_only", **values}
        body.setdefault("helpful", True) if body["source"] != "code_snippet" else None
        with self.env.engine.begin() as conn:
            return fb.store(conn, self.id, fb.validate_submission(body), created_ms=ms(created))

    def walk(self, **params) -> list[dict]:
        """Follow nextCursor to the end and return every entry."""
        entries, cursor = [], None
        while True:
            page = self.list(**params, **({"cursor": cursor} if cursor else {}))
            assert page.status_code == 200, page.text
            data = page.json()
            entries += data["feedback"]
            assert (data["nextCursor"] is None) == (not data["hasMore"])
            if not data["hasMore"]:
                return entries
            cursor = data["nextCursor"]


def ms(text: str) -> int:
    moment = datetime.fromisoformat(text)
    return round((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp() * 1000)


def iso(text: str) -> str:
    return datetime.fromtimestamp(ms(text) / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


@pytest.fixture
def project(env) -> Project:
    project_id = "p" + secrets.token_hex(5)
    return Project(project_id, seed_project(env.engine, project_id, [ORIGIN]), env)


def error_of(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"])
    return body["error"]


# Collection ---------------------------------------------------------------------------------------------


def test_submissions_of_each_source_are_stored_pending_with_their_own_fields(project):
    thumbs = project.post({"path": "/a", "source": "thumbs_only", "helpful": True})
    contextual = project.post(
        {
            "path": "/b",
            "source": "contextual",
            "helpful": False,
            "comment": "<script>x</script>",
            "contact": "r@ex.org",
        }
    )
    snippet = project.post(
        {
            "path": "/c",
            "source": "code_snippet",
            "comment": "typo",
            "code": "x = 1\n",
            "filename": "a.py",
            "lang": "python",
        }
    )
    assert [r.status_code for r in (thumbs, contextual, snippet)] == [201, 201, 201]
    entries = {e["path"]: e for e in project.walk()}
    assert entries["/a"] == {**thumbs.json(), "comment": ""}
    assert set(entries["/a"]) == {
        "id",
        "path",
        "comment",
        "createdAt",
        "source",
        "status",
        "helpful",
        "contact",
    }
    assert entries["/b"]["comment"] == "<script>x</script>"  # verbatim, never altered
    assert entries["/b"]["contact"] == "r@ex.org" and entries["/b"]["helpful"] is False
    assert set(entries["/c"]) == {
        "id",
        "path",
        "comment",
        "createdAt",
        "source",
        "status",
        "code",
        "filename",
        "lang",
    }
    assert entries["/c"]["code"] == "x = 1\n" and entries["/c"]["lang"] == "python"
    assert {e["status"] for e in entries.values()} == {"pending"}
    for entry in entries.values():
        created = entry["createdAt"]
        assert created.endswith("Z") and len(created) == len("2026-11-22T10:15:30.123Z")
        assert abs(datetime.fromisoformat(created).timestamp() - datetime.now(UTC).timestamp()) < 60


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"path": "/a", "source": "thumbs_only"}, "helpful"),
        ({"path": "/a", "source": "thumbs_only", "helpful": "yes"}, "helpful"),
        ({"path": "/a", "source": "thumbs_only", "helpful": True, "comment": "words"}, "comment"),
        ({"path": "/a", "source": "contextual", "helpful": True}, "comment"),
        ({"path": "/a", "source": "contextual", "helpful": True, "comment": "   "}, "comment"),
        ({"path": "/a", "source": "contextual", "comment": "x"}, "helpful"),
        (
            {
                "path": "/a",
                "source": "contextual",
                "helpful": True,
                "comment": "x",
                "contact": "not-an-email",
            },
            "contact",
        ),
        (
            {"path": "/a", "source": "contextual", "helpful": True, "comment": "x", "contact": "a@b"},
            "contact",
        ),
        ({"path": "/a", "source": "code_snippet", "comment": "x"}, "code"),
        ({"path": "/a", "source": "code_snippet", "code": "x"}, "comment"),
        ({"path": "/a", "source": "code_snippet", "comment": "x", "code": "y", "helpful": True}, "helpful"),
        ({"path": "/a", "source": "code_snippet", "comment": "x", "code": "y", "lang": 3}, "lang"),
        ({"path": "/a", "source": "other", "helpful": True}, "source"),
        ({"source": "thumbs_only", "helpful": True}, "path"),
        ({"path": "relative", "source": "thumbs_only", "helpful": True}, "path"),
        ({"path": "/a", "source": "thumbs_only", "helpful": True, "extra": 1}, "extra"),
        ({"path": "/a\x00", "source": "thumbs_only", "helpful": True}, "path"),
        ({"path": "/a", "source": "contextual", "helpful": True, "comment": "x" * 5001}, "comment"),
    ],
)
def test_invalid_submissions_are_422_naming_the_field(project, body, param):
    error = error_of(project.post(body), 422)
    assert error["code"] == "validation_failed" and error["param"] == param
    assert project.walk() == []


def test_malformed_bodies(project):
    url = f"/v1/feedback/{project.id}"
    client = project.env.client
    assert (
        error_of(client.post(url, content=b"{nope", headers={"Content-Type": "application/json"}), 400)[
            "code"
        ]
        == "invalid_json"
    )
    assert (
        error_of(client.post(url, content=b"[]", headers={"Content-Type": "application/json"}), 422)["code"]
        == "validation_failed"
    )
    assert (
        error_of(client.post(url, content=b"a=b", headers={"Content-Type": "text/plain"}), 415)["code"]
        == "unsupported_media_type"
    )
    huge = {"path": "/a", "source": "contextual", "helpful": True, "comment": "x" * (DEFAULT_MAX_BODY + 1)}
    assert error_of(project.post(huge), 413)["code"] == "payload_too_large"

    def chunks():  # no Content-Length: the limit must hold while streaming too
        for _ in range(DEFAULT_MAX_BODY // 1024 + 1):
            yield b" " * 1024

    streamed = client.post(url, content=chunks(), headers={"Content-Type": "application/json"})
    assert error_of(streamed, 413)["code"] == "payload_too_large"
    assert error_of(client.post("/v1/feedback/no-such-project", json={}), 404)["code"] == "not_found"


def test_cors_only_for_the_projects_origins(project):
    client = project.env.client
    url = f"/v1/feedback/{project.id}"
    ok = client.options(url, headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"})
    assert ok.status_code == 204
    assert ok.headers["access-control-allow-origin"] == ORIGIN
    assert "content-type" in ok.headers["access-control-allow-headers"].lower()
    assert "POST" in ok.headers["access-control-allow-methods"]
    evil = client.options(
        url, headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    )
    assert error_of(evil, 403)["code"] == "origin_not_allowed"
    assert "access-control-allow-origin" not in evil.headers
    body = {"path": "/a", "source": "thumbs_only", "helpful": True}
    posted = project.post(body, Origin=ORIGIN)
    assert posted.status_code == 201 and posted.headers["access-control-allow-origin"] == ORIGIN
    refused = project.post(body, Origin="https://evil.example")
    assert error_of(refused, 403)["code"] == "origin_not_allowed"
    assert "access-control-allow-origin" not in refused.headers
    invalid = project.post({"path": "/a", "source": "thumbs_only"}, Origin=ORIGIN)
    assert (
        invalid.status_code == 422 and invalid.headers["access-control-allow-origin"] == ORIGIN
    )  # readable by the widget
    # Admin endpoints never answer browsers cross-origin: the key is a server-side secret.
    listing = client.get(f"/v1/analytics/{project.id}/feedback", headers={**project.auth, "Origin": ORIGIN})
    assert listing.status_code == 200 and "access-control-allow-origin" not in listing.headers
    assert len(project.walk()) == 1


def test_rate_limit_answers_429_with_retry_after(env):
    project_id = "rl" + secrets.token_hex(4)
    seed_project(env.engine, project_id, [ORIGIN])
    body = {"path": "/a", "source": "thumbs_only", "helpful": True}
    with (
        LiveServer(create_app(engine=env.engine, rate_limit=5)) as live,
        httpx.Client(base_url=live.url) as client,
    ):
        codes = [client.post(f"/v1/feedback/{project_id}", json=body).status_code for _ in range(8)]
        assert codes == [201] * 5 + [429] * 3
        limited = client.post(f"/v1/feedback/{project_id}", json=body, headers={"Origin": ORIGIN})
        assert error_of(limited, 429)["code"] == "rate_limited"
        assert int(limited.headers["retry-after"]) >= 1
        assert limited.headers["access-control-allow-origin"] == ORIGIN


# Authentication ------------------------------------------------------------------------------------------


def test_key_failures_are_401_and_other_projects_403(env, project):
    other_id = "o" + secrets.token_hex(5)
    other_key = seed_project(env.engine, other_id)
    url = f"/v1/analytics/{project.id}/feedback"
    client = env.client
    unknown = "dg_" + "A" * 44
    cases = {
        "missing": {},
        "not bearer": {"Authorization": f"Basic {base64.b64encode(b'a:b').decode()}"},
        "empty bearer": {"Authorization": "Bearer"},
        "malformed": {"Authorization": "Bearer dg_short"},
        "no prefix": {"Authorization": "Bearer " + project.key[3:]},
        "unknown": {"Authorization": f"Bearer {unknown}"},
        "one char changed": {
            "Authorization": "Bearer " + project.key[:-1] + ("a" if project.key[-1] != "a" else "b")
        },
    }
    for name, headers in cases.items():
        response = client.get(url, headers=headers)
        assert error_of(response, 401)["code"] == "unauthorized", name
        assert response.headers["www-authenticate"].startswith("Bearer")
    assert (
        error_of(client.get(url, headers={"Authorization": f"Bearer {other_key}"}), 403)["code"]
        == "forbidden"
    )
    assert (
        client.get(
            f"/v1/analytics/{other_id}/feedback", headers={"Authorization": f"Bearer {other_key}"}
        ).status_code
        == 200
    )
    assert client.get(url, headers={"Authorization": f"bearer {project.key}"}).status_code == 200
    from docsgen.server.keys import revoke_key

    with env.engine.begin() as conn:
        assert revoke_key(conn, project.key)
    assert error_of(project.list(), 401)["code"] == "unauthorized"


# Listing ----------------------------------------------------------------------------------------------------


@pytest.fixture
def stocked(project) -> Project:
    """Nine entries over three days with every source and status."""
    rows = [
        ("2026-03-01T00:00:00", "thumbs_only", "pending"),
        ("2026-03-01T12:00:00", "contextual", "in_progress"),
        ("2026-03-01T23:59:59.999", "code_snippet", "resolved"),
        ("2026-03-02T00:00:00", "thumbs_only", "dismissed"),
        ("2026-03-02T08:30:00", "contextual", "pending"),
        ("2026-03-02T08:30:00", "code_snippet", "pending"),
        ("2026-03-03T00:00:00", "thumbs_only", "resolved"),
        ("2026-03-03T09:00:00", "contextual", "in_progress"),
        ("2026-03-03T10:00:00", "code_snippet", "dismissed"),
    ]
    extra = {
        "thumbs_only": {"helpful": True},
        "contextual": {"helpful": False, "comment": "c"},
        "code_snippet": {"comment": "c", "code": "x"},
    }
    from sqlalchemy import update

    from docsgen.server.db import feedback

    for created, source, status in rows:
        entry = project.insert(created, source=source, **extra[source])
        with project.env.engine.begin() as conn:
            conn.execute(update(feedback).where(feedback.c.id == entry["id"]).values(status=status))
    project.rows = rows
    return project


def expected(rows, date_from=None, date_to=None, source=None, statuses=None) -> list[tuple[str, str, str]]:
    keep = [
        r
        for r in rows
        if (date_from is None or ms(r[0]) >= ms(date_from))
        and (date_to is None or ms(r[0]) < ms(date_to))
        and (source is None or r[1] == source)
        and (statuses is None or r[2] in statuses)
    ]
    return sorted(keep, key=lambda r: ms(r[0]))


@pytest.mark.parametrize("date_from", [None, "2026-03-01T12:00:00", "2026-03-02"])
@pytest.mark.parametrize("date_to", [None, "2026-03-02", "2026-03-03T09:00:00Z"])
@pytest.mark.parametrize("source", [None, "contextual", "code_snippet"])
@pytest.mark.parametrize("status", [None, "pending", "pending,resolved,dismissed"])
def test_filters_and_their_combinations(stocked, date_from, date_to, source, status):
    params = {"dateFrom": date_from, "dateTo": date_to, "source": source, "status": status}
    params = {k: v for k, v in params.items() if v is not None}
    entries = stocked.walk(**params, limit=2)
    want = expected(
        stocked.rows,
        date_from,
        date_to,
        source,
        status.split(",") if status else None,
    )
    got = [(e["createdAt"], e["source"], e["status"]) for e in entries]
    assert sorted(got) == sorted((iso(w[0]), w[1], w[2]) for w in want)
    assert [g[0] for g in got] == sorted((g[0] for g in got), reverse=True)  # newest first


def test_date_to_is_exclusive_and_date_from_inclusive_at_the_boundary(stocked):
    before = stocked.walk(dateTo="2026-03-02")
    assert "2026-03-02T00:00:00.000Z" not in [e["createdAt"] for e in before]
    assert "2026-03-01T23:59:59.999Z" in [e["createdAt"] for e in before]
    after = stocked.walk(dateFrom="2026-03-02")
    assert "2026-03-02T00:00:00.000Z" in [e["createdAt"] for e in after]
    assert len(before) + len(after) == 9
    # Naive times are UTC; offsets are honoured; one millisecond decides.
    assert len(stocked.walk(dateTo="2026-03-02T00:00:00.001")) == 4
    assert len(stocked.walk(dateTo="2026-03-02T01:00:00+01:00")) == 3
    assert stocked.walk(dateFrom="2026-03-02", dateTo="2026-03-02") == []
    assert stocked.walk(dateFrom="2026-03-03", dateTo="2026-03-01") == []  # an empty range, not an error
    assert len(stocked.walk(dateFrom="2026-03-02t00:00:00z")) == 6  # RFC 3339 lower-case t and z


def test_default_and_bounded_limits(stocked, project):
    for i in range(60):
        project.insert(f"2026-04-01T00:00:{i:02d}")
    assert len(project.list().json()["feedback"]) == 50  # the default page size
    assert len(project.list(limit=1).json()["feedback"]) == 1
    assert len(project.list(limit=100).json()["feedback"]) == 69
    assert project.list(limit=100).json() == {
        **project.list(limit=100).json(),
        "hasMore": False,
        "nextCursor": None,
    }
    for bad in ["0", "101", "-1", "abc", "1.5", "", "1e2", " 5"]:
        error = error_of(project.list(limit=bad), 400)
        assert error == {**error, "code": "invalid_parameter", "param": "limit"}


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"status": "pending,unknown"}, "status"),
        ({"status": "pending,"}, "status"),
        ({"status": ""}, "status"),
        ({"source": "email"}, "source"),
        ({"dateFrom": "yesterday"}, "dateFrom"),
        ({"dateFrom": "2026-02-30"}, "dateFrom"),
        ({"dateTo": "2026-13-01"}, "dateTo"),
        ({"dateTo": "2026-03-01T25:00:00"}, "dateTo"),
        ({"sort": "asc"}, "sort"),
        ({"cursor": "garbage"}, "cursor"),
        ({"cursor": ""}, "cursor"),
    ],
)
def test_bad_query_parameters_are_400(project, params, param):
    error = error_of(project.list(**params), 400)
    assert error["param"] == param
    assert error["code"] in {"invalid_parameter", "invalid_cursor"}


def test_repeated_parameter_is_400(project):
    response = project.env.client.get(
        f"/v1/analytics/{project.id}/feedback?limit=1&limit=2", headers=project.auth
    )
    assert error_of(response, 400)["param"] == "limit"


def test_status_list_filters_several_statuses(stocked):
    got = stocked.walk(status="resolved, dismissed")
    assert sorted(e["status"] for e in got) == ["dismissed", "dismissed", "resolved", "resolved"]


def test_cursor_walk_is_complete_and_tamper_evident(stocked):
    first = stocked.list(limit=4).json()
    assert first["hasMore"] is True and len(first["feedback"]) == 4
    cursor = first["nextCursor"]
    walked = stocked.walk(limit=4)
    assert len({e["id"] for e in walked}) == 9 == len(walked)
    payload, signature = cursor.split(".")
    raw = bytearray(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    raw[5] = ord("9") if raw[5] != ord("9") else ord("8")
    forged = base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode() + "." + signature
    for bad in [forged, cursor[:-2], cursor + "x", cursor.replace(".", ""), "." + signature]:
        assert error_of(stocked.list(limit=4, cursor=bad), 400)["code"] == "invalid_cursor"
    # A cursor continues only the listing it came from.
    assert (
        error_of(stocked.list(limit=4, cursor=cursor, source="contextual"), 400)["code"] == "invalid_cursor"
    )
    assert stocked.list(limit=2, cursor=cursor).status_code == 200  # the page size may change


def test_cursor_from_another_project_is_rejected(env, stocked):
    other = Project("x" + secrets.token_hex(5), "", env)
    other.key = seed_project(env.engine, other.id)
    for i in range(3):
        other.insert(f"2026-03-0{i + 1}T00:00:00")
    cursor = other.list(limit=1).json()["nextCursor"]
    assert error_of(stocked.list(limit=1, cursor=cursor), 400)["code"] == "invalid_cursor"


# Status changes ------------------------------------------------------------------------------------------------


def test_transitions_are_enforced_and_recorded(project):
    entry = project.post({"path": "/a", "source": "thumbs_only", "helpful": True}).json()
    url = f"/v1/analytics/{project.id}/feedback/{entry['id']}"
    client = project.env.client

    def patch(status):
        return client.patch(url, json={"status": status}, headers=project.auth)

    for status, code in [
        ("pending", 409),
        ("in_progress", 200),
        ("resolved", 200),
        ("dismissed", 409),
        ("in_progress", 409),
        ("pending", 200),
        ("dismissed", 200),
        ("resolved", 409),
        ("pending", 200),
        ("resolved", 200),
    ]:
        response = patch(status)
        assert response.status_code == code, (status, response.text)
        if code == 409:
            assert response.json()["error"]["code"] == "invalid_transition"
    detail = client.get(url, headers=project.auth).json()
    assert detail["status"] == "resolved"
    moves = [(h["from"], h["to"]) for h in detail["history"]]
    assert moves == [
        ("pending", "in_progress"),
        ("in_progress", "resolved"),
        ("resolved", "pending"),
        ("pending", "dismissed"),
        ("dismissed", "pending"),
        ("pending", "resolved"),
    ]
    assert all(h["changedAt"] >= entry["createdAt"] for h in detail["history"])
    assert project.walk(status="resolved")[0]["id"] == entry["id"]
    assert error_of(patch("done"), 422)["param"] == "status"
    assert (
        error_of(client.patch(url, json={"status": "pending", "x": 1}, headers=project.auth), 422)["code"]
        == "validation_failed"
    )
    assert (
        error_of(client.patch(url, content=b"status=pending", headers=project.auth), 415)["code"]
        == "unsupported_media_type"
    )
    missing = f"/v1/analytics/{project.id}/feedback/fb_000000000000000000000000"
    assert (
        error_of(client.patch(missing, json={"status": "resolved"}, headers=project.auth), 404)["code"]
        == "not_found"
    )
    assert error_of(client.patch(url, json={"status": "pending"}), 401)["code"] == "unauthorized"


def test_unknown_routes_and_methods_are_json_errors(env):
    assert error_of(env.client.get("/v2/nothing"), 404)["code"] == "not_found"
    assert error_of(env.client.delete("/v1/feedback/x"), 405)["code"] == "method_not_allowed"
    assert env.client.get("/healthz").json() == {"status": "ok"}
