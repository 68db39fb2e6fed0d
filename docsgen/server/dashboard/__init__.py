"""The project dashboard of the feedback server: sign in with an admin key, triage feedback, keys, deployments."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from docsgen.server.dashboard import reports
from docsgen.server.dashboard.keyuse import KeyUseRecorder
from docsgen.server.dashboard.traffic_page import TrafficPage
from docsgen.server.dashboard.views import Dashboard, Forbidden
from docsgen.server.dashboard.web import HERE, PYGMENTS_CSS, render

__all__ = ["dashboard_app", "mount_dashboard"]
Handler = Callable[[Request], Awaitable[Response]]


def _signed_in(dashboard: Dashboard, handler: Callable[..., Awaitable[Response]]) -> Handler:
    """Wrap a handler so it runs only with a live session: pages redirect to sign-in, posts get 401."""

    async def endpoint(request: Request) -> Response:
        session = await dashboard.session(request)
        if session is None:
            if request.method in ("GET", "HEAD"):
                return RedirectResponse(f"{dashboard.prefix}/signin", status_code=303)
            return render(
                dashboard.env,
                "error.html",
                status=401,
                session=None,
                path="",
                message="Please sign in first.",
            )
        try:
            return await handler(request, session)
        except Forbidden:
            message = "This form is out of date or came from another site. Reload the page and try again."
            return render(dashboard.env, "error.html", status=403, session=session, path="", message=message)

    return endpoint


def dashboard_app(server, prefix: str = "/dashboard") -> Starlette:
    """Build the dashboard's ASGI app for a FeedbackServer; mount it at `prefix`."""
    d = Dashboard(server, prefix)
    t = TrafficPage(d)

    async def pygments_css(request: Request) -> Response:
        return Response(PYGMENTS_CSS, media_type="text/css")

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        message = "No such page." if status == 404 else "The request failed."
        return render(d.env, "error.html", status=status, session=None, path="", message=message)

    routes = [
        Route("/", d.home, methods=["GET"]),
        Route("/signin", d.signin_form, methods=["GET"]),
        Route("/signin", d.signin, methods=["POST"]),
        Route("/signout", d.signout, methods=["POST"]),
        Route("/feedback", _signed_in(d, d.feedback), methods=["GET"]),
        Route("/feedback/status", _signed_in(d, d.change_status), methods=["POST"]),
        Route("/feedback/export.csv", _signed_in(d, d.export), methods=["GET"]),
        Route("/traffic", _signed_in(d, t.page), methods=["GET"]),
        Route("/traffic/export.csv", _signed_in(d, t.export), methods=["GET"]),
        Route("/keys", _signed_in(d, d.keys), methods=["GET"]),
        Route("/keys", _signed_in(d, d.create_key), methods=["POST"]),
        Route("/keys/{id}/revoke", _signed_in(d, d.revoke_key), methods=["POST"]),
        Route("/deployments", _signed_in(d, d.deployments), methods=["GET"]),
        Route("/deployments", _signed_in(d, d.deploy), methods=["POST"]),
        Route("/deployments/{id}", _signed_in(d, d.deployment), methods=["GET"]),
        Route("/static/pygments.css", pygments_css, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=HERE / "static")),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: not_found})


def by_page_endpoint(server) -> Handler:
    """GET /v1/analytics/{projectId}/feedback/by-page: the per-page summary, with the listing API's auth."""

    async def endpoint(request: Request) -> Response:
        project_id = request.path_params["projectId"]
        await server.authorize(request, project_id)
        query = reports.parse_filters(list(request.query_params.multi_items()), server.secret, project_id)
        return JSONResponse(await server.db(reports.by_page_response, project_id, query, server.secret))

    return endpoint


def mount_dashboard(app: Starlette, server, prefix: str = "/dashboard") -> None:
    """Add the dashboard, the by-page API route (before /feedback/{id}) and key-use tracking to the server app."""
    app.router.routes.insert(
        0, Route("/v1/analytics/{projectId}/feedback/by-page", by_page_endpoint(server), methods=["GET"])
    )
    app.router.routes.append(Route(prefix, lambda request: RedirectResponse(prefix + "/", status_code=307)))
    app.router.routes.append(Mount(prefix, app=dashboard_app(server, prefix)))
    app.add_middleware(KeyUseRecorder, engine=server.engine)
