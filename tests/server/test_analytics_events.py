"""Cookie-less analytics against a real uvicorn server on SQLite and PostgreSQL: the beacon, visitor hashes, AI
traffic, Do Not Track, rate limits, retention, and the /views, /visitors and /searches reports they feed."""

from __future__ import annotations

import concurrent.futures
import secrets
from dataclasses import dataclass

import httpx
import pytest
from sqlalchemy import select

from docsgen.server import events
from docsgen.server.analytics_api import AnalyticsOptions
from docsgen.server.app import create_app
from docsgen.server.db import analytics_events, analytics_salts, open_database
from docsgen.server.testing import LiveServer, seed_project
from tests.pg import fresh_database

ORIGIN = "http://docs.example.test:8080"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
GPT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)"


@dataclass
class Env:
    url: str
    engine: object
    client: httpx.Client
    app: object


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def env(request, tmp_path_factory):
    url = (
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'a.sqlite3'}"
        if request.param == "sqlite"
        else fresh_database()
    )
    engine = open_database(url)
    app = create_app(engine=engine, rate_limit=0, analytics=AnalyticsOptions(visitor_rate=40))
    with LiveServer(app) as live, httpx.Client(base_url=live.url) as client:
        yield Env(live.url, engine, client, app)
    engine.dispose()


@dataclass
class Project:
    id: str
    key: str
    env: Env

    def send(self, *evs: dict, ua: str = BROWSER, **headers: str) -> httpx.Response:
        body = httpx.Request("POST", "/", json={"events": list(evs)}).content
        headers = {"content-type": "text/plain;charset=UTF-8", "user-agent": ua, "origin": ORIGIN, **headers}
        return self.env.client.post(f"/v1/events/{self.id}", content=body, headers=headers)

    def get(self, report: str, **params) -> httpx.Response:
        return self.env.client.get(
            f"/v1/analytics/{self.id}/{report}",
            params=params,
            headers={"Authorization": f"Bearer {self.key}"},
        )

    def rows(self) -> list:
        with self.env.engine.connect() as conn:
            c = analytics_events.c
            return conn.execute(select(analytics_events).where(c.project_id == self.id).order_by(c.seq)).all()


@pytest.fixture
def project(env) -> Project:
    pid = "p" + secrets.token_hex(4)
    return Project(pid, seed_project(env.engine, pid, [ORIGIN]), env)


def test_events_are_stored_without_address_and_reported_in_mintlifys_shapes(project):
    r = project.send(
        {"kind": "view", "path": "/quickstart", "referrer": "https://www.google.com/search?q=secret"},
        {"kind": "view", "path": "/guide"},
        {"kind": "search", "query": "  Auth  Tokens ", "results": 3},
        {"kind": "click", "query": "auth tokens", "path": "/auth"},
        {"kind": "search", "query": "kubernetes", "results": 0},
        {"kind": "notfound", "path": "/old-page"},
    )
    assert r.status_code == 202 and r.json() == {"accepted": 6}
    assert r.headers["access-control-allow-origin"] == ORIGIN
    project.send({"kind": "view", "path": "/quickstart"}, ua=GPT)
    rows = project.rows()
    assert [row.kind for row in rows] == ["view", "view", "search", "click", "search", "notfound", "view"]
    assert rows[0].referrer == "www.google.com" and rows[1].referrer is None  # the host only
    assert rows[2].query == "auth tokens" and rows[2].results == 3
    assert {row.traffic for row in rows[:6]} == {"human"} and rows[6].traffic == "ai"
    assert len({row.visitor for row in rows[:6]}) == 1 and rows[6].visitor != rows[0].visitor
    for row in rows:  # no address anywhere
        assert "127.0.0.1" not in " ".join(str(v) for v in row)
    views = project.get("views").json()
    assert views["totals"] == {"human": 2, "ai": 1, "total": 3}
    assert views["views"][0] == {"path": "/quickstart", "human": 1, "ai": 1, "total": 2}
    assert views["hasMore"] is False
    visitors = project.get("visitors").json()
    assert visitors["totals"] == {"human": 1, "ai": 1, "total": 2}
    assert {v["path"]: v["total"] for v in visitors["visitors"]} == {"/quickstart": 2, "/guide": 1}
    searches = project.get("searches").json()
    assert searches["totalSearches"] == 2 and searches["nextCursor"] is None
    first = searches["searches"][0]
    assert (
        first["searchQuery"] == "auth tokens" and first["ctr"] == 1.0 and first["topClickedPage"] == "/auth"
    )
    assert searches["searches"][1] == {
        **searches["searches"][1],
        "searchQuery": "kubernetes",
        "ctr": 0.0,
        "topClickedPage": None,
    }


def test_visitor_hash_rotates_daily_and_old_salts_are_deleted(env):
    salts = events.Salts()
    day = 86_400_000
    with env.engine.begin() as conn:
        first = salts.today(conn, 1_000 * day)
        assert salts.today(conn, 1_000 * day + 5) == first
        second = salts.today(conn, 1_001 * day)
        stored = dict(conn.execute(select(analytics_salts.c.day, analytics_salts.c.salt)).all())
    assert first != second and events.utc_day(1_000 * day) not in stored
    a = events.visitor_hash(first, "p", "1.2.3.4", BROWSER)
    assert a != events.visitor_hash(second, "p", "1.2.3.4", BROWSER)
    assert a != events.visitor_hash(first, "p", "1.2.3.5", BROWSER) and len(a) == 32


def test_crawlers_do_not_track_and_foreign_origins_store_nothing(project):
    assert project.send(
        {"kind": "view", "path": "/a"}, ua="Googlebot/2.1 (+http://www.google.com/bot.html)"
    ).json() == {"accepted": 0}
    assert project.send({"kind": "view", "path": "/a"}, dnt="1").json() == {"accepted": 0}
    assert project.send({"kind": "view", "path": "/a"}, **{"sec-gpc": "1"}).json() == {"accepted": 0}
    r = project.send({"kind": "view", "path": "/a"}, origin="https://evil.example")
    assert r.status_code == 403 and "access-control-allow-origin" not in r.headers
    assert project.rows() == []


@pytest.mark.parametrize(
    "event",
    [
        {"kind": "view"},
        {"kind": "view", "path": "relative"},
        {"kind": "nope", "path": "/a"},
        {"kind": "search", "query": "x", "results": -1},
        {"kind": "search", "query": " ", "results": 1},
        {"kind": "view", "path": "/a", "ip": "1.2.3.4"},
        {"kind": "view", "path": "/a\x00"},
    ],
)
def test_invalid_events_are_422_and_store_nothing(project, event):
    assert project.send(event).status_code == 422
    assert project.rows() == []


def test_batches_are_bounded_and_visitors_rate_limited(project):
    assert project.send(*[{"kind": "view", "path": "/a"}] * 26).status_code == 422
    ua = BROWSER + " limited"
    codes = [project.send({"kind": "view", "path": "/a"}, ua=ua).status_code for _ in range(45)]
    accepted = codes.count(202)  # a burst of 40, plus what refilled meanwhile (40 a minute)
    assert 40 <= accepted <= 43 and codes[-1] == 429 and set(codes) == {202, 429}
    assert len(project.rows()) == accepted


def test_concurrent_beacons_are_all_committed_before_their_answer(project):
    def one(i: int) -> int:
        return project.send({"kind": "view", "path": f"/p{i % 5}"}, ua=f"{BROWSER} n{i}").status_code

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(one, range(64)))
    assert codes == [202] * 64
    assert len(project.rows()) == 64  # every acknowledged event is in the database
    assert project.get("views", limit="2").json()["hasMore"] is True
    page = project.get("views", limit="2", offset="4").json()
    assert len(page["views"]) == 1 and page["hasMore"] is False


def test_searches_cursor_walks_every_term_and_rejects_tampering(project):
    for i in range(7):
        project.send(*[{"kind": "search", "query": f"term {i}", "results": 1}] * (i + 1), ua=f"{BROWSER} {i}")
    seen, cursor = [], None
    while True:
        params = {"limit": "3", **({"cursor": cursor} if cursor else {})}
        body = project.get("searches", **params).json()
        seen += [s["searchQuery"] for s in body["searches"]]
        cursor = body["nextCursor"]
        if cursor is None:
            break
    assert seen == [f"term {i}" for i in range(6, -1, -1)]
    assert project.get("searches", cursor="x" + cursor if cursor else "bogus").status_code == 400


@pytest.mark.parametrize(
    ("report", "params"),
    [
        ("views", {"limit": "251"}),
        ("views", {"limit": "0"}),
        ("visitors", {"offset": "-1"}),
        ("views", {"cursor": "x"}),
        ("searches", {"limit": "101"}),
        ("searches", {"offset": "1"}),
        ("visitors", {"dateFrom": "2026-02-30"}),
    ],
)
def test_bad_report_parameters_are_400(project, report, params):
    assert project.get(report, **params).status_code == 400


def test_reports_need_the_projects_admin_key(env, project):
    assert env.client.get(f"/v1/analytics/{project.id}/views").status_code == 401
    other = Project("o" + secrets.token_hex(4), "", env)
    other.key = seed_project(env.engine, other.id, [])
    assert other.get("views").status_code == 200
    r = env.client.get(f"/v1/analytics/{project.id}/views", headers={"Authorization": f"Bearer {other.key}"})
    assert r.status_code == 403


def test_retention_deletes_old_events(env, project):
    project.send({"kind": "view", "path": "/a"})
    with env.engine.begin() as conn:
        assert events.prune(conn, 30, events.now_ms() + 29 * 86_400_000) == 0
        assert events.prune(conn, 30, events.now_ms() + 31 * 86_400_000) >= 1
    assert project.rows() == []
