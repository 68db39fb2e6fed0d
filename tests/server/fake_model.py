"""A stand-in for an OpenAI-compatible model server on 127.0.0.1: scripted chat completions, streamed (SSE) or
not, errors and broken streams; it records every request it gets."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from docsgen.server.testing import LiveServer


@dataclass
class Script:
    """What the next completions answer: ("stream", [chunks]), ("json", text), ("error", status), ("cut", [chunks])."""

    replies: list[tuple[str, object]] = field(default_factory=list)
    requests: list[dict] = field(default_factory=list)
    default: tuple[str, object] = ("stream", ["Default answer."])


def _chunk(text: str) -> bytes:
    data = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {"content": text}}],
    }
    return f"data: {json.dumps(data)}\n\n".encode()


def app_for(script: Script) -> Starlette:
    async def completions(request: Request) -> Response:
        body = await request.json()
        script.requests.append({"headers": dict(request.headers), "body": body})
        kind, value = script.replies.pop(0) if script.replies else script.default
        if kind == "error":
            return JSONResponse({"error": {"message": "model overloaded"}}, status_code=int(value))  # type: ignore[arg-type]
        if kind == "json":
            return JSONResponse(
                {"choices": [{"index": 0, "message": {"role": "assistant", "content": value}}]}
            )

        async def stream():
            for piece in value:  # type: ignore[union-attr]
                yield _chunk(piece)
                await asyncio.sleep(0.01)
            if kind == "cut":
                raise RuntimeError("connection lost")  # the response ends without [DONE]
            yield b"data: [DONE]\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


@contextmanager
def fake_model() -> Iterator[tuple[str, Script]]:
    """Run the stand-in; yield (its API base URL, the script)."""
    script = Script()
    with LiveServer(app_for(script)) as live:
        yield f"{live.url}/v1", script
