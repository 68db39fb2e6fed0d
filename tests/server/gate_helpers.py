"""Shared pieces of the site gate tests: the private fixture site built once, a project serving it, JWT signing,
and a small OpenID Connect provider on 127.0.0.1 speaking the real protocol (discovery, authorize, token, JWKS)."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, rsa
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from docsgen.build import build
from docsgen.server.db import open_database
from docsgen.server.site_auth import save_auth
from docsgen.server.testing import seed_project

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "private-docs"
SITE_URL = "https://docs.acme.test"


def build_private_site(out: Path) -> Path:
    """Build fixtures/private-docs into `out` (with a site URL, so sitemap.xml exists)."""
    build(FIXTURE, out, site_url=SITE_URL)
    return out


def gate_project(tmp: Path, site: Path, config: dict | None, project: str = "acme"):
    """Return a SQLite engine with `project` publishing `site` and signing readers in by `config`."""
    engine = open_database(f"sqlite:///{tmp / 'gate.sqlite3'}")
    seed_project(engine, project, docs_dir=FIXTURE, out_dir=site)
    with engine.begin() as conn:
        save_auth(conn, project, config)
    return engine


@dataclass
class JwtSigner:
    """An Ed25519 key pair, as Mintlify's JWT handover uses; `public_pem` goes to the server."""

    key: ed25519.Ed25519PrivateKey = field(default_factory=ed25519.Ed25519PrivateKey.generate)

    @property
    def public_pem(self) -> str:
        return (
            self.key.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode()
        )

    def token(self, host: str = "127.0.0.1", ttl: int = 10, **user) -> str:
        claims = {"host": host, "exp": int(time.time()) + ttl, **user}
        return jwt.encode(claims, self.key, algorithm="EdDSA")


class OidcProvider:
    """An OpenID Connect provider that signs in whoever `next_user` names (as if they typed a password)."""

    def __init__(self, client_id: str = "docs-client") -> None:
        self.client_id = client_id
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.codes: dict[str, dict] = {}
        self.next_user: dict = {"sub": "ann", "groups": "billing, ops"}
        self.token_requests: list[dict] = []
        self.url = ""  # set once the LiveServer runs
        self.app = Starlette(
            routes=[
                Route("/.well-known/openid-configuration", self.discovery),
                Route("/authorize", self.authorize),
                Route("/token", self.token, methods=["POST"]),
                Route("/jwks", self.jwks),
            ]
        )

    async def discovery(self, request: Request) -> Response:
        return JSONResponse(
            {
                "issuer": self.url,
                "authorization_endpoint": f"{self.url}/authorize",
                "token_endpoint": f"{self.url}/token",
                "jwks_uri": f"{self.url}/jwks",
                "response_types_supported": ["code"],
                "code_challenge_methods_supported": ["S256"],
            }
        )

    async def authorize(self, request: Request) -> Response:
        q = request.query_params
        if q.get("client_id") != self.client_id or q.get("code_challenge_method") != "S256":
            return Response("bad request", status_code=400)
        code = secrets.token_urlsafe(16)
        self.codes[code] = {
            "challenge": q["code_challenge"],
            "redirect_uri": q["redirect_uri"],
            "nonce": q.get("nonce"),
            "user": dict(self.next_user),
        }
        return RedirectResponse(f"{q['redirect_uri']}?{urlencode({'code': code, 'state': q['state']})}", 302)

    async def token(self, request: Request) -> Response:
        form = dict(await request.form())
        self.token_requests.append(form)
        grant = self.codes.pop(str(form.get("code")), None)
        if grant is None or form.get("redirect_uri") != grant["redirect_uri"]:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        digest = hashlib.sha256(str(form.get("code_verifier", "")).encode()).digest()
        if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != grant["challenge"]:
            return JSONResponse({"error": "invalid_grant", "error_description": "PKCE"}, status_code=400)
        now = int(time.time())
        claims = {
            "iss": self.url,
            "aud": self.client_id,
            "iat": now,
            "exp": now + 60,
            "nonce": grant["nonce"],
            **grant["user"],
        }
        id_token = jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": "k1"})
        return JSONResponse(
            {"access_token": "at-" + secrets.token_hex(8), "token_type": "Bearer", "id_token": id_token}
        )

    async def jwks(self, request: Request) -> Response:
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        return JSONResponse({"keys": [{**public, "kid": "k1", "alg": "RS256", "use": "sig"}]})
