"""The feedback server's HTTP API (Starlette): public collection, admin listing, status changes, deployments."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from docsgen.server import feedback as fb
from docsgen.server import idempotency as idem
from docsgen.server.analytics_api import AnalyticsOptions, mount_analytics
from docsgen.server.apierror import ApiError, bad_request, unprocessable
from docsgen.server.assistant_api import AssistantOptions, mount_assistant
from docsgen.server.dashboard import mount_dashboard
from docsgen.server.db import get_setting, open_database
from docsgen.server.deployments import BuildFn, Deployer
from docsgen.server.isolated_build import BuildLimits
from docsgen.server.keys import KeyInfo, authenticate
from docsgen.server.limits import DEFAULT_MAX_BODY, DEFAULT_RATE_LIMIT
from docsgen.server.preview_routes import mount_previews
from docsgen.server.previews import Previews
from docsgen.server.projects import get_project, normalize_origin, origins_of
from docsgen.server.ratelimit import RateLimiter, retry_after_header

log = logging.getLogger("docsgen.server")
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"cache-control", b"no-store")]


class FeedbackServer:
    """The state behind the routes: database, cursor secret, rate limiter, deployer."""

    def __init__(
        self,
        engine: Engine,
        rate_limit: int,
        max_body: int,
        build_fn: BuildFn | None,
        build_limits: BuildLimits | None = None,
    ):
        self.engine = engine
        with engine.connect() as conn:
            self.secret = get_setting(conn, "cursor_secret") or ""
        self.limiter = RateLimiter(rate_limit)
        self.max_body = max_body
        self.deployer = Deployer(engine, build_fn, build_limits)
        self.deployer.recover()
        self.previews = Previews(build_fn, build_limits)

    async def db(self, fn: Callable[..., Any], *args: Any, write: bool = False) -> Any:
        """Run `fn(conn, *args)` on a pooled connection in a worker thread (in one transaction when writing)."""

        def call() -> Any:
            if write:
                with self.engine.begin() as conn:
                    return fn(conn, *args)
            with self.engine.connect() as conn:
                return fn(conn, *args)

        return await run_in_threadpool(call)

    async def read_json(self, request: Request, optional: bool = False) -> Any:
        """Read a JSON body: 415 for another media type, 413 above the size limit, 400 when it does not parse."""
        length = request.headers.get("content-length")
        if optional and (length == "0" or (length is None and "content-type" not in request.headers)):
            return None
        media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media_type != "application/json":
            raise ApiError(415, "unsupported_media_type", "send the body as application/json")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            raise ApiError(413, "payload_too_large", f"the body is larger than {self.max_body} bytes")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.max_body:
                raise ApiError(413, "payload_too_large", f"the body is larger than {self.max_body} bytes")
        try:
            value = json.loads(body.decode("utf-8"))
            # a `\ud800` escape decodes to a lone surrogate, which no database or page can store
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:  # before ValueError, its base
            message = "the body is not valid JSON: a \\u escape names a lone surrogate, not a character"
            raise bad_request(message, code="invalid_json") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise bad_request(f"the body is not valid JSON: {exc}", code="invalid_json") from None
        except RecursionError:
            raise bad_request("the body is not valid JSON: nested too deeply", code="invalid_json") from None
        return value

    async def authorize(self, request: Request, project_id: str) -> KeyInfo:
        """Check `Authorization: Bearer dg_...`: 401 when missing, malformed, unknown or revoked; 403 for another project."""
        challenge = {"WWW-Authenticate": 'Bearer realm="docsgen"'}
        header = request.headers.get("authorization")
        if not header:
            raise ApiError(
                401, "unauthorized", "send an admin key: Authorization: Bearer <key>", headers=challenge
            )
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(
                401, "unauthorized", "the Authorization header must be 'Bearer <key>'", headers=challenge
            )
        info = await self.db(authenticate, token.strip())
        if info is None:
            raise ApiError(
                401, "unauthorized", "the admin key is malformed, unknown or revoked", headers=challenge
            )
        if info.project_id != project_id:
            raise ApiError(403, "forbidden", "this admin key belongs to another project")
        return info

    def cors_headers(self, project, origin: str | None) -> dict[str, str]:
        """Return the CORS headers for an allowed origin, or {} (the browser then refuses the response)."""
        if origin is None:
            return {}
        try:
            allowed = normalize_origin(origin) in origins_of(project)
        except ValueError:
            allowed = False
        return {"Access-Control-Allow-Origin": origin, "Vary": "Origin"} if allowed else {}

    def client_id(self, request: Request) -> str:
        """Identify the client for rate limits: the peer address, or X-Forwarded-For from a trusted proxy only."""
        return request.client.host if request.client else "unknown"

    # Routes -----------------------------------------------------------------------------------------------

    async def collect(self, request: Request) -> Response:
        """POST /v1/feedback/{projectId}: store one reader's feedback as pending."""
        project_id = request.path_params["projectId"]
        project = await self.db(get_project, project_id)
        if project is None:
            raise ApiError(404, "not_found", f"no project {project_id!r}", "projectId")
        origin = request.headers.get("origin")
        cors = self.cors_headers(project, origin)
        try:
            if origin is not None and not cors:
                raise ApiError(
                    403, "origin_not_allowed", f"origin {origin!r} may not post feedback to this project"
                )
            wait = self.limiter.check(self.client_id(request))
            if wait:
                raise ApiError(
                    429,
                    "rate_limited",
                    "too much feedback from this client; retry later",
                    headers=retry_after_header(wait),
                )
            key = idem.parse_key(request.headers.get(idem.HEADER))
            body = await self.read_json(request)
            values = fb.validate_submission(body)
            headers = dict(cors)
            if key is None:
                entry = await self.db(fb.store, project_id, values, write=True)
            else:
                digest = idem.body_hash(body)
                entry, replayed = await run_in_threadpool(
                    idem.store_once, self.engine, project_id, values, key, digest
                )
                headers[idem.REPLAYED_HEADER] = "true" if replayed else "false"
                if cors:
                    headers["Access-Control-Expose-Headers"] = idem.REPLAYED_HEADER
        except ApiError as exc:
            return exc.response(cors)
        return JSONResponse(entry, status_code=201, headers=headers)

    async def preflight(self, request: Request) -> Response:
        """OPTIONS /v1/feedback/{projectId}: CORS preflight, answered only for the project's origins."""
        project_id = request.path_params["projectId"]
        project = await self.db(get_project, project_id)
        if project is None:
            raise ApiError(404, "not_found", f"no project {project_id!r}", "projectId")
        cors = self.cors_headers(project, request.headers.get("origin"))
        if not cors:
            raise ApiError(403, "origin_not_allowed", "this origin may not post feedback to this project")
        headers = {
            **cors,
            "Access-Control-Allow-Methods": "POST",
            "Access-Control-Allow-Headers": f"Content-Type, {idem.HEADER}",
            "Access-Control-Max-Age": "600",
        }
        return Response(status_code=204, headers=headers)

    async def list_feedback(self, request: Request) -> Response:
        """GET /v1/analytics/{projectId}/feedback: one page of entries, newest first."""
        project_id = request.path_params["projectId"]
        await self.authorize(request, project_id)
        query = fb.parse_list_query(list(request.query_params.multi_items()), self.secret, project_id)
        return JSONResponse(await self.db(fb.list_page, project_id, query, self.secret))

    async def get_feedback(self, request: Request) -> Response:
        """GET /v1/analytics/{projectId}/feedback/{id}: one entry with its status history."""
        project_id = request.path_params["projectId"]
        await self.authorize(request, project_id)
        return JSONResponse(await self.db(fb.get_entry, project_id, request.path_params["id"]))

    async def patch_feedback(self, request: Request) -> Response:
        """PATCH /v1/analytics/{projectId}/feedback/{id}: change the status along an allowed transition."""
        project_id = request.path_params["projectId"]
        key = await self.authorize(request, project_id)
        body = await self.read_json(request)
        entry = await self.db(
            fb.change_status, project_id, request.path_params["id"], body, key.id, write=True
        )
        return JSONResponse(entry)

    async def start_deployment(self, request: Request) -> Response:
        """POST /v1/project/{projectId}/deployments: rebuild the docs in the background; 202 with the deployment."""
        project_id = request.path_params["projectId"]
        await self.authorize(request, project_id)
        body = await self.read_json(request, optional=True)
        body = {} if body is None else body
        if not isinstance(body, dict) or set(body) - {"strict"}:
            raise unprocessable("the body must be empty or a JSON object with an optional boolean 'strict'")
        strict = body.get("strict", False)
        if not isinstance(strict, bool):
            raise unprocessable("strict must be true or false", "strict")
        project = await self.db(get_project, project_id)
        deployment = await run_in_threadpool(self.deployer.start, project, strict)
        location = f"/v1/project/{project_id}/deployments/{deployment['id']}"
        return JSONResponse(deployment, status_code=202, headers={"Location": location})

    async def get_deployment(self, request: Request) -> Response:
        """GET /v1/project/{projectId}/deployments/{id}: queued, running, succeeded or failed, with the build log."""
        project_id = request.path_params["projectId"]
        await self.authorize(request, project_id)
        return JSONResponse(await run_in_threadpool(self.deployer.get, project_id, request.path_params["id"]))

    async def health(self, request: Request) -> Response:
        """GET /healthz: the server is up and its database answers."""
        await self.db(lambda conn: conn.exec_driver_sql("SELECT 1").scalar())
        return JSONResponse({"status": "ok"})


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return exc.response()


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    codes = {404: "not_found", 405: "method_not_allowed"}
    error = ApiError(
        exc.status_code, codes.get(exc.status_code, "http_error"), exc.detail or "request failed"
    )
    return error.response(dict(exc.headers or {}))


async def _internal_error(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return ApiError(500, "internal_error", "the server failed to answer; see its log").response()


class _SecurityHeaders:
    """Add nosniff and no-store to every response: entries hold untrusted text and must never render as HTML."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    db_url: str | None = None,
    *,
    engine: Engine | None = None,
    rate_limit: int = DEFAULT_RATE_LIMIT,
    max_body: int = DEFAULT_MAX_BODY,
    build_fn: BuildFn | None = None,
    forwarded_allow_ips: str | None = None,
    build_limits: BuildLimits | None = None,
    site_project: str | None = None,
    analytics: AnalyticsOptions | None = None,
    assistant: AssistantOptions | None = None,
) -> Starlette:
    """Build the ASGI app, creating or migrating the database first.

    `forwarded_allow_ips` (comma-separated addresses or networks, `*` for any) names the reverse proxies whose
    X-Forwarded-For and X-Forwarded-Proto are believed; by default none is, whatever uvicorn is told.
    `site_project` serves that project's published site at the root, behind its sign-in gate (site_gate).
    """
    server = FeedbackServer(engine or open_database(db_url), rate_limit, max_body, build_fn, build_limits)
    routes = [
        Route("/v1/feedback/{projectId}", server.collect, methods=["POST"]),
        Route("/v1/feedback/{projectId}", server.preflight, methods=["OPTIONS"]),
        Route("/v1/analytics/{projectId}/feedback", server.list_feedback, methods=["GET"]),
        Route("/v1/analytics/{projectId}/feedback/{id}", server.get_feedback, methods=["GET"]),
        Route("/v1/analytics/{projectId}/feedback/{id}", server.patch_feedback, methods=["PATCH"]),
        Route("/v1/project/{projectId}/deployments", server.start_deployment, methods=["POST"]),
        Route("/v1/project/{projectId}/deployments/{id}", server.get_deployment, methods=["GET"]),
        Route("/healthz", server.health, methods=["GET"]),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _internal_error},
    )
    app.state.server = server
    app.state.analytics = mount_analytics(app, server, analytics or AnalyticsOptions())
    app.state.assistant = mount_assistant(app, server, assistant or AssistantOptions())
    mount_dashboard(app, server)  # /dashboard and GET /v1/analytics/{projectId}/feedback/by-page
    mount_previews(app, server, server.previews)  # /v1/project/{projectId}/previews and /previews/...
    if site_project is not None:  # last: every path the routes above do not take is the site's
        from docsgen.server.site_gate import SiteGate

        app.router.routes.append(Mount("", app=SiteGate(server.engine, site_project)))
    app.add_middleware(_SecurityHeaders)
    if forwarded_allow_ips:  # added last, so it runs first: every route and limiter sees the real client
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=forwarded_allow_ips)
    return app
