"""Idempotency-Key on POST /v1/feedback: a retried request returns the first entry and stores nothing more."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass

import httpx
import pytest
from sqlalchemy import func, select, update

from docsgen.server.app import create_app
from docsgen.server.db import feedback, idempotency_keys, open_database
from docsgen.server.idempotency import WINDOW_MS
from docsgen.server.testing import LiveServer, cli_server, seed_project
from tests.pg import fresh_database

ORIGIN = "https://docs.example.test"
BODY = {"path": "/quickstart", "source": "contextual", "helpful": False, "comment": "Step 3 fails"}


@dataclass
class Env:
    db_url: str
    engine: object
    client: httpx.Client


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def env(request, tmp_path_factory):
    if request.param == "sqlite":
        db_url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'idem.sqlite3'}"
    else:
        db_url = fresh_database()
    engine = open_database(db_url)
    with (
        LiveServer(create_app(engine=engine, rate_limit=0)) as live,
        httpx.Client(base_url=live.url) as client,
    ):
        yield Env(db_url, engine, client)
    engine.dispose()


def new_project(env: Env) -> str:
    project = "idem" + secrets.token_hex(4)
    seed_project(env.engine, project, [ORIGIN])
    return project


def stored(env: Env, project: str) -> int:
    with env.engine.connect() as conn:
        return conn.execute(select(func.count()).where(feedback.c.project_id == project)).scalar()


def post(env: Env, project: str, key: str | None, body: dict | None = None, **headers: str) -> httpx.Response:
    headers = {"Idempotency-Key": key, **headers} if key is not None else headers
    return env.client.post(f"/v1/feedback/{project}", json=body or BODY, headers=headers)


def test_a_retry_with_the_same_key_returns_the_first_entry(env):
    project = new_project(env)
    first = post(env, project, "7f9c2ba4-e88f-4f1e-9a2b-5d0c1a9e3b11")
    assert first.status_code == 201 and first.headers["idempotent-replayed"] == "false"
    again = post(env, project, "7f9c2ba4-e88f-4f1e-9a2b-5d0c1a9e3b11")
    assert again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    # The same body with its fields in another order and other spacing is the same request.
    reordered = (
        b'{ "comment": "Step 3 fails", "helpful": false, "source": "contextual", "path": "/quickstart" }'
    )
    third = env.client.post(
        f"/v1/feedback/{project}",
        content=reordered,
        headers={
            "Idempotency-Key": "7f9c2ba4-e88f-4f1e-9a2b-5d0c1a9e3b11",
            "Content-Type": "application/json",
        },
    )
    assert third.status_code == 201 and third.json()["id"] == first.json()["id"]
    assert stored(env, project) == 1
    # Without a key, or with another key, the same body is new feedback.
    assert (
        post(env, project, None).status_code == 201
        and "idempotent-replayed" not in post(env, project, None).headers
    )
    assert post(env, project, "another-key").json()["id"] != first.json()["id"]
    assert stored(env, project) == 4


def test_the_same_key_with_another_body_is_refused(env):
    project = new_project(env)
    assert post(env, project, "k-1").status_code == 201
    changed = post(env, project, "k-1", {**BODY, "comment": "Step 4 fails"})
    assert changed.status_code == 422
    error = changed.json()["error"]
    assert error["code"] == "idempotency_key_reused" and error["param"] == "Idempotency-Key"
    assert "different body" in error["message"] and "'k-1'" in error["message"]
    assert stored(env, project) == 1


def test_keys_belong_to_one_project_and_expire(env):
    first, second = new_project(env), new_project(env)
    a = post(env, first, "shared-key")
    b = post(env, second, "shared-key")
    assert a.status_code == b.status_code == 201 and a.json()["id"] != b.json()["id"]
    assert b.headers["idempotent-replayed"] == "false"
    with env.engine.begin() as conn:  # age the key past the window
        conn.execute(
            update(idempotency_keys)
            .where(idempotency_keys.c.project_id == first)
            .values(created_ms=idempotency_keys.c.created_ms - WINDOW_MS - 1)
        )
    later = post(env, first, "shared-key", {**BODY, "comment": "A day later"})
    assert later.status_code == 201 and later.headers["idempotent-replayed"] == "false"
    assert stored(env, first) == 2


def test_unusable_keys_are_a_400(env):
    project = new_project(env)
    for key in ("", "has space", "x" * 256, "tab\tinside"):
        response = post(env, project, key)
        assert response.status_code == 400, key
        assert response.json()["error"]["param"] == "Idempotency-Key"
    assert post(env, project, "x" * 255).status_code == 201
    assert stored(env, project) == 1


def test_concurrent_retries_store_one_entry(env):
    project = new_project(env)
    results: list[httpx.Response] = []
    barrier = threading.Barrier(8)

    def send() -> None:
        with httpx.Client(base_url=str(env.client.base_url)) as client:
            barrier.wait()
            response = client.post(f"/v1/feedback/{project}", json=BODY, headers={"Idempotency-Key": "race"})
            results.append(response)

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [r.status_code for r in results] == [201] * 8
    assert len({r.json()["id"] for r in results}) == 1
    assert sorted(r.headers["idempotent-replayed"] for r in results) == ["false"] + ["true"] * 7
    assert stored(env, project) == 1


def test_browsers_may_send_the_key(env):
    project = new_project(env)
    preflight = env.client.options(
        f"/v1/feedback/{project}",
        headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"},
    )
    assert preflight.status_code == 204
    assert "Idempotency-Key" in preflight.headers["access-control-allow-headers"]
    response = post(env, project, "browser-1", Origin=ORIGIN)
    assert response.headers["access-control-expose-headers"] == "Idempotent-Replayed"


def test_keys_survive_a_server_restart(env, tmp_path):
    project = new_project(env)
    with cli_server(tmp_path, "--db", env.db_url) as base:
        first = httpx.post(f"{base}/v1/feedback/{project}", json=BODY, headers={"Idempotency-Key": "durable"})
    with cli_server(tmp_path, "--db", env.db_url) as base:
        again = httpx.post(f"{base}/v1/feedback/{project}", json=BODY, headers={"Idempotency-Key": "durable"})
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"] and again.headers["idempotent-replayed"] == "true"
    assert stored(env, project) == 1
