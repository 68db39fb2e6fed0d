"""The previews' HTTP side: the admin API under /v1/project/{projectId}/previews and the built previews served
at /previews/{projectId}/{name}/ (behind the project's sign-in rules when it has any)."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from docsgen.server.apierror import ApiError, unprocessable
from docsgen.server.previews import MAX_ARCHIVE, Previews, check_name, check_ttl, previews_dir
from docsgen.server.projects import get_project
from docsgen.server.reader_sessions import ANONYMOUS, COOKIE, reader_of, session_key
from docsgen.server.site_access import AccessCache
from docsgen.server.site_auth import load_auth
from docsgen.server.site_gate import serve_built


class PreviewRoutes:
    """Routes over one Previews manager, authorised with the server's admin keys."""

    def __init__(self, server, previews: Previews):
        self.server, self.previews = server, previews
        self.access = AccessCache()
        self._key: bytes | None = None

    async def project(self, request: Request):
        project_id = request.path_params["projectId"]
        await self.server.authorize(request, project_id)
        return await self.server.db(get_project, project_id)

    async def create(self, request: Request) -> Response:
        """POST /v1/project/{projectId}/previews {"name", "ref", "ttlHours"}: build a git reference."""
        project = await self.project(request)
        body = await self.server.read_json(request)
        if not isinstance(body, dict) or set(body) - {"name", "ref", "ttlHours"}:
            raise unprocessable("the body is a JSON object with name, ref and an optional ttlHours")
        name, ref = body.get("name"), body.get("ref")
        if not isinstance(name, str):
            raise unprocessable("name is required", "name")
        if not isinstance(ref, str):
            raise unprocessable("ref is required: a branch, tag, commit or refs/pull/N/head", "ref")
        ttl = check_ttl(body.get("ttlHours"))
        preview = await run_in_threadpool(self.previews.start, project, check_name(name), ttl, ref=ref)
        return self._accepted(request, preview)

    async def upload(self, request: Request) -> Response:
        """PUT /v1/project/{projectId}/previews/{name}/archive?ttlHours=: build a posted tar(.gz) of the docs."""
        project = await self.project(request)
        name = check_name(request.path_params["name"])
        ttl_text = request.query_params.get("ttlHours")
        try:
            ttl = check_ttl(float(ttl_text) if ttl_text is not None else None)
        except ValueError:
            raise unprocessable("ttlHours is a number", "ttlHours") from None
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > MAX_ARCHIVE:
            raise ApiError(413, "payload_too_large", f"the archive is larger than {MAX_ARCHIVE} bytes")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_ARCHIVE:
                raise ApiError(413, "payload_too_large", f"the archive is larger than {MAX_ARCHIVE} bytes")
        preview = await run_in_threadpool(self.previews.start, project, name, ttl, archive=bytes(body))
        return self._accepted(request, preview)

    def _accepted(self, request: Request, preview: dict) -> Response:
        preview = {**preview, "url": str(request.base_url).rstrip("/") + preview["path"]}
        location = f"/v1/project/{preview['projectId']}/previews/{preview['name']}"
        return JSONResponse(preview, status_code=202, headers={"Location": location})

    async def listing(self, request: Request) -> Response:
        project = await self.project(request)
        return JSONResponse({"previews": await run_in_threadpool(self.previews.all, project)})

    async def one(self, request: Request) -> Response:
        project = await self.project(request)
        return JSONResponse(await run_in_threadpool(self.previews.get, project, request.path_params["name"]))

    async def remove(self, request: Request) -> Response:
        project = await self.project(request)
        await run_in_threadpool(self.previews.delete, project, request.path_params["name"])
        return Response(status_code=204)

    async def serve(self, request: Request) -> Response:
        """GET /previews/{projectId}/{name}/{path}: a file of a ready preview."""
        project_id, name = request.path_params["projectId"], request.path_params["name"]
        project = await self.server.db(get_project, project_id)
        if project is None or not project.out_dir or not _is_name(name):
            return Response("no such preview", status_code=404)
        await run_in_threadpool(self.previews.expire, project)
        root = previews_dir(Path(project.out_dir)) / name
        if not root.is_symlink():
            return Response("no such preview (expired or not built yet)", status_code=404)
        config = await self.server.db(load_auth, project_id)
        reader = ANONYMOUS
        if config is not None:
            if self._key is None:
                self._key = await run_in_threadpool(session_key, self.server.engine)
            reader = reader_of(self._key, request.cookies.get(COOKIE))
        prefix = f"/previews/{project_id}/{name}"
        return await serve_built(
            request, root, request.path_params["path"], config, reader, self.access, prefix
        )


def _is_name(name: str) -> bool:
    try:
        check_name(name)
    except ApiError:
        return False
    return True


def mount_previews(app: Starlette, server, previews: Previews) -> None:
    """Add the preview API and the served previews to the server app."""
    routes = PreviewRoutes(server, previews)
    base = "/v1/project/{projectId}/previews"
    app.router.routes[0:0] = [
        Route(base, routes.create, methods=["POST"]),
        Route(base, routes.listing, methods=["GET"]),
        Route(base + "/{name}", routes.one, methods=["GET"]),
        Route(base + "/{name}", routes.remove, methods=["DELETE"]),
        Route(base + "/{name}/archive", routes.upload, methods=["PUT", "POST"]),
        Route(
            "/previews/{projectId}/{name}",
            lambda r: RedirectResponse(r.url.path + "/", status_code=301),
            methods=["GET", "HEAD"],
        ),
        Route("/previews/{projectId}/{name}/{path:path}", routes.serve, methods=["GET", "HEAD"]),
    ]
