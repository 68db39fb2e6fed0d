"""Readers' sessions behind the site gate: a signed, expiring cookie; its key is kept in the database.

The cookie holds the reader's groups and personal data (`content`, `apiPlaygroundInputs`) as base64url JSON
with an HMAC-SHA256 tag. The key is created once and stored in `server_settings`, so sessions survive a
restart and work across processes sharing a database; nothing is stored per session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, insert
from sqlalchemy.exc import IntegrityError

from docsgen.server.db import get_setting, settings

COOKIE = "dg_reader"
FLOW_COOKIE = "dg_signin"  # the OAuth state, nonce and PKCE verifier of a sign-in under way
KEY_SETTING = "reader_session_key"
DEFAULT_SESSION_SECONDS = 7 * 24 * 3600
FLOW_SECONDS = 600
MAX_COOKIE = 3800  # browsers keep cookies up to 4096 bytes with their name and attributes


@dataclass(frozen=True)
class Reader:
    """Who is reading: signed in or not, the groups they belong to and the data pages may show them."""

    signed_in: bool = False
    groups: frozenset[str] = frozenset()
    expires: int = 0  # Unix seconds
    content: dict[str, Any] = field(default_factory=dict)
    inputs: dict[str, Any] = field(default_factory=dict)  # apiPlaygroundInputs

    def may(self, label: str) -> bool:
        """Tell whether this reader may read what an access label guards ('public', 'members', 'groups:a,b')."""
        if label == "public":
            return True
        if not self.signed_in:
            return False
        if label.startswith("groups:"):
            return any(g in self.groups for g in label[len("groups:") :].split(","))
        return True

    def public_json(self) -> dict[str, Any]:
        """What the reader's own pages may know about them (GET /_docsgen/user)."""
        return {
            "signedIn": self.signed_in,
            "groups": sorted(self.groups),
            "expiresAt": self.expires or None,
            "content": self.content,
            "apiPlaygroundInputs": self.inputs,
        }


ANONYMOUS = Reader()


def session_key(engine: Engine) -> bytes:
    """Return the signing key, creating it on first use (concurrent first uses agree on one)."""
    with engine.connect() as conn:
        value = get_setting(conn, KEY_SETTING)
    if value is None:
        try:
            with engine.begin() as conn:
                conn.execute(insert(settings).values(name=KEY_SETTING, value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process stored one first
        with engine.connect() as conn:
            value = get_setting(conn, KEY_SETTING)
    assert value is not None
    return bytes.fromhex(value)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(key: bytes, purpose: str, payload: dict[str, Any]) -> str:
    """Return `payload` as a signed token for one purpose (a session cookie is no sign-in flow cookie)."""
    body = _b64(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode("utf-8"))
    tag = hmac.new(key, f"{purpose}.{body}".encode("ascii"), hashlib.sha256).digest()
    return f"{body}.{_b64(tag)}"


def unsign(key: bytes, purpose: str, token: str | None) -> dict[str, Any] | None:
    """Return the payload of a token signed for `purpose` that has not expired (`exp`), else None."""
    if not token or token.count(".") != 1 or len(token) > 8192:
        return None
    body, tag = token.split(".")
    expected = hmac.new(key, f"{purpose}.{body}".encode("ascii"), hashlib.sha256).digest()
    try:
        if not hmac.compare_digest(expected, _unb64(tag)):
            return None
        payload = json.loads(_unb64(body))
    except (ValueError, UnicodeDecodeError):
        return None
    if (
        not isinstance(payload, dict)
        or not isinstance(payload.get("exp"), int)
        or payload["exp"] <= time.time()
    ):
        return None
    return payload


def session_token(key: bytes, user: dict[str, Any], max_seconds: int = DEFAULT_SESSION_SECONDS) -> str:
    """Return the session cookie of a signed-in reader from Mintlify's user data (groups, expiresAt, content,
    apiPlaygroundInputs); the session ends at `expiresAt` when that comes before `max_seconds`."""
    now = int(time.time())
    exp = now + max_seconds
    expires_at = user.get("expiresAt")
    if isinstance(expires_at, int | float) and not isinstance(expires_at, bool):
        exp = min(exp, int(expires_at))
    groups = user.get("groups")
    payload: dict[str, Any] = {
        "exp": exp,
        "g": sorted({str(g) for g in groups if isinstance(g, str | int)}) if isinstance(groups, list) else [],
        "c": user.get("content") if isinstance(user.get("content"), dict) else {},
        "i": user.get("apiPlaygroundInputs") if isinstance(user.get("apiPlaygroundInputs"), dict) else {},
    }
    token = sign(key, "session", payload)
    if len(token) > MAX_COOKIE:  # too much personal data for a cookie: keep the access, drop the extras
        payload["c"], payload["i"] = {}, {}
        token = sign(key, "session", payload)
    return token


def reader_of(key: bytes, token: str | None) -> Reader:
    """Return the reader a session cookie names, or ANONYMOUS (missing, forged or expired)."""
    payload = unsign(key, "session", token)
    if payload is None:
        return ANONYMOUS
    groups, content, inputs = payload.get("g"), payload.get("c"), payload.get("i")
    return Reader(
        True,
        frozenset(str(g) for g in groups) if isinstance(groups, list) else frozenset(),
        payload["exp"],
        content if isinstance(content, dict) else {},
        inputs if isinstance(inputs, dict) else {},
    )
