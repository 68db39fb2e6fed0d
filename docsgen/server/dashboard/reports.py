"""Numbers for the dashboard and the by-page API: per-page summary, feedback per day, key use, CSV export."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import case, func, select
from sqlalchemy.engine import Connection

from docsgen.server import feedback as fb
from docsgen.server.db import api_key_uses, deployments, feedback, now_ms
from docsgen.server.keys import list_keys

CSV_COLUMNS = (
    "id",
    "createdAt",
    "status",
    "source",
    "path",
    "helpful",
    "comment",
    "contact",
    "filename",
    "lang",
    "code",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BY_PAGE_PARAMS = ("dateFrom", "dateTo", "source", "status", "limit", "cursor")
BY_PAGE_DEFAULT_LIMIT = 10  # Mintlify's default for feedback/by-page


def _conditions(project_id: str, query: fb.ListQuery) -> list:
    c = feedback.c
    conditions = [c.project_id == project_id]
    if query.date_from is not None:
        conditions.append(c.created_ms >= query.date_from)
    if query.date_to is not None:
        conditions.append(c.created_ms < query.date_to)
    if query.source:
        conditions.append(c.source == query.source)
    if query.statuses:
        conditions.append(c.status.in_(query.statuses))
    return conditions


def parse_filters(params: list[tuple[str, str]], secret: str, project_id: str) -> fb.ListQuery:
    """Validate the listing filters (dates, source, status) the by-page summary accepts, as the API does."""
    for name, _ in params:
        if name not in BY_PAGE_PARAMS:
            raise fb.bad_request(
                f"unknown query parameter {name!r}; accepted: {', '.join(BY_PAGE_PARAMS)}", name
            )
    query = fb.parse_list_query([p for p in params if p[0] != "cursor"], secret, project_id)
    limit = query.limit if any(name == "limit" for name, _ in params) else BY_PAGE_DEFAULT_LIMIT
    offset = 0
    cursor = next((value for name, value in params if name == "cursor"), None)
    if cursor is not None:
        offset, kind = fb.decode_cursor(cursor, secret, query.fingerprint(project_id), allow_offset=True)
        if kind != "by-page" or offset < 0:
            raise fb.ApiError(400, "invalid_cursor", "cursor belongs to another listing", "cursor")
    return replace(query, limit=limit, after=(offset, "by-page"))


def by_page(conn: Connection, project_id: str, query: fb.ListQuery, *, paged: bool = False) -> list[dict]:
    """Count thumbs up, thumbs down, code comments and all entries per page, most thumbs down first.

    With `paged`, return at most `query.limit + 1` rows from the offset in `query.after` (the extra row tells
    the caller there are more); otherwise every page."""
    c = feedback.c
    up = func.sum(case((c.helpful.is_(True), 1), else_=0)).label("up")
    down = func.sum(case((c.helpful.is_(False), 1), else_=0)).label("down")
    code = func.sum(case((c.source == "code_snippet", 1), else_=0)).label("code")
    total = func.count().label("total")
    statement = (
        select(c.path, up, down, code, total)
        .where(*_conditions(project_id, query))
        .group_by(c.path)
        .order_by(down.desc(), (down - up).desc(), total.desc(), c.path)
    )
    if paged:
        statement = statement.offset(query.after[0] if query.after else 0).limit(query.limit + 1)
    return [
        {
            "path": r.path,
            "thumbsUp": int(r.up or 0),
            "thumbsDown": int(r.down or 0),
            "code": int(r.code or 0),
            "total": int(r.total),
        }
        for r in conn.execute(statement).all()
    ]


def by_page_response(conn: Connection, project_id: str, query: fb.ListQuery, secret: str) -> dict:
    """Answer GET .../feedback/by-page as Mintlify does ({"feedback", "hasMore"}), plus our `nextCursor`."""
    rows = by_page(conn, project_id, query, paged=True)
    has_more = len(rows) > query.limit
    offset = query.after[0] if query.after else 0
    next_cursor = None
    if has_more:
        next_cursor = fb.encode_cursor(offset + query.limit, "by-page", secret, query.fingerprint(project_id))
    return {"feedback": rows[: query.limit], "hasMore": has_more, "nextCursor": next_cursor}


def per_day(conn: Connection, project_id: str, query: fb.ListQuery, days: int = 30) -> dict:
    """Count entries per UTC day and source, and helpful/not helpful, over the filter's dates (default: 30 days)."""
    end_ms = query.date_to if query.date_to is not None else _midnight_after(now_ms())
    start_ms = query.date_from if query.date_from is not None else end_ms - days * 86_400_000
    start_day = datetime.fromtimestamp(start_ms / 1000, UTC).date()
    end_day = datetime.fromtimestamp((end_ms - 1) / 1000, UTC).date()
    if (end_day - start_day).days > 365:  # a chart of more than a year of days is unreadable
        start_day = end_day - timedelta(days=365)
        start_ms = int(
            datetime(start_day.year, start_day.month, start_day.day, tzinfo=UTC).timestamp() * 1000
        )
    bounded = replace(query, date_from=start_ms, date_to=end_ms, after=None)
    c = feedback.c
    rows = conn.execute(select(c.created_ms, c.source, c.helpful).where(*_conditions(project_id, bounded)))
    day_list = [start_day + timedelta(days=i) for i in range((end_day - start_day).days + 1)]
    counts = {d.isoformat(): dict.fromkeys(fb.SOURCES, 0) for d in day_list}
    helpful = {"helpful": 0, "notHelpful": 0}
    for created, source, is_helpful in rows:
        day = datetime.fromtimestamp(created / 1000, UTC).date().isoformat()
        if day in counts:
            counts[day][source] += 1
        if is_helpful is True:
            helpful["helpful"] += 1
        elif is_helpful is False:
            helpful["notHelpful"] += 1
    return {"days": [{"day": d, **n} for d, n in counts.items()], **helpful}


def _midnight_after(ms: int) -> int:
    day = datetime.fromtimestamp(ms / 1000, UTC).date() + timedelta(days=1)
    return int(datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp() * 1000)


def csv_cell(value: object) -> str:
    """Render one CSV cell; text a spreadsheet would run as a formula gets a leading quote."""
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def export_rows(conn: Connection, project_id: str, query: fb.ListQuery, secret: str) -> Iterator[dict]:
    """Yield every entry of the filter, newest first, walking the keyset pages."""
    page_query = replace(query, limit=fb.MAX_LIMIT, after=None)
    while True:
        page = fb.list_page(conn, project_id, page_query, secret)
        yield from page["feedback"]
        if not page["hasMore"]:
            return
        last = page["feedback"][-1]
        at = fb.parse_time(last["createdAt"], "createdAt")
        page_query = replace(page_query, after=(at, last["id"]))


def export_csv(conn: Connection, project_id: str, query: fb.ListQuery, secret: str) -> str:
    """Return the filter's entries as CSV (RFC 4180, a header row, formula-safe cells)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for entry in export_rows(conn, project_id, query, secret):
        writer.writerow([csv_cell(entry.get(name)) for name in CSV_COLUMNS])
    return out.getvalue()


def keys_with_use(conn: Connection, project_id: str) -> list[dict]:
    """List a project's keys, newest first, with their creation, last use and revocation times (ms)."""
    uses = dict(conn.execute(select(api_key_uses.c.key_id, api_key_uses.c.last_used_ms)).all())
    rows = [
        {
            "id": k.id,
            "created_ms": k.created_ms,
            "revoked_ms": k.revoked_ms,
            "last_used_ms": uses.get(k.id),
        }
        for k in list_keys(conn, project_id)
    ]
    return sorted(rows, key=lambda r: r["created_ms"], reverse=True)


def deployment_history(conn: Connection, project_id: str, limit: int = 30) -> list[dict]:
    """Return a project's latest deployments, newest first, with their summary and located errors."""
    d = deployments.c
    rows = conn.execute(
        select(deployments).where(d.project_id == project_id).order_by(d.created_ms.desc(), d.id).limit(limit)
    ).all()
    result = []
    for row in rows:
        details = json.loads(row.log or "{}")
        result.append(
            {
                "id": row.id,
                "status": row.status,
                "created_ms": row.created_ms,
                "started_ms": row.started_ms,
                "finished_ms": row.finished_ms,
                "summary": row.summary,
                "errors": details.get("errors", []),
                "warnings": details.get("warnings", []),
            }
        )
    return result
