"""Contract: every answer of the feedback listing and by-page endpoints validates against Mintlify's published
analytics API (fixtures/mintlify-docs/analytics.openapi.json), across filters and pages, on SQLite and PostgreSQL,
so a script written for Mintlify's API works unchanged against `docsgen server`."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from docsgen.server import feedback as fb
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.testing import LiveServer, seed_project
from tests.pg import fresh_database

SPEC_PATH = Path(__file__).parents[2] / "fixtures" / "mintlify-docs" / "analytics.openapi.json"
SPEC = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
REGISTRY = Registry().with_resource("spec", Resource(contents=SPEC, specification=DRAFT202012))
DAY_MS = 86_400_000
BASE_MS = int(datetime(2026, 3, 1, tzinfo=UTC).timestamp() * 1000)
BODIES = {
    "thumbs_only": {"helpful": True},
    "contextual": {"helpful": False, "comment": "Step 3 fails", "contact": "me@example.com"},
    "code_snippet": {"comment": "missing import", "code": "print(x)", "filename": "a.py", "lang": "python"},
    "agent": {"comment": "The page does not say which region is the default."},
}


def validator(name: str) -> Draft202012Validator:
    schema = {"$ref": f"spec#/components/schemas/{name}"}
    return Draft202012Validator(schema, registry=REGISTRY)


LISTING = validator("FeedbackResponse")
BY_PAGE = validator("FeedbackGroupedByPageResponse")


def _operation(path: str) -> dict:
    return SPEC["paths"][path]["get"]


def test_spec_is_the_one_we_claim_parity_with():
    """The two operations exist, take the parameters we accept and answer the schemas validated below."""
    listing = _operation("/v1/analytics/{projectId}/feedback")
    by_page = _operation("/v1/analytics/{projectId}/feedback/by-page")
    names = {p.get("name") for p in by_page["parameters"]}
    assert {"dateFrom", "dateTo", "limit", "source", "status"} <= names
    assert "agent" in next(p for p in listing["parameters"] if p.get("name") == "source")["schema"]["enum"]
    schema = by_page["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert schema.endswith("/FeedbackGroupedByPageResponse")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live(request, tmp_path_factory):
    url = (
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'c.sqlite3'}"
        if request.param == "sqlite"
        else fresh_database()
    )
    engine = open_database(url)
    key = seed_project(engine, "acme", ["https://docs.example.com"])
    statuses = ("pending", "in_progress", "resolved", "dismissed")
    with engine.begin() as conn:
        for i in range(37):
            source = fb.SOURCES[i % len(fb.SOURCES)]
            body = {"path": f"/page-{i % 7}", "source": source, **BODIES[source]}
            entry = fb.store(
                conn, "acme", fb.validate_submission(body), created_ms=BASE_MS + (i % 9) * DAY_MS + i
            )
            status = statuses[i % len(statuses)]
            if status != "pending":
                conn.execute(
                    fb.feedback.update().where(fb.feedback.c.id == entry["id"]).values(status=status)
                )
    with LiveServer(create_app(engine=engine, rate_limit=0)) as server:
        # An agent's feedback arrives over HTTP like any other.
        posted = httpx.post(
            f"{server.url}/v1/feedback/acme", json={"path": "/page-1", "source": "agent", **BODIES["agent"]}
        )
        assert posted.status_code == 201, posted.text
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"}) as client:
            yield client
    engine.dispose()


FILTERS = [
    {},
    *({"source": s} for s in ("code_snippet", "contextual", "agent", "thumbs_only")),
    {"status": "pending"},
    {"status": "in_progress,resolved"},
    {"dateFrom": "2026-03-03"},
    {"dateFrom": "2026-03-02", "dateTo": "2026-03-06T00:00:00Z", "source": "contextual"},
    {"dateTo": "2026-03-01"},
]


def walk(client: httpx.Client, path: str, params: dict, check: Draft202012Validator) -> list[dict]:
    rows: list[dict] = []
    cursor = None
    for _ in range(100):
        answer = client.get(path, params={**params, **({"cursor": cursor} if cursor else {})})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        errors = [e.message for e in check.iter_errors(body)]
        assert errors == [], (params, errors)
        rows += body["feedback"]
        assert len(body["feedback"]) <= int(params.get("limit", 100))
        if not body["hasMore"]:
            assert body["nextCursor"] is None
            return rows
        cursor = body["nextCursor"]
    raise AssertionError("the walk did not end")


@pytest.mark.parametrize("limit", [None, 1, 4, 100])
@pytest.mark.parametrize(
    "filters", FILTERS, ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items()) or "all"
)
def test_listing_and_by_page_answer_mintlifys_schemas(live, filters, limit):
    params = {**filters, **({"limit": limit} if limit else {})}
    entries = walk(live, "/v1/analytics/acme/feedback", params, LISTING)
    assert len({e["id"] for e in entries}) == len(entries)
    if "source" in filters:
        assert {e["source"] for e in entries} <= {filters["source"]}
    pages = walk(live, "/v1/analytics/acme/feedback/by-page", params, BY_PAGE)
    assert len({p["path"] for p in pages}) == len(pages)
    # The summary counts exactly the entries the listing returns for the same filters.
    assert sum(p["total"] for p in pages) == len(entries)
    assert sum(p["code"] for p in pages) == sum(e["source"] == "code_snippet" for e in entries)
    assert sum(p["thumbsDown"] for p in pages) == sum(e.get("helpful") is False for e in entries)


def test_agent_source_is_listed_and_summarised(live):
    entries = walk(live, "/v1/analytics/acme/feedback", {"source": "agent"}, LISTING)
    assert len(entries) == 10  # 9 seeded and the one posted over HTTP
    assert all(e["comment"] == BODIES["agent"]["comment"] for e in entries)


def test_by_page_default_limit_is_mintlifys(live):
    body = live.get("/v1/analytics/acme/feedback/by-page").json()
    assert len(body["feedback"]) == 7 and body["hasMore"] is False
    body = live.get("/v1/analytics/acme/feedback/by-page", params={"limit": 3}).json()
    assert len(body["feedback"]) == 3 and body["hasMore"] is True


def test_a_listing_cursor_is_refused_by_by_page_and_back(live):
    listing = live.get("/v1/analytics/acme/feedback", params={"limit": 1}).json()
    refused = live.get("/v1/analytics/acme/feedback/by-page", params={"cursor": listing["nextCursor"]})
    assert refused.status_code == 400 and refused.json()["error"]["param"] == "cursor"
    summary = live.get("/v1/analytics/acme/feedback/by-page", params={"limit": 1}).json()
    refused = live.get("/v1/analytics/acme/feedback", params={"cursor": summary["nextCursor"]})
    assert refused.status_code == 400 and refused.json()["error"]["param"] == "cursor"
