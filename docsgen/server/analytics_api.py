"""Routes of the analytics half: the public event beacon and the admin reports (views, visitors, searches)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from docsgen.server import events, traffic
from docsgen.server.apierror import ApiError
from docsgen.server.db import now_ms
from docsgen.server.projects import get_project
from docsgen.server.ratelimit import RateLimiter, retry_after_header

MAX_BEACON_BODY = 32 * 1024
Handler = Callable[[Request], Awaitable[Response]]


@dataclass(frozen=True)
class AnalyticsOptions:
    """Settings of `docsgen server run` for analytics: retention in days (0: forever), batches per visitor a minute."""

    retention_days: int = 395
    visitor_rate: int = 120


class Analytics:
    """The analytics state of one server process: the day's salt, the group-commit writer, the visitor limiter."""

    def __init__(self, server, options: AnalyticsOptions):
        self.server = server
        self.options = options
        self.salts = events.Salts()
        self.writer = events.EventWriter(server.engine)
        self.limiter = RateLimiter(options.visitor_rate)
        self._pruned_at = 0.0

    async def _read_body(self, request: Request) -> bytes:
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media not in ("text/plain", "application/json"):
            raise ApiError(
                415, "unsupported_media_type", "send the events as JSON (text/plain or application/json)"
            )
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BEACON_BODY:
                raise ApiError(413, "payload_too_large", f"the body is larger than {MAX_BEACON_BODY} bytes")
        return bytes(body)

    def _stamp(self, conn, project_id: str, address: str, user_agent: str, at: int) -> str:
        salt = self.salts.today(conn, at)
        return events.visitor_hash(salt, project_id, address, user_agent)

    async def _maybe_prune(self) -> None:
        if time.monotonic() - self._pruned_at < 3600:
            return
        self._pruned_at = time.monotonic()
        await self.server.db(events.prune, self.options.retention_days, write=True)

    async def collect(self, request: Request) -> Response:
        """POST /v1/events/{projectId}: store a batch of page views, searches, clicks and 404s; 202 after commit."""
        project_id = request.path_params["projectId"]
        project = await self.server.db(get_project, project_id)
        if project is None:
            raise ApiError(404, "not_found", f"no project {project_id!r}", "projectId")
        origin = request.headers.get("origin")
        cors = self.server.cors_headers(project, origin)
        try:
            if origin is not None and not cors:
                raise ApiError(
                    403, "origin_not_allowed", f"origin {origin!r} may not send events to this project"
                )
            rows = events.validate_batch(events.parse_body(await self._read_body(request)))
            user_agent = request.headers.get("user-agent", "")[:512]
            traffic_kind = events.traffic_of(user_agent)
            private = request.headers.get("dnt") == "1" or request.headers.get("sec-gpc") == "1"
            if traffic_kind is None or private:
                return JSONResponse({"accepted": 0}, status_code=202, headers=cors)
            at = now_ms()
            address = self.server.client_id(request)
            salt = self.salts.cached(at)
            if salt is None:
                visitor = await self.server.db(self._stamp, project_id, address, user_agent, at, write=True)
            else:
                visitor = events.visitor_hash(salt, project_id, address, user_agent)
            wait = self.limiter.check(visitor)
            if wait:
                raise ApiError(
                    429, "rate_limited", "too many events; retry later", headers=retry_after_header(wait)
                )
            for row in rows:
                row.update(
                    project_id=project_id,
                    created_ms=at,
                    visitor=visitor,
                    traffic=traffic_kind,
                    referrer=events.referrer_host(row["referrer"], origin),
                )
            await self.writer.write(rows)
        except ApiError as exc:
            return exc.response(cors)
        await self._maybe_prune()
        return JSONResponse({"accepted": len(rows)}, status_code=202, headers=cors)

    async def preflight(self, request: Request) -> Response:
        """OPTIONS /v1/events/{projectId}: CORS preflight for the project's origins."""
        project = await self.server.db(get_project, request.path_params["projectId"])
        cors = self.server.cors_headers(project, request.headers.get("origin")) if project else {}
        if not cors:
            raise ApiError(403, "origin_not_allowed", "this origin may not send events to this project")
        headers = {
            **cors,
            "Access-Control-Allow-Methods": "POST",
            "Access-Control-Allow-Headers": "Content-Type",
        }
        return Response(status_code=204, headers={**headers, "Access-Control-Max-Age": "600"})

    def report(self, fn: Callable, max_limit: int, default_limit: int, cursor: bool = False) -> Handler:
        """An admin GET endpoint answering `fn(conn, project_id, range[, secret])`."""

        async def endpoint(request: Request) -> Response:
            project_id = request.path_params["projectId"]
            await self.server.authorize(request, project_id)
            params = list(request.query_params.multi_items())
            secret = self.server.secret if cursor else ""
            r = traffic.parse_range(params, max_limit, default_limit, secret=secret, project_id=project_id)
            extra = (self.server.secret,) if cursor else ()
            return JSONResponse(await self.server.db(fn, project_id, r, *extra))

        return endpoint


def mount_analytics(app: Starlette, server, options: AnalyticsOptions) -> Analytics:
    """Add the beacon and the traffic reports to the server app; return the state (tests use it)."""
    analytics = Analytics(server, options)
    routes = [
        Route("/v1/events/{projectId}", analytics.collect, methods=["POST"]),
        Route("/v1/events/{projectId}", analytics.preflight, methods=["OPTIONS"]),
        Route("/v1/analytics/{projectId}/views", analytics.report(traffic.views, 250, 50), methods=["GET"]),
        Route(
            "/v1/analytics/{projectId}/visitors", analytics.report(traffic.visitors, 250, 50), methods=["GET"]
        ),
        Route(
            "/v1/analytics/{projectId}/searches",
            analytics.report(traffic.searches, 100, 50, cursor=True),
            methods=["GET"],
        ),
    ]
    for route in reversed(routes):
        app.router.routes.insert(0, route)
    return analytics
