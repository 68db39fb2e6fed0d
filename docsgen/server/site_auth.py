"""How readers sign in to a project's site: a shared password, a JWT handed over by the owner's app, or OAuth 2.0 /
OpenID Connect (authorization code with PKCE). The settings live in `server_settings`, one JSON per project.

Every method ends in Mintlify's user data (`groups`, `expiresAt`, `content`, `apiPlaygroundInputs`), which
reader_sessions turns into the session cookie.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert
from sqlalchemy.engine import Connection

from docsgen.server.db import get_setting, settings

METHODS = ("password", "jwt", "oauth")
JWT_ALGORITHMS = ["EdDSA", "ES256", "ES384", "RS256", "RS384", "RS512", "PS256"]
HTTP_TIMEOUT = 10.0
HTTP_LIMIT = 1 << 20  # bytes read from an identity provider's answer
PBKDF2_ROUNDS = 310_000


class SignInError(ValueError):
    """A sign-in that cannot succeed: shown to the reader (no secrets in the message)."""


def setting_name(project_id: str) -> str:
    """Name the setting that holds a project's sign-in configuration (names are at most 64 characters)."""
    return "site_auth:" + hashlib.sha256(project_id.encode("utf-8")).hexdigest()[:40]


def load_auth(conn: Connection, project_id: str) -> dict[str, Any] | None:
    """Return a project's sign-in configuration, or None when its site is open to everyone."""
    value = get_setting(conn, setting_name(project_id))
    return json.loads(value) if value else None


def save_auth(conn: Connection, project_id: str, config: dict[str, Any] | None) -> None:
    """Store (or with None, remove) a project's sign-in configuration."""
    name = setting_name(project_id)
    conn.execute(delete(settings).where(settings.c.name == name))
    if config is not None:
        conn.execute(insert(settings).values(name=name, value=json.dumps(config, sort_keys=True)))


def hash_password(password: str) -> str:
    """Return a salted PBKDF2-SHA256 hash of a site password."""
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, PBKDF2_ROUNDS)
    return f"pbkdf2-sha256${PBKDF2_ROUNDS}${salt.hex()}${digest.hex()}"


def check_password(stored: str, password: str) -> bool:
    """Compare a submitted password with the stored hash in constant time."""
    try:
        scheme, rounds, salt, digest = stored.split("$")
        if scheme != "pbkdf2-sha256":
            return False
        mine = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), bytes.fromhex(salt), int(rounds))
    except ValueError:
        return False
    return hmac.compare_digest(mine.hex(), digest)


def verify_handover(config: dict[str, Any], token: str, host: str) -> dict[str, Any]:
    """Verify a JWT handed over by the owner's login page (Mintlify's `/login/jwt-callback#<JWT>`): signed by the
    configured public key, not expired, and, when it names one, for this `host`. Return its user data."""
    import jwt

    try:
        claims = jwt.decode(
            token,
            config["publicKey"],
            algorithms=JWT_ALGORITHMS,
            options={"require": ["exp"], "verify_aud": False},
            leeway=30,
        )
    except jwt.PyJWTError as exc:
        raise SignInError(f"the sign-in token was refused: {exc}") from None
    if "host" in claims and str(claims["host"]).lower() != host.lower():
        raise SignInError("the sign-in token was made for another site (host)")
    return claims


# OAuth 2.0 / OpenID Connect ---------------------------------------------------------------------------------


def _read(request: urllib.request.Request) -> Any:
    """Fetch JSON from an identity provider, bounded in time and size."""
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            data = response.read(HTTP_LIMIT + 1)
    except OSError as exc:
        raise SignInError(f"the identity provider did not answer: {exc}") from None
    if len(data) > HTTP_LIMIT:
        raise SignInError("the identity provider's answer is too large")
    try:
        return json.loads(data)
    except ValueError:
        raise SignInError("the identity provider's answer is not JSON") from None


_DISCOVERY: dict[str, tuple[float, dict[str, Any]]] = {}


def discover(issuer: str) -> dict[str, Any]:
    """Return the provider's OpenID configuration (cached for 10 minutes)."""
    hit = _DISCOVERY.get(issuer)
    if hit and hit[0] > time.monotonic():
        return hit[1]
    url = issuer.rstrip("/") + "/.well-known/openid-configuration"
    doc = _read(urllib.request.Request(url, headers={"Accept": "application/json"}))
    if not isinstance(doc, dict) or not all(
        isinstance(doc.get(k), str) for k in ("authorization_endpoint", "token_endpoint", "jwks_uri")
    ):
        raise SignInError("the provider's discovery document lacks its endpoints")
    _DISCOVERY[issuer] = (time.monotonic() + 600, doc)
    return doc


@dataclass(frozen=True)
class Flow:
    """One sign-in under way: what the callback must see again."""

    state: str
    nonce: str
    verifier: str
    redirect: str


def start_flow(config: dict[str, Any], callback: str, redirect: str) -> tuple[str, Flow]:
    """Return the authorization URL to send the reader to (code flow with PKCE S256), and the flow to keep."""
    doc = discover(config["issuer"])
    flow = Flow(secrets.token_urlsafe(24), secrets.token_urlsafe(24), secrets.token_urlsafe(48), redirect)
    challenge = (
        base64.urlsafe_b64encode(hashlib.sha256(flow.verifier.encode()).digest()).rstrip(b"=").decode()
    )
    query = {
        "response_type": "code",
        "client_id": config["clientId"],
        "redirect_uri": callback,
        "scope": config.get("scopes") or "openid",
        "state": flow.state,
        "nonce": flow.nonce,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    separator = "&" if "?" in doc["authorization_endpoint"] else "?"
    return doc["authorization_endpoint"] + separator + urllib.parse.urlencode(query), flow


def finish_flow(config: dict[str, Any], flow: Flow, code: str, callback: str) -> dict[str, Any]:
    """Exchange the code (with the PKCE verifier), verify the ID token, and return the reader's user data."""
    import jwt

    doc = discover(config["issuer"])
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": callback,
        "client_id": config["clientId"],
        "code_verifier": flow.verifier,
    }
    if config.get("clientSecret"):
        form["client_secret"] = config["clientSecret"]
    request = urllib.request.Request(
        doc["token_endpoint"],
        data=urllib.parse.urlencode(form).encode("ascii"),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"},
    )
    tokens = _read(request)
    if not isinstance(tokens, dict) or not isinstance(tokens.get("id_token"), str):
        raise SignInError("the provider returned no ID token")
    try:
        key = jwt.PyJWKClient(doc["jwks_uri"], timeout=int(HTTP_TIMEOUT)).get_signing_key_from_jwt(
            tokens["id_token"]
        )
        claims = jwt.decode(
            tokens["id_token"],
            key.key,
            algorithms=JWT_ALGORITHMS,
            audience=config["clientId"],
            issuer=doc.get("issuer", config["issuer"]),
            leeway=30,
        )
    except jwt.PyJWTError as exc:
        raise SignInError(f"the ID token was refused: {exc}") from None
    if claims.get("nonce") != flow.nonce:
        raise SignInError("the ID token answers another sign-in (nonce)")
    user: dict[str, Any] = {"groups": groups_from(claims, config)}
    if config.get("infoUrl") and isinstance(tokens.get("access_token"), str):
        info = _read(
            urllib.request.Request(
                config["infoUrl"], headers={"Authorization": f"Bearer {tokens['access_token']}"}
            )
        )
        if isinstance(info, dict):
            user.update(info)
    return user


def groups_from(claims: dict[str, Any], config: dict[str, Any]) -> list[str]:
    """Read the groups claim (Mintlify: a list, or a string split on `groupsDelimiter` when set)."""
    value = claims.get(config.get("groupsClaim") or "groups")
    if isinstance(value, list):
        return [str(g).strip() for g in value if str(g).strip()]
    if isinstance(value, str):
        delimiter = config.get("groupsDelimiter")
        parts = value.split(delimiter) if delimiter else [value]
        return [p.strip() for p in parts if p.strip()]
    return []
