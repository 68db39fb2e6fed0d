"""Traffic reports in the shapes of Mintlify's analytics API: views, visitors, searches; plus the dashboard's series."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, case, distinct, func, select
from sqlalchemy.engine import Connection

from docsgen.server import feedback as fb
from docsgen.server.apierror import bad_request
from docsgen.server.db import analytics_events, now_ms

DAY_MS = 86_400_000
ev = analytics_events.c


@dataclass(frozen=True)
class Range:
    """Validated parameters of a traffic report: [date_from, date_to) in ms, page size and position."""

    date_from: int | None
    date_to: int | None
    limit: int
    offset: int


def _single(params: list[tuple[str, str]], accepted: tuple[str, ...]) -> dict[str, str]:
    seen: dict[str, str] = {}
    for name, value in params:
        if name not in accepted:
            raise bad_request(f"unknown query parameter {name!r}; accepted: {', '.join(accepted)}", name)
        if name in seen:
            raise bad_request(f"query parameter {name} is given more than once", name)
        seen[name] = value
    return seen


def _integer(seen: dict[str, str], name: str, low: int, high: int, default: int) -> int:
    if name not in seen:
        return default
    raw = seen[name]
    if not re.fullmatch(r"[0-9]{1,9}", raw) or not low <= int(raw) <= high:
        raise bad_request(f"{name} must be an integer from {low} to {high}, got {raw!r}", name)
    return int(raw)


def parse_range(
    params: list[tuple[str, str]],
    max_limit: int,
    default_limit: int,
    *,
    secret: str = "",
    project_id: str = "",
) -> Range:
    """Parse dateFrom/dateTo (as the feedback listing), limit, and offset (views, visitors) or cursor (searches)."""
    paging = "cursor" if secret else "offset"
    seen = _single(params, ("dateFrom", "dateTo", "limit", paging))
    date_from = fb.parse_time(seen["dateFrom"], "dateFrom") if "dateFrom" in seen else None
    date_to = fb.parse_time(seen["dateTo"], "dateTo") if "dateTo" in seen else None
    limit = _integer(seen, "limit", 1, max_limit, default_limit)
    offset = _integer(seen, "offset", 0, 10**9, 0)
    if "cursor" in seen:
        offset, kind = fb.decode_cursor(
            seen["cursor"], secret, _fingerprint(project_id, date_from, date_to), allow_offset=True
        )
        if kind != "searches" or offset < 0:
            raise fb.ApiError(400, "invalid_cursor", "cursor belongs to another listing", "cursor")
    return Range(date_from, date_to, limit, offset)


def _fingerprint(project_id: str, date_from: int | None, date_to: int | None) -> str:
    return fb.ListQuery(date_from, date_to, "searches", (), 0, None).fingerprint(project_id)


def _where(project_id: str, kind: str, r: Range) -> list:
    conditions = [ev.project_id == project_id, ev.kind == kind]
    if r.date_from is not None:
        conditions.append(ev.created_ms >= r.date_from)
    if r.date_to is not None:
        conditions.append(ev.created_ms < r.date_to)
    return conditions


def views(conn: Connection, project_id: str, r: Range) -> dict:
    """GET .../views: view events per path and site-wide, human and AI, most viewed first."""
    human = func.sum(case((ev.traffic == "human", 1), else_=0))
    ai = func.sum(case((ev.traffic == "ai", 1), else_=0))
    return _per_path(conn, _where(project_id, "view", r), r, (human, ai, func.count()), "views")


def visitors(conn: Connection, project_id: str, r: Range) -> dict:
    """GET .../visitors: distinct visitors (daily hashes) per path and site-wide, human and AI."""
    human = func.count(distinct(case((ev.traffic == "human", ev.visitor))))
    ai = func.count(distinct(case((ev.traffic == "ai", ev.visitor))))
    return _per_path(
        conn, _where(project_id, "view", r), r, (human, ai, func.count(distinct(ev.visitor))), "visitors"
    )


def _per_path(conn: Connection, where: list, r: Range, counts: tuple, key: str) -> dict:
    """Site-wide totals and one page of per-path rows of (human, ai, total) counts, largest total first."""
    human, ai, total = counts
    t = conn.execute(select(human, ai, total).where(*where)).one()
    rows = conn.execute(
        select(ev.path, human.label("h"), ai.label("a"), total.label("n"))
        .where(*where)
        .group_by(ev.path)
        .order_by(total.desc(), ev.path)
        .offset(r.offset)
        .limit(r.limit + 1)
    ).all()
    return {
        "totals": {"human": int(t[0] or 0), "ai": int(t[1] or 0), "total": int(t[2] or 0)},
        key: [
            {"path": row.path, "human": int(row.h or 0), "ai": int(row.a or 0), "total": int(row.n)}
            for row in rows[: r.limit]
        ],
        "hasMore": len(rows) > r.limit,
    }


def searches(conn: Connection, project_id: str, r: Range, secret: str) -> dict:
    """GET .../searches: search terms by hits, with click-through rate, top clicked page and last search."""
    hits = func.count().label("hits")
    last = func.max(ev.created_ms).label("last")
    where = _where(project_id, "search", r)
    total = conn.execute(select(func.count()).where(*where)).scalar() or 0
    rows = conn.execute(
        select(ev.query, hits, last)
        .where(*where)
        .group_by(ev.query)
        .order_by(hits.desc(), ev.query)
        .offset(r.offset)
        .limit(r.limit + 1)
    ).all()
    page = rows[: r.limit]
    clicks: dict[str, list[tuple[int, str]]] = {}
    if page:
        terms = [row.query for row in page]
        click_rows = conn.execute(
            select(ev.query, ev.path, func.count().label("n"))
            .where(*_where(project_id, "click", r), ev.query.in_(terms))
            .group_by(ev.query, ev.path)
        ).all()
        for c in click_rows:
            clicks.setdefault(c.query, []).append((int(c.n), c.path))
    result = []
    for row in page:
        mine = sorted(clicks.get(row.query, []), key=lambda item: (-item[0], item[1]))
        clicked = sum(n for n, _ in mine)
        result.append(
            {
                "searchQuery": row.query,
                "hits": int(row.hits),
                "ctr": round(min(1.0, clicked / int(row.hits)), 4),
                "topClickedPage": mine[0][1] if mine else None,
                "lastSearchedAt": fb.format_time(int(row.last)),
            }
        )
    next_cursor = None
    if len(rows) > r.limit:
        fingerprint = _fingerprint(project_id, r.date_from, r.date_to)
        next_cursor = fb.encode_cursor(r.offset + r.limit, "searches", secret, fingerprint)
    return {"searches": result, "totalSearches": int(total), "nextCursor": next_cursor}


def content_gaps(conn: Connection, project_id: str, r: Range) -> list[dict]:
    """Search terms that found nothing, most frequent first (the dashboard's "content gaps")."""
    hits = func.count().label("hits")
    rows = conn.execute(
        select(ev.query, hits, func.max(ev.created_ms).label("last"))
        .where(*_where(project_id, "search", r), ev.results == 0)
        .group_by(ev.query)
        .order_by(hits.desc(), ev.query)
        .limit(r.limit)
    ).all()
    return [{"query": row.query, "hits": int(row.hits), "last_ms": int(row.last)} for row in rows]


def top(conn: Connection, project_id: str, r: Range, column: str, kind: str = "view") -> list[dict]:
    """Most frequent values of one column (path of 404s, referrer host of views), most first."""
    col = ev[column]
    n = func.count().label("n")
    rows = conn.execute(
        select(col.label("value"), n)
        .where(*_where(project_id, kind, r), col.is_not(None), col != "")
        .group_by(col)
        .order_by(n.desc(), col)
        .limit(r.limit)
    ).all()
    return [{"value": row.value, "count": int(row.n)} for row in rows]


def daily(conn: Connection, project_id: str, r: Range, days: int = 30) -> list[dict]:
    """Views and visitors per UTC day over the range (default: the last `days` days, at most a year)."""
    end = r.date_to if r.date_to is not None else (now_ms() // DAY_MS + 1) * DAY_MS
    start = r.date_from if r.date_from is not None else end - days * DAY_MS
    start = max(start, end - 366 * DAY_MS)
    day = ev.created_ms // DAY_MS
    rows = conn.execute(
        select(day.label("d"), func.count().label("v"), func.count(distinct(ev.visitor)).label("u"))
        .where(
            ev.project_id == project_id, ev.kind == "view", and_(ev.created_ms >= start, ev.created_ms < end)
        )
        .group_by(day)
    ).all()
    counts = {int(row.d): (int(row.v), int(row.u)) for row in rows}
    first = datetime.fromtimestamp(start / 1000, UTC).date()
    last = datetime.fromtimestamp((end - 1) / 1000, UTC).date()
    out = []
    for i in range((last - first).days + 1):
        d = first + timedelta(days=i)
        key = int(datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp()) * 1000 // DAY_MS
        v, u = counts.get(key, (0, 0))
        out.append({"day": d.isoformat(), "views": v, "visitors": u})
    return out
