"""A client for the model endpoint the site owner configures: any server speaking OpenAI's chat completions API
(a hosted provider, Ollama, vLLM, llama.cpp's server), streamed. The key stays on the server."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx

ENV_KEY = "DOCSGEN_MODEL_API_KEY"
MAX_ANSWER = 20_000  # characters of an answer kept; the rest is cut
MAX_LINE = 1_000_000  # bytes of one streamed line


class ModelError(Exception):
    """The model endpoint failed (unreachable, an error status, a malformed answer, a timeout)."""


@dataclass(frozen=True)
class ModelConfig:
    """`docsgen server run --model-url URL --model NAME`; the key comes from $DOCSGEN_MODEL_API_KEY only."""

    url: str  # the API base, e.g. http://127.0.0.1:11434/v1 (…/chat/completions is added)
    model: str
    api_key: str = ""
    timeout: float = 60.0
    max_tokens: int = 800

    @classmethod
    def from_options(cls, url: str | None, model: str | None, timeout: float = 60.0) -> ModelConfig | None:
        if not url:
            return None
        return cls(url.rstrip("/"), model or "default", os.environ.get(ENV_KEY, ""), timeout)

    @property
    def endpoint(self) -> str:
        return self.url if self.url.endswith("/chat/completions") else self.url + "/chat/completions"


def _delta(line: str) -> str | None:
    """Return the text of one `data:` line of a streamed completion ('' for none), None at [DONE]."""
    payload = line[5:].strip()
    if payload == "[DONE]":
        return None
    try:
        data = json.loads(payload)
        choice = (data.get("choices") or [{}])[0]
        delta = choice.get("delta") or choice.get("message") or {}
        content = delta.get("content")
    except (ValueError, AttributeError, TypeError, IndexError):
        raise ModelError("the model sent a malformed stream") from None
    if isinstance(data, dict) and data.get("error"):
        raise ModelError(f"the model reported an error: {str(data['error'])[:200]}")
    return content if isinstance(content, str) else ""


async def stream_chat(config: ModelConfig, messages: list[dict]) -> AsyncIterator[str]:
    """Yield the answer's text as the model streams it (a non-streamed JSON answer is yielded at once)."""
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    body = {"model": config.model, "messages": messages, "stream": True, "max_tokens": config.max_tokens}
    sent = 0
    try:
        async with (
            httpx.AsyncClient(timeout=config.timeout, follow_redirects=False) as client,
            client.stream("POST", config.endpoint, json=body, headers=headers) as response,
        ):
            if response.status_code >= 400:
                raise ModelError(f"the model answered HTTP {response.status_code}")
            media = response.headers.get("content-type", "")
            if "application/json" in media:
                raw = bytearray()
                async for chunk in response.aiter_bytes():
                    raw += chunk
                    if len(raw) > MAX_LINE:
                        raise ModelError("the model's answer is too large")
                text = _delta("data:" + raw.decode("utf-8", "replace"))
                if text:
                    yield text[:MAX_ANSWER]
                return
            async for line in response.aiter_lines():
                if len(line) > MAX_LINE:
                    raise ModelError("the model sent an overlong line")
                if not line.startswith("data:"):
                    continue
                text = _delta(line)
                if text is None:
                    return
                if text and sent < MAX_ANSWER:
                    text = text[: MAX_ANSWER - sent]
                    sent += len(text)
                    yield text
    except httpx.HTTPError as exc:
        raise ModelError(f"the model endpoint failed: {type(exc).__name__}") from None
