"""Idempotency-Key on feedback POSTs: a client that retries after a lost reply gets the first entry, not a copy.

The key is stored with the project, a hash of the body and the entry it created, in the same transaction as the
entry, so the guarantee holds across restarts, crashes and server processes sharing a database.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading

from sqlalchemy import Engine, delete, insert, select
from sqlalchemy.exc import IntegrityError

from docsgen.server import feedback as fb
from docsgen.server.apierror import ApiError, bad_request
from docsgen.server.db import feedback, idempotency_keys, now_ms

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEY_RE = re.compile(r"[\x21-\x7e]{1,255}")  # visible ASCII, as UUIDs and the keys of common clients are
WINDOW_MS = 24 * 3600 * 1000  # a key is remembered this long after its first use
PURGE_EVERY_MS = 10 * 60 * 1000
_last_purge = [0]
_purge_lock = threading.Lock()


def parse_key(value: str | None) -> str | None:
    """Return the header's key, None without the header, or raise 400 for an unusable value."""
    if value is None:
        return None
    if not KEY_RE.fullmatch(value):
        raise bad_request(
            f"{HEADER} must be 1 to 255 visible ASCII characters (for example a UUID), got {value[:80]!r}",
            HEADER,
        )
    return value


def body_hash(body: object) -> str:
    """Hash a parsed JSON body canonically: key order and whitespace do not matter, values do."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _reused(key: str) -> ApiError:
    return ApiError(
        422,
        "idempotency_key_reused",
        f"{HEADER} {key!r} was already used with a different body in the last 24 hours; "
        "send each new piece of feedback with a new key",
        HEADER,
    )


def _purge_expired(engine: Engine, cutoff: int) -> None:
    """Forget keys older than the window, at most every 10 minutes per process."""
    with _purge_lock:
        if now_ms() - _last_purge[0] < PURGE_EVERY_MS:
            return
        _last_purge[0] = now_ms()
    with engine.begin() as conn:
        conn.execute(delete(idempotency_keys).where(idempotency_keys.c.created_ms < cutoff))


def store_once(engine: Engine, project_id: str, values: dict, key: str, digest: str) -> tuple[dict, bool]:
    """Store an entry under `key` unless the key was used: return (entry, replayed); 422 for another body."""
    for _attempt in range(3):
        cutoff = now_ms() - WINDOW_MS
        k = idempotency_keys.c
        try:
            with engine.begin() as conn:
                # Writing first makes SQLite take the write lock at once (no stale read snapshot to upgrade).
                conn.execute(
                    delete(idempotency_keys).where(
                        k.project_id == project_id, k.key == key, k.created_ms < cutoff
                    )
                )
                entry_id = fb.new_id()
                # The key row goes first: a concurrent request with the same key waits here, then fails.
                conn.execute(
                    insert(idempotency_keys).values(
                        project_id=project_id,
                        key=key,
                        body_hash=digest,
                        feedback_id=entry_id,
                        created_ms=now_ms(),
                    )
                )
                entry = fb.store(conn, project_id, values, entry_id=entry_id)
        except IntegrityError:
            with engine.connect() as conn:
                row = conn.execute(
                    select(idempotency_keys).where(
                        k.project_id == project_id, k.key == key, k.created_ms >= cutoff
                    )
                ).first()
                if row is None:
                    continue  # the other request rolled back, or its key just expired: try again
                if row.body_hash != digest:
                    raise _reused(key) from None
                stored = conn.execute(select(feedback).where(feedback.c.id == row.feedback_id)).first()
            if stored is None:
                continue
            return fb.to_json(stored), True
        _purge_expired(engine, cutoff)
        return entry, False
    raise ApiError(
        409, "idempotency_conflict", f"another request with this {HEADER} is in progress; retry", HEADER
    )
