"""Contract: every endpoint of Mintlify's published analytics API (fixtures/mintlify-docs/analytics.openapi.json)
answers docsgen's server with a body valid against that document, on SQLite and PostgreSQL; the traffic reports
across dates, limits and every page of their pagination."""

from __future__ import annotations

import secrets

import httpx
import pytest
from sqlalchemy import insert

from docsgen.server import assistant as asst
from docsgen.server.app import create_app
from docsgen.server.db import analytics_events, open_database
from docsgen.server.testing import LiveServer, seed_project
from tests.pg import fresh_database
from tests.server.test_server_mintlify_contract import BASE_MS, DAY_MS, SPEC, validator

THREADS: dict[str, str] = {}  # project -> a thread id of the assistant seeded for it
REPORTS = {
    "views": "ViewsByPageResponse",
    "visitors": "VisitorsByPageResponse",
    "searches": "SearchesResponse",
}


def seed_events(engine, project: str) -> None:
    rows = []
    for i in range(180):
        kind = ("view", "view", "search", "click", "notfound")[i % 5]
        rows.append(
            {
                "project_id": project,
                "kind": kind,
                "created_ms": BASE_MS + (i % 11) * DAY_MS + i,
                "path": f"/page-{i % 13}" if kind != "search" else "",
                "visitor": f"{i % 17:032x}",
                "traffic": "ai" if i % 7 == 0 else "human",
                "referrer": "news.example" if i % 3 == 0 else None,
                "query": f"term {i % 23}" if kind in ("search", "click") else None,
                "results": i % 4 if kind == "search" else None,
            }
        )
    with engine.begin() as conn:
        conn.execute(insert(analytics_events), rows)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live(request, tmp_path_factory):
    url = (
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'c.sqlite3'}"
        if request.param == "sqlite"
        else fresh_database()
    )
    engine = open_database(url)
    project = "c" + secrets.token_hex(4)
    key = seed_project(engine, project, [])
    seed_events(engine, project)
    with engine.begin() as conn:  # two threads of the assistant, one answered from a page
        for question, sources in (
            ("How do I deploy?", [{"title": "Deploy", "url": "/deploy"}]),
            ("zzz?", []),
        ):
            q = asst.validate_question({"question": question, "path": "/deploy"})
            thread, asked, _ = asst.start_turn(conn, project, q, "api", None)
            asst.finish_turn(conn, project, thread, asked, "See [Deploy](/deploy).", sources, bool(sources))
    THREADS[project] = thread
    with (
        LiveServer(create_app(engine=engine, rate_limit=0)) as server,
        httpx.Client(base_url=server.url) as client,
    ):
        client.headers["Authorization"] = f"Bearer {key}"
        yield client, project
    engine.dispose()


def test_the_operations_exist_in_the_published_document():
    for report, schema in REPORTS.items():
        op = SPEC["paths"][f"/v1/analytics/{{projectId}}/{report}"]["get"]
        assert op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(schema)


@pytest.mark.parametrize("report", list(REPORTS))
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"limit": "1"},
        {"limit": "5", "dateFrom": "2026-03-03"},
        {"dateTo": "2026-03-05T12:00:00Z"},
        {"dateFrom": "2030-01-01"},
    ],
)
def test_every_page_of_every_report_validates(live, report, params):
    client, project = live
    check = validator(REPORTS[report])
    rows, pages, extra = [], 0, {}
    while True:
        response = client.get(f"/v1/analytics/{project}/{report}", params={**params, **extra})
        assert response.status_code == 200, response.text
        body = response.json()
        check.validate(body)
        pages += 1
        rows += body.get(report, [])
        if report == "searches":
            if body["nextCursor"] is None:
                break
            extra = {"cursor": body["nextCursor"]}
        else:
            if not body["hasMore"]:
                break
            extra = {"offset": str(len(rows))}
        assert pages < 200
    key = "searchQuery" if report == "searches" else "path"
    assert len({row[key] for row in rows}) == len(rows)  # every row once across pages
    if report == "views" and not params.get("dateFrom", "").startswith("2030"):
        assert sum(row["total"] for row in rows) == body["totals"]["total"] > 0


def test_every_endpoint_of_the_published_document_answers_its_documented_shape(live):
    """Each path of analytics.openapi.json, called with an admin key, answers 200 with a body valid against the
    schema the document gives for 200 (the same check as the listings above, for all eight endpoints)."""
    client, project = live
    checked = []
    for path, item in SPEC["paths"].items():
        operation = item["get"]
        url = path.replace("{projectId}", project).replace("{threadId}", THREADS[project])
        response = client.get(url)
        assert response.status_code == 200, (path, response.text)
        ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        validator(ref.rsplit("/", 1)[1]).validate(response.json())
        checked.append(path)
    assert len(checked) == 8
