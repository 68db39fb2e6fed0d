"""Routes of the assistant: the public question and rating endpoints (streamed answers) and the admin listings."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from docsgen.server import assistant as asst
from docsgen.server.apierror import ApiError
from docsgen.server.events import parse_body
from docsgen.server.model import ModelConfig, ModelError, stream_chat
from docsgen.server.projects import get_project
from docsgen.server.ratelimit import RateLimiter, retry_after_header
from docsgen.server.retrieval import Retriever

log = logging.getLogger("docsgen.server")
MAX_BODY = 16 * 1024


@dataclass(frozen=True)
class AssistantOptions:
    """`docsgen server run` settings: the model (None: answer with passages), questions per client a minute."""

    model: ModelConfig | None = None
    rate: int = 20


def _event(name: str, data: dict) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


class Assistant:
    def __init__(self, server, options: AssistantOptions):
        self.server = server
        self.options = options
        self.retriever = Retriever()
        self.limiter = RateLimiter(options.rate)

    async def _project(self, request: Request):
        project = await self.server.db(get_project, request.path_params["projectId"])
        if project is None:
            raise ApiError(404, "not_found", "no such project", "projectId")
        origin = request.headers.get("origin")
        cors = self.server.cors_headers(project, origin)
        if origin is not None and not cors:
            raise ApiError(
                403, "origin_not_allowed", f"origin {origin!r} may not use this project's assistant"
            )
        return project, origin, cors

    async def _body(self, request: Request) -> object:
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media not in ("text/plain", "application/json"):
            raise ApiError(415, "unsupported_media_type", "send the question as JSON")
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise ApiError(413, "payload_too_large", f"the body is larger than {MAX_BODY} bytes")
        return parse_body(bytes(raw))

    async def ask(self, request: Request) -> Response:
        """POST /v1/assistant/{projectId}/messages: answer a question from the site's pages, streamed (SSE)."""
        cors: dict[str, str] = {}
        try:
            project, origin, cors = await self._project(request)
            wait = self.limiter.check(self.server.client_id(request))
            if wait:
                raise ApiError(
                    429, "rate_limited", "too many questions; retry later", headers=retry_after_header(wait)
                )
            q = asst.validate_question(await self._body(request))
            index = await run_in_threadpool(self.retriever.index, project.id, project.out_dir)
            passages = (
                await run_in_threadpool(index.search, q["question"], 6, 2, q["path"] or "") if index else []
            )
            caller = "web" if origin else "api"
            thread, question_id, history = await self.server.db(
                asst.start_turn, project.id, q, caller, origin, write=True
            )
        except ApiError as exc:
            return exc.response(cors)
        stream = self._answer(project.id, q["question"], thread, question_id, history, passages)
        headers = {**cors, "X-Accel-Buffering": "no"}
        return StreamingResponse(stream, media_type="text/event-stream", headers=headers)

    async def _answer(
        self, project_id, question, thread, question_id, history, passages
    ) -> AsyncIterator[bytes]:
        sources = asst.sources_of(passages)
        yield _event("sources", {"threadId": thread, "sources": sources})
        text = ""
        model = self.options.model
        if not passages:
            text = asst.NOT_FOUND
            yield _event("delta", {"text": text})
        elif model is None:
            text = asst.passages_answer(passages)
            yield _event("delta", {"text": text})
        else:
            try:
                async for piece in stream_chat(model, asst.prompt(question, passages, history)):
                    text += piece
                    yield _event("delta", {"text": piece})
            except ModelError as exc:
                log.warning("assistant model failed: %s", exc)
                if text:
                    note = "\n\n*(The answer was cut off: the model failed. The pages below may help.)*"
                else:
                    note = asst.passages_answer(
                        passages, "*The model is unavailable; here is what the pages say.*"
                    )
                text += note
                yield _event("delta", {"text": note})
            if not text.strip():
                text = asst.passages_answer(passages)
                yield _event("delta", {"text": text})
        answered = bool(passages)
        answer_id = await self.server.db(
            asst.finish_turn, project_id, thread, question_id, text, sources, answered, write=True
        )
        yield _event("done", {"threadId": thread, "messageId": answer_id, "answered": answered})

    async def rate(self, request: Request) -> Response:
        """POST /v1/assistant/{projectId}/ratings: a reader rates an answer; it joins the feedback list."""
        cors: dict[str, str] = {}
        try:
            project, _, cors = await self._project(request)
            wait = self.limiter.check(self.server.client_id(request))
            if wait:
                raise ApiError(
                    429, "rate_limited", "too many requests; retry later", headers=retry_after_header(wait)
                )
            entry = await self.server.db(asst.rate_answer, project.id, await self._body(request), write=True)
        except ApiError as exc:
            return exc.response(cors)
        return JSONResponse(entry, status_code=201, headers=cors)

    async def preflight(self, request: Request) -> Response:
        project = await self.server.db(get_project, request.path_params["projectId"])
        cors = self.server.cors_headers(project, request.headers.get("origin")) if project else {}
        if not cors:
            raise ApiError(403, "origin_not_allowed", "this origin may not use this project's assistant")
        headers = {
            **cors,
            "Access-Control-Allow-Methods": "POST",
            "Access-Control-Allow-Headers": "Content-Type",
        }
        return Response(status_code=204, headers={**headers, "Access-Control-Max-Age": "600"})

    def admin(self, fn: Callable[..., Any]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            project_id = request.path_params["projectId"]
            await self.server.authorize(request, project_id)
            if "threadId" in request.path_params:
                return JSONResponse(await self.server.db(fn, project_id, request.path_params["threadId"]))
            return JSONResponse(
                await self.server.db(fn, project_id, list(request.query_params.multi_items()))
            )

        return endpoint


def mount_assistant(app: Starlette, server, options: AssistantOptions) -> Assistant:
    """Add the assistant's public and admin routes (before the feedback routes they could be confused with)."""
    a = Assistant(server, options)
    routes = [
        Route("/v1/assistant/{projectId}/messages", a.ask, methods=["POST"]),
        Route("/v1/assistant/{projectId}/messages", a.preflight, methods=["OPTIONS"]),
        Route("/v1/assistant/{projectId}/ratings", a.rate, methods=["POST"]),
        Route("/v1/assistant/{projectId}/ratings", a.preflight, methods=["OPTIONS"]),
        Route("/v1/analytics/{projectId}/assistant", a.admin(asst.conversations), methods=["GET"]),
        Route(
            "/v1/analytics/{projectId}/assistant/caller-stats", a.admin(asst.caller_stats), methods=["GET"]
        ),
        Route(
            "/v1/analytics/{projectId}/assistant/threads/{threadId}", a.admin(asst.thread), methods=["GET"]
        ),
    ]
    for route in reversed(routes):
        app.router.routes.insert(0, route)
    return a
