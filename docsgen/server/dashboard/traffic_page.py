"""The dashboard's Traffic page: views and visitors over time, top pages, referrers, searches, content gaps
(searches that found nothing), 404s, and CSV exports of each table."""

from __future__ import annotations

import csv
import io
import math
from datetime import UTC, datetime
from html import escape
from urllib.parse import urlencode

from markupsafe import Markup
from sqlalchemy.engine import Connection
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from docsgen.server import traffic
from docsgen.server.apierror import ApiError
from docsgen.server.dashboard.reports import csv_cell

TOP = 25
EXPORTS = {
    "pages": (
        "path",
        "views_human",
        "views_ai",
        "views_total",
        "visitors_human",
        "visitors_ai",
        "visitors_total",
    ),
    "days": ("day", "views", "visitors"),
    "searches": ("query", "hits", "ctr", "top_clicked_page", "last_searched_at"),
    "gaps": ("query", "hits"),
    "referrers": ("referrer", "views"),
    "notfound": ("path", "count"),
}


def dates_of(request: Request) -> dict[str, str]:
    """The date fields of the Traffic form (empty ones left out)."""
    return {
        k: request.query_params.get(k, "").strip()
        for k in ("dateFrom", "dateTo")
        if request.query_params.get(k)
    }


def overview(conn: Connection, project_id: str, r: traffic.Range, secret: str) -> dict:
    """Every table of the page for one date range."""
    wide = traffic.Range(r.date_from, r.date_to, 250, 0)
    views = traffic.views(conn, project_id, wide)
    visitors = traffic.visitors(conn, project_id, wide)
    per_path = {row["path"]: row for row in visitors["visitors"]}
    pages = [
        {**row, "visitors": per_path.get(row["path"], {"human": 0, "ai": 0, "total": 0})}
        for row in views["views"]
    ]
    return {
        "views": views["totals"],
        "visitors": visitors["totals"],
        "pages": pages,
        "days": traffic.daily(conn, project_id, r),
        "searches": traffic.searches(conn, project_id, traffic.Range(r.date_from, r.date_to, TOP, 0), secret),
        "gaps": traffic.content_gaps(conn, project_id, traffic.Range(r.date_from, r.date_to, TOP, 0)),
        "referrers": traffic.top(conn, project_id, traffic.Range(r.date_from, r.date_to, TOP, 0), "referrer"),
        "notfound": traffic.top(
            conn, project_id, traffic.Range(r.date_from, r.date_to, TOP, 0), "path", "notfound"
        ),
    }


def days_chart(days: list[dict]) -> Markup:
    """Bars of views per UTC day with the visitors as a line, axis and per-day titles (inline SVG)."""
    width, height, left, bottom, top = 640, 220, 40, 28, 12
    plot_w, plot_h = width - left - 8, height - bottom - top
    peak = max([d["views"] for d in days] + [1])
    power = 10 ** math.floor(math.log10(peak))
    y_max = next(step * power for step in (1, 2, 5, 10) if peak <= step * power)
    slot = plot_w / max(len(days), 1)
    total = sum(d["views"] for d in days)
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-traffic-t '
        'chart-traffic-d" xmlns="http://www.w3.org/2000/svg"><title id="chart-traffic-t">Views and visitors per day'
        f'</title><desc id="chart-traffic-d">{total} views; the table below lists the numbers.</desc>'
    ]
    for i in range(6):
        y = top + plot_h - plot_h * i / 5
        parts.append(f'<line x1="{left}" x2="{width - 8}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>')
        parts.append(
            f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" class="axis">{y_max * i // 5}</text>'
        )
    points = []
    label_every = max(1, math.ceil(len(days) / 8))
    for i, d in enumerate(days):
        x = left + i * slot + slot * 0.125
        h = plot_h * d["views"] / y_max
        tip = f"{d['day']}: {d['views']} views, {d['visitors']} visitors"
        parts.append(
            f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{max(1.0, slot * 0.75):.1f}" height="{h:.1f}"'
            f' class="views" data-count="{d["views"]}"><title>{escape(tip)}</title></rect>'
        )
        points.append(f"{x + slot * 0.375:.1f},{top + plot_h - plot_h * d['visitors'] / y_max:.1f}")
        if i % label_every == 0:
            parts.append(
                f'<text x="{x + slot * 0.375:.1f}" y="{height - 10}" text-anchor="middle" class="axis">'
                f"{escape(d['day'][5:])}</text>"
            )
    parts.append(f'<polyline points="{" ".join(points)}" class="visitors" fill="none"/></svg>')
    return Markup("".join(parts))


def export_rows(data: dict, report: str) -> list[list]:
    if report == "pages":
        return [
            [
                p["path"],
                p["human"],
                p["ai"],
                p["total"],
                p["visitors"]["human"],
                p["visitors"]["ai"],
                p["visitors"]["total"],
            ]
            for p in data["pages"]
        ]
    if report == "days":
        return [[d["day"], d["views"], d["visitors"]] for d in data["days"]]
    if report == "searches":
        return [
            [s["searchQuery"], s["hits"], s["ctr"], s["topClickedPage"], s["lastSearchedAt"]]
            for s in data["searches"]["searches"]
        ]
    if report == "gaps":
        return [[g["query"], g["hits"]] for g in data["gaps"]]
    return [[row["value"], row["count"]] for row in data[report]]


class TrafficPage:
    """GET /dashboard/traffic and /dashboard/traffic/export.csv for a Dashboard."""

    def __init__(self, dashboard):
        self.d = dashboard

    async def _data(self, request: Request, project_id: str) -> tuple[dict, dict[str, str], str]:
        dates = dates_of(request)
        error = ""
        try:
            r = traffic.parse_range(list(dates.items()), 250, 250)
        except ApiError as exc:
            error, dates = exc.message, {}
            r = traffic.Range(None, None, 250, 0)
        data = await self.d.server.db(overview, project_id, r, self.d.server.secret)
        return data, dates, error

    async def page(self, request: Request, session) -> Response:
        data, dates, error = await self._data(request, session.project_id)
        return self.d.page(
            request,
            "traffic.html",
            session,
            data=data,
            dates=dates,
            query_string=urlencode(dates),
            chart=days_chart(data["days"]),
            error=error,
            status=400 if error else 200,
        )

    async def export(self, request: Request, session) -> Response:
        report = request.query_params.get("report", "pages")
        if report not in EXPORTS:
            return PlainTextResponse(f"report must be one of {', '.join(EXPORTS)}", status_code=400)
        data, dates, error = await self._data(request, session.project_id)
        if error:
            return PlainTextResponse(error, status_code=400)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(EXPORTS[report])
        for row in export_rows(data, report):
            writer.writerow([csv_cell(v) for v in row])
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        disposition = f'attachment; filename="{report}-{session.project_id}-{stamp}.csv"'
        return Response(
            out.getvalue().encode("utf-8"),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": disposition},
        )
