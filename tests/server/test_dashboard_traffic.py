"""The dashboard's Traffic page over httpx: views and visitors per day, top pages, referrers, content gaps,
searches and 404s of the signed-in project only, escaped, with formula-safe CSV exports."""

from __future__ import annotations

import csv
import io

import httpx
import pytest
from sqlalchemy import insert

from docsgen.server.app import create_app
from docsgen.server.db import analytics_events, now_ms
from docsgen.server.testing import LiveServer
from tests.dashboard_helpers import DAY, make_world, sign_in
from tests.htmldom import parse


def event(project: str, kind: str, ago_days: int, **values) -> dict:
    row = {
        "project_id": project,
        "kind": kind,
        "created_ms": now_ms() - ago_days * DAY - 1000,
        "path": "",
        "visitor": "v1",
        "traffic": "human",
        "referrer": None,
        "query": None,
        "results": None,
    }
    return {**row, **values}


@pytest.fixture
def client(tmp_path):
    world = make_world(tmp_path, now_ms())
    rows = [
        event("alpha", "view", 0, path="/quickstart", referrer="www.google.com"),
        event("alpha", "view", 0, path="/quickstart", visitor="v2", traffic="ai"),
        event("alpha", "view", 2, path="/guides/auth", visitor="v3"),
        event("alpha", "search", 0, query="<script>alert(1)</script>", results=0),
        event("alpha", "search", 1, query="=cmd|calc", results=0),
        event("alpha", "search", 1, query="auth", results=4),
        event("alpha", "click", 1, query="auth", path="/guides/auth"),
        event("alpha", "notfound", 0, path="/old/page"),
        event("beta", "view", 0, path="/beta-secret", referrer="beta.example"),
    ]
    with world.engine.begin() as conn:
        conn.execute(insert(analytics_events), rows)
    with (
        LiveServer(create_app(engine=world.engine, rate_limit=0)) as live,
        httpx.Client(base_url=live.url) as c,
    ):
        sign_in(c, world.key_a)
        yield c
    world.engine.dispose()


def rows_of(html, table_id: str) -> list[list[str]]:
    table = parse(html).find("table", id=table_id)
    return [
        [cell.text.strip() for cell in tr.children if not isinstance(cell, str) and cell.tag in ("th", "td")]
        for tr in table.find("tbody").find_all("tr")
    ]


def test_the_traffic_page_shows_the_projects_numbers(client):
    r = client.get("/dashboard/traffic")
    assert r.status_code == 200 and "beta" not in r.text.replace("Beta", "")
    assert "3 views (2 by people, 1 by AI agents)" in " ".join(
        parse(r.text).find("p", id="totals").text.split()
    )
    assert rows_of(r.text, "top-pages")[0] == ["/quickstart", "2", "1", "2"]
    assert rows_of(r.text, "referrers") == [["www.google.com", "1"]]
    assert sorted(rows_of(r.text, "content-gaps")) == [["<script>alert(1)</script>", "1"], ["=cmd|calc", "1"]]
    assert "<script>alert(1)</script>" not in r.text  # escaped
    assert ["auth", "1", "100%", "/guides/auth"] in rows_of(r.text, "searches")
    assert rows_of(r.text, "not-found") == [["/old/page", "1"]]
    days = rows_of(r.text, "days")
    assert sum(int(d[1]) for d in days) == 3 and len(days) == 2
    svg = parse(r.text).find("svg", cls="chart")
    assert len(svg.find_all("rect")) == 30 and svg.find("polyline") is not None
    narrowed = client.get("/dashboard/traffic", params={"dateTo": days[1][0]})
    assert rows_of(narrowed.text, "top-pages") == [["/guides/auth", "1", "0", "1"]]
    assert client.get("/dashboard/traffic", params={"dateFrom": "2026-02-30"}).status_code == 400


def test_exports_are_csv_with_formula_safe_cells(client):
    r = client.get("/dashboard/traffic/export.csv", params={"report": "gaps"})
    assert (
        r.headers["content-type"].startswith("text/csv") and "attachment" in r.headers["content-disposition"]
    )
    table = list(csv.reader(io.StringIO(r.text)))
    assert table[0] == ["query", "hits"] and ["'=cmd|calc", "1"] in table
    pages = list(csv.reader(io.StringIO(client.get("/dashboard/traffic/export.csv").text)))
    assert pages[0][0] == "path" and pages[1] == ["/quickstart", "1", "1", "2", "1", "1", "2"]
    assert client.get("/dashboard/traffic/export.csv", params={"report": "nope"}).status_code == 400


def test_signed_out_readers_are_sent_to_sign_in(tmp_path):
    world = make_world(tmp_path, now_ms())
    with LiveServer(create_app(engine=world.engine)) as live:
        r = httpx.get(f"{live.url}/dashboard/traffic")
        assert r.status_code == 303 and r.headers["location"].endswith("/dashboard/signin")
        assert httpx.get(f"{live.url}/dashboard/traffic/export.csv").status_code == 303
    world.engine.dispose()
