"""The dashboard's numbers and drawings: per-day counts, by-page order, SVG charts, ages, migration to schema 2."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import create_engine, inspect, select

from docsgen.server import feedback as fb
from docsgen.server.dashboard import charts, reports
from docsgen.server.dashboard.web import age, highlight_code
from docsgen.server.db import SCHEMA_VERSION, metadata, open_database, schema_version
from tests.dashboard_helpers import DAY, make_world
from tests.htmldom import parse

NOW = int(datetime(2026, 11, 20, 12, 0, tzinfo=UTC).timestamp() * 1000)


def query(**filters) -> fb.ListQuery:
    return fb.parse_list_query(list(filters.items()), "s", "alpha")


def test_per_day_counts_sources_and_ratings(tmp_path):
    world = make_world(tmp_path, NOW)
    with world.engine.connect() as conn:
        data = reports.per_day(conn, "alpha", query(dateFrom="2026-11-14", dateTo="2026-11-21"))
    days = {d["day"]: d for d in data["days"]}
    assert list(days) == [f"2026-11-{n}" for n in range(14, 21)]
    assert days["2026-11-20"] == {
        "day": "2026-11-20",
        "code_snippet": 0,
        "contextual": 0,
        "agent": 0,
        "thumbs_only": 1,
    }
    assert days["2026-11-19"]["contextual"] == 1
    assert days["2026-11-17"]["code_snippet"] == 1
    assert days["2026-11-16"]["thumbs_only"] == 1
    assert sum(sum(d[s] for s in fb.SOURCES) for d in data["days"]) == 5
    assert (data["helpful"], data["notHelpful"]) == (2, 2)
    # Other projects never count, and a source filter narrows the chart as it narrows the list.
    with world.engine.connect() as conn:
        code = reports.per_day(
            conn, "alpha", query(dateFrom="2026-11-14", dateTo="2026-11-21", source="code_snippet")
        )
        beta = reports.per_day(conn, "beta", query(dateFrom="2026-11-14", dateTo="2026-11-21"))
    assert sum(d["code_snippet"] for d in code["days"]) == 1 and code["helpful"] == 0
    assert sum(d["contextual"] for d in beta["days"]) == 1


def test_by_page_orders_most_negative_first_and_filters_by_status(tmp_path):
    world = make_world(tmp_path, NOW)
    with world.engine.begin() as conn:
        for _ in range(3):
            fb.store(
                conn,
                "alpha",
                fb.validate_submission({"source": "thumbs_only", "path": "/x", "helpful": True}),
            )
        rows = reports.by_page(conn, "alpha", query())
        assert [r["path"] for r in rows] == ["/quickstart", "/api/users", "/guides/auth", "/x"]
        assert rows[-1] == {"path": "/x", "thumbsUp": 3, "thumbsDown": 0, "code": 0, "total": 3}
        entry = reports.export_rows(conn, "alpha", query(source="code_snippet"), "s").__next__()
        fb.change_status(conn, "alpha", entry["id"], {"status": "resolved"}, "k")
        resolved = reports.by_page(conn, "alpha", query(status="resolved"))
    assert resolved == [{"path": "/api/users", "thumbsUp": 0, "thumbsDown": 0, "code": 1, "total": 1}]


def test_csv_walks_every_page_of_the_filter(tmp_path):
    world = make_world(tmp_path, NOW)
    with world.engine.begin() as conn:
        for i in range(130):
            values = fb.validate_submission({"source": "thumbs_only", "path": f"/bulk/{i}", "helpful": False})
            fb.store(conn, "alpha", values, NOW - 20 * DAY + i)
        text = reports.export_csv(conn, "alpha", query(), "s")
    lines = text.split("\r\n")
    assert lines[0] == ",".join(reports.CSV_COLUMNS)
    assert len([line for line in lines[1:] if line]) == 135
    assert len({line.split(",")[0] for line in lines[1:] if line}) == 135


def test_day_chart_draws_stacked_bars_with_titles():
    days = [
        {"day": "2026-11-01", "contextual": 2, "thumbs_only": 1, "code_snippet": 0, "agent": 0},
        {"day": "2026-11-02", "contextual": 0, "thumbs_only": 0, "code_snippet": 0, "agent": 0},
        {"day": "2026-11-03", "contextual": 0, "thumbs_only": 0, "code_snippet": 4, "agent": 0},
    ]
    svg = parse(str(charts.per_day_chart(days))).find("svg")
    assert svg.attrs["role"] == "img"
    bars = svg.find_all("rect")
    assert [(b.attrs["data-source"], b.attrs["data-count"]) for b in bars] == [
        ("contextual", "2"),
        ("thumbs_only", "1"),
        ("code_snippet", "4"),
    ]
    heights = [float(b.attrs["height"]) for b in bars]
    assert abs(heights[2] - 2 * heights[0]) < 0.2 and abs(heights[0] - 2 * heights[1]) < 0.2
    # The stack: the second segment of day one sits right on top of the first.
    assert abs(float(bars[1].attrs["y"]) + heights[1] - float(bars[0].attrs["y"])) < 0.2
    titles = [t.text for t in svg.find_all("title")]
    assert "2026-11-01: 2 comment, 1 thumbs only" in titles and "2026-11-02: no feedback" in titles


def test_ratio_chart_splits_the_bar():
    svg = parse(str(charts.helpful_chart(3, 1))).find("svg")
    good, bad = svg.find_all("rect")
    assert float(good.attrs["width"]) == 480.0 and float(bad.attrs["width"]) == 160.0
    assert "3 helpful (75%)" in svg.text and "1 not helpful (25%)" in svg.text
    assert "no ratings yet" in str(charts.helpful_chart(0, 0))


def test_ages_and_highlighting():
    assert age(NOW - 5_000, NOW) == "just now"
    assert age(NOW - 5 * 60_000, NOW) == "5 min ago"
    assert age(NOW - 3 * 3_600_000, NOW) == "3 h ago"
    assert age(NOW - DAY, NOW) == "1 day ago"
    assert age(None, NOW) == "never"
    html, lang = highlight_code("<b>x</b> = 1\n", None, "main.py")
    assert lang == "Python" and "&lt;" in html and "<b>" not in html
    html, lang = highlight_code("plain <i>", "no-such-language", None)
    assert lang == "no-such-language" and "&lt;i&gt;" in html


def test_a_version_1_database_gains_the_dashboard_tables(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    later = {
        "dashboard_sessions",
        "api_key_uses",
        "feedback_idempotency_keys",
        "analytics_events",
        "analytics_salts",
        "assistant_threads",
        "assistant_messages",
    }
    v1_tables = [t for name, t in metadata.tables.items() if name not in later]
    metadata.create_all(engine, tables=v1_tables)
    with engine.begin() as conn:
        conn.execute(schema_version.insert().values(version=1))
    engine.dispose()
    upgraded = open_database(url)
    assert later <= set(inspect(upgraded).get_table_names())
    with upgraded.connect() as conn:
        assert conn.execute(select(schema_version.c.version)).scalar() == SCHEMA_VERSION == 4
    upgraded.dispose()
