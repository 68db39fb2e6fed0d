"""Dashboard sessions: an admin key is exchanged for a random cookie; the database keeps only its hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from docsgen.server.db import api_keys, dashboard_sessions, now_ms
from docsgen.server.keys import authenticate

COOKIE = "dg_dashboard"
SESSION_SECONDS = 8 * 3600  # a working day; the cookie and the stored session expire together
SIGNIN_FAILURES = 5  # failed sign-ins allowed per client ...
SIGNIN_WINDOW = 300.0  # ... in this many seconds


@dataclass(frozen=True)
class Session:
    """A signed-in browser: the project it may see and the key it signed in with."""

    token: str
    project_id: str
    key_id: str
    expires_ms: int

    @property
    def csrf(self) -> str:
        """The CSRF token of this session: derived from the secret cookie, so it needs no storage."""
        return hmac.new(self.token.encode(), b"dashboard-csrf", hashlib.sha256).hexdigest()

    def csrf_ok(self, submitted: str | None) -> bool:
        """Compare a submitted CSRF token in constant time."""
        return bool(submitted) and hmac.compare_digest(self.csrf.encode(), str(submitted).encode())


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def sign_in(conn: Connection, key: str) -> Session | None:
    """Exchange an active admin key for a new session, or return None for a wrong key."""
    info = authenticate(conn, key.strip())
    if info is None:
        return None
    token = secrets.token_urlsafe(32)
    created = now_ms()
    expires = created + SESSION_SECONDS * 1000
    conn.execute(delete(dashboard_sessions).where(dashboard_sessions.c.expires_ms < created))
    conn.execute(
        insert(dashboard_sessions).values(
            id_hash=_hash(token),
            project_id=info.project_id,
            key_id=info.id,
            created_ms=created,
            expires_ms=expires,
        )
    )
    return Session(token, info.project_id, info.id, expires)


def lookup(conn: Connection, token: str | None) -> Session | None:
    """Return the live session of a cookie value: unknown, expired or revoked-key sessions are None."""
    if not token or len(token) > 100:
        return None
    s, k = dashboard_sessions.c, api_keys.c
    row = conn.execute(
        select(s.project_id, s.key_id, s.expires_ms, k.revoked_ms)
        .join_from(dashboard_sessions, api_keys, k.id == s.key_id)
        .where(s.id_hash == _hash(token))
    ).first()
    if row is None or row.expires_ms <= now_ms() or row.revoked_ms is not None:
        return None
    return Session(token, row.project_id, row.key_id, row.expires_ms)


def sign_out(conn: Connection, token: str) -> None:
    """Delete a session, so its cookie stops working even if it was copied."""
    conn.execute(delete(dashboard_sessions).where(dashboard_sessions.c.id_hash == _hash(token)))


class SignInLimiter:
    """Count failed sign-ins per client; after SIGNIN_FAILURES in SIGNIN_WINDOW seconds, refuse until one ages out."""

    def __init__(
        self, failures: int = SIGNIN_FAILURES, window: float = SIGNIN_WINDOW, max_clients: int = 10_000
    ):
        self.failures = failures
        self.window = window
        self.max_clients = max_clients
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def wait(self, client: str) -> float:
        """Return 0 when `client` may try to sign in, else the seconds until it may."""
        now = time.monotonic()
        with self._lock:
            times = self._seen.get(client)
            if not times:
                return 0.0
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) < self.failures:
                return 0.0
            return times[0] + self.window - now

    def failed(self, client: str) -> None:
        """Record one failed sign-in."""
        with self._lock:
            if len(self._seen) >= self.max_clients and client not in self._seen:
                self._seen.pop(next(iter(self._seen)))
            self._seen.setdefault(client, deque(maxlen=self.failures)).append(time.monotonic())
