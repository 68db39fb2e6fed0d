"""Admin API keys: `dg_` + 44 random characters; only a SHA-256 hash is stored and compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import string
from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from docsgen.server.db import api_keys, now_ms, projects

PREFIX = "dg_"
KEY_ID_LENGTH = 12  # the leading characters after the prefix, stored in clear to find the key's row
SECRET_LENGTH = 44  # 62**44 is about 2**262: far beyond guessing
KEY_RE = re.compile(rf"^{PREFIX}[A-Za-z0-9]{{{SECRET_LENGTH}}}$")
_ALPHABET = string.ascii_letters + string.digits


@dataclass(frozen=True)
class KeyInfo:
    """What `keys list` shows about a key (never the key itself)."""

    id: str
    project_id: str
    created_ms: int
    revoked_ms: int | None


def hash_key(key: str) -> str:
    """Return the stored form of a key; a fast hash suffices because keys carry ~262 bits of randomness."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_id(key: str) -> str:
    """Return the public id embedded in a key."""
    return key[len(PREFIX) : len(PREFIX) + KEY_ID_LENGTH]


def create_key(conn: Connection, project_id: str) -> str:
    """Create and store a new admin key for an existing project; return the key (shown once)."""
    if conn.execute(select(projects.c.id).where(projects.c.id == project_id)).scalar() is None:
        raise LookupError(project_id)
    key = PREFIX + "".join(secrets.choice(_ALPHABET) for _ in range(SECRET_LENGTH))
    conn.execute(
        insert(api_keys).values(
            id=key_id(key), project_id=project_id, key_hash=hash_key(key), created_ms=now_ms()
        )
    )
    return key


def list_keys(conn: Connection, project_id: str | None = None) -> list[KeyInfo]:
    """List keys, optionally of one project, oldest first."""
    query = select(api_keys).order_by(api_keys.c.created_ms, api_keys.c.id)
    if project_id:
        query = query.where(api_keys.c.project_id == project_id)
    return [KeyInfo(r.id, r.project_id, r.created_ms, r.revoked_ms) for r in conn.execute(query)]


def revoke_key(conn: Connection, ident: str) -> bool:
    """Revoke a key given its id (or the whole key); return False when no active key matched."""
    ident = key_id(ident) if ident.startswith(PREFIX) else ident
    result = conn.execute(
        update(api_keys)
        .where(api_keys.c.id == ident, api_keys.c.revoked_ms.is_(None))
        .values(revoked_ms=now_ms())
    )
    return result.rowcount == 1


def authenticate(conn: Connection, key: str) -> KeyInfo | None:
    """Return the active key matching `key`, or None; the hash comparison takes constant time."""
    if not KEY_RE.match(key):
        return None
    row = conn.execute(select(api_keys).where(api_keys.c.id == key_id(key))).first()
    # Hash and compare even when no row exists, so timing does not tell known ids from unknown ones.
    stored = row.key_hash if row is not None else "0" * 64
    matches = hmac.compare_digest(stored.encode("ascii"), hash_key(key).encode("ascii"))
    if row is None or not matches or row.revoked_ms is not None:
        return None
    return KeyInfo(row.id, row.project_id, row.created_ms, row.revoked_ms)
