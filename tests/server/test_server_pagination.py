"""Property: walking nextCursor returns every matching entry exactly once, in order, while feedback keeps arriving."""

from __future__ import annotations

import secrets
import threading
from datetime import UTC, datetime

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsgen.server import feedback as fb
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.testing import LiveServer, seed_project
from tests.pg import fresh_database

BASE_MS = int(datetime(2026, 5, 1, tzinfo=UTC).timestamp() * 1000)
BODIES = {
    "thumbs_only": {"helpful": True},
    "contextual": {"helpful": False, "comment": "c"},
    "code_snippet": {"comment": "c", "code": "x"},
    "agent": {"comment": "c"},
}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live(request, tmp_path_factory):
    url = (
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'p.sqlite3'}"
        if request.param == "sqlite"
        else fresh_database()
    )
    engine = open_database(url)
    with (
        LiveServer(create_app(engine=engine, rate_limit=0)) as server,
        httpx.Client(base_url=server.url) as client,
    ):
        yield engine, client
    engine.dispose()


def insert(engine, project: str, offset: int, source: str, status: str) -> str:
    body = {"path": "/p", "source": source, **BODIES[source]}
    with engine.begin() as conn:
        entry = fb.store(conn, project, fb.validate_submission(body), created_ms=BASE_MS + offset)
        if status != "pending":
            conn.execute(fb.feedback.update().where(fb.feedback.c.id == entry["id"]).values(status=status))
    return entry["id"]


entries = st.lists(
    st.tuples(st.integers(0, 40), st.sampled_from(fb.SOURCES), st.sampled_from(fb.STATUSES)), max_size=45
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    existing=entries,
    arriving=entries,
    limit=st.integers(1, 7),
    source=st.sampled_from([None, *fb.SOURCES]),
    statuses=st.sets(st.sampled_from(fb.STATUSES), max_size=3),
    window=st.tuples(st.integers(0, 42), st.integers(0, 42)).map(sorted),
    use_window=st.booleans(),
)
def test_cursor_walk_is_exact_under_concurrent_inserts(
    live, existing, arriving, limit, source, statuses, window, use_window
):
    engine, client = live
    project = "pg" + secrets.token_hex(5)
    key = seed_project(engine, project)
    before = {insert(engine, project, *row): row for row in existing}
    meta = dict(before)
    params: dict[str, object] = {"limit": limit}
    if source:
        params["source"] = source
    if statuses:
        params["status"] = ",".join(sorted(statuses))
    if use_window:
        params["dateFrom"] = fb.format_time(BASE_MS + window[0])
        params["dateTo"] = fb.format_time(BASE_MS + window[1])

    def matches(row) -> bool:
        offset, row_source, row_status = row
        return (
            (not source or row_source == source)
            and (not statuses or row_status in statuses)
            and (not use_window or window[0] <= offset < window[1])
        )

    # Readers keep posting over HTTP while the walk runs (these are newer than every existing entry) ...
    stop = threading.Event()

    def post_continuously() -> None:
        with httpx.Client(base_url=str(client.base_url)) as poster:
            while not stop.is_set():
                poster.post(
                    f"/v1/feedback/{project}",
                    json={"path": "/live", "source": "thumbs_only", "helpful": True},
                )

    poster = threading.Thread(target=post_continuously, daemon=True)
    poster.start()
    seen: list[dict] = []
    cursor = None
    pending = list(arriving)
    try:
        while True:
            response = client.get(
                f"/v1/analytics/{project}/feedback",
                params={**params, **({"cursor": cursor} if cursor else {})},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert response.status_code == 200, response.text
            page = response.json()
            assert len(page["feedback"]) <= limit
            seen += page["feedback"]
            # ... and entries with arbitrary (also older) timestamps land between pages.
            for row in pending[:3]:
                meta[insert(engine, project, *row)] = row
            pending = pending[3:]
            assert page["hasMore"] == (page["nextCursor"] is not None)
            assert len(seen) <= len(meta) + 10_000, "the walk does not end"
            assert len(set(e["id"] for e in seen)) == len(seen), "an entry came twice"
            if not page["hasMore"]:
                break
            cursor = page["nextCursor"]
    finally:
        stop.set()
        poster.join(10)
    ids = [e["id"] for e in seen]
    assert len(ids) == len(set(ids)), "an entry came twice"
    expected = {entry_id for entry_id, row in before.items() if matches(row)}
    assert expected <= set(ids), "an entry present before the walk was skipped"
    unexpected = {i for i in ids if i in meta and not matches(meta[i])}
    assert not unexpected, "an entry outside the filters was listed"
    keys = [(e["createdAt"], e["id"]) for e in seen]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys), "not strictly newest first"
    for entry in seen:
        assert (not source or entry["source"] == source) and (not statuses or entry["status"] in statuses)
        if use_window:
            assert params["dateFrom"] <= entry["createdAt"] < params["dateTo"]
