"""Remember when each admin key was last used (API calls and dashboard sign-ins), for the API keys page."""

from __future__ import annotations

import threading
import time

from sqlalchemy import Engine, insert, update
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from docsgen.server.db import api_key_uses, now_ms
from docsgen.server.keys import authenticate, key_id

WRITE_EVERY = 30.0  # seconds: a busy key updates its row at most this often
_recent: dict[str, float] = {}
_lock = threading.Lock()


def record_key_use(engine: Engine, key_id: str, force: bool = False) -> None:
    """Store now as the key's last use (throttled per key, so API bursts do not write on every call)."""
    moment = time.monotonic()
    with _lock:
        if not force and moment - _recent.get(key_id, -WRITE_EVERY) < WRITE_EVERY:
            return
        _recent[key_id] = moment
    at = now_ms()
    with engine.begin() as conn:
        result = conn.execute(
            update(api_key_uses).where(api_key_uses.c.key_id == key_id).values(last_used_ms=at)
        )
        if result.rowcount:
            return
    try:
        with engine.begin() as conn:
            conn.execute(insert(api_key_uses).values(key_id=key_id, last_used_ms=at))
    except IntegrityError:  # another request inserted it first: its time is as good as ours
        pass


class KeyUseRecorder:
    """ASGI middleware: after an API request with a valid Bearer key, record the key's use."""

    def __init__(self, app, engine: Engine):
        self.app = app
        self.engine = engine

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not scope["path"].startswith("/v1/"):
            return await self.app(scope, receive, send)
        token = ""
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                scheme, _, rest = value.decode("latin-1").partition(" ")
                token = rest.strip() if scheme.lower() == "bearer" else ""
        status = 0

        async def watch(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                if status != 401:  # before the answer leaves: a client that then opens the keys page sees it
                    await run_in_threadpool(self._record, token)
            await send(message)

        await self.app(scope, receive, watch if token else send)

    def _record(self, token: str) -> None:
        with _lock:  # recorded moments ago: skip the extra key check as well as the write
            if time.monotonic() - _recent.get(key_id(token), -WRITE_EVERY) < WRITE_EVERY:
                return
        with self.engine.connect() as conn:
            info = authenticate(conn, token)
        if info is not None:
            record_key_use(self.engine, info.id)
