"""Real servers on 127.0.0.1 for the playground's and the dev proxy's tests: a tiny OAuth 2.0 authorization server
(authorization code with PKCE, client credentials), an API that accepts only its tokens, an API that sends large
answers slowly, and a docs site served by `docsgen dev`."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote_plus, urlencode, urlsplit

from docsgen.dev.app import start

CLIENT_ID = "docs-client"
CLIENT_SECRET = "s3cret value"


class OAuthServer(BaseHTTPRequestHandler):
    """/authorize approves at once (no login form) and redirects with a code; /token checks PKCE or the client's
    secret. It never answers CORS: only the docsgen dev proxy can reach /token from a page."""

    cors = False  # True: /token answers CORS, as a static host needs (the page then calls it directly)
    codes: dict[str, dict] = {}
    tokens: dict[str, str] = {}  # access token -> granted scope
    requests: list[dict] = []

    def log_message(self, *args: object) -> None:
        pass

    def _cors(self) -> None:
        if OAuthServer.cors:
            self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
            self.send_header("Access-Control-Allow-Headers", "Authorization, Content-Type")
            self.send_header("Access-Control-Allow-Methods", "POST")

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        self._cors()
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _json(self, status: int, data: dict) -> None:
        body = json.dumps(data).encode()
        self.send_response(status)
        self._cors()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        OAuthServer.requests.append({"path": url.path, "query": q})
        if url.path != "/authorize":
            return self._json(404, {"error": "not_found"})
        if q.get("client_id") != CLIENT_ID or q.get("response_type") != "code":
            return self._json(400, {"error": "invalid_request"})
        if q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return self._json(400, {"error": "invalid_request", "error_description": "PKCE S256 required"})
        code = secrets.token_urlsafe(16)
        OAuthServer.codes[code] = q
        target = q["redirect_uri"] + "?" + urlencode({"code": code, "state": q.get("state", "")})
        self.send_response(302)
        self.send_header("Location", target)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        form = {k: v[0] for k, v in parse_qs(raw).items()}
        OAuthServer.requests.append(
            {"path": urlsplit(self.path).path, "form": form, "origin": self.headers.get("Origin")}
        )
        grant = form.get("grant_type")
        if grant == "authorization_code":
            pending = OAuthServer.codes.pop(form.get("code", ""), None)
            if pending is None or form.get("redirect_uri") != pending["redirect_uri"]:
                return self._json(400, {"error": "invalid_grant"})
            digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
            if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != pending["code_challenge"]:
                return self._json(
                    400, {"error": "invalid_grant", "error_description": "PKCE verifier mismatch"}
                )
            if form.get("client_id") != CLIENT_ID:
                return self._json(401, {"error": "invalid_client"})
            scope = pending.get("scope", "")
        elif grant == "client_credentials":
            header = self.headers.get("Authorization", "")
            pair = (
                base64.b64decode(header.removeprefix("Basic ")).decode()
                if header.startswith("Basic ")
                else ":"
            )
            client, _, secret = pair.partition(":")  # RFC 6749 2.3.1: both form-urlencoded
            if (unquote_plus(client), unquote_plus(secret)) != (CLIENT_ID, CLIENT_SECRET):
                return self._json(
                    401, {"error": "invalid_client", "error_description": "wrong client secret"}
                )
            scope = form.get("scope", "")
        else:
            return self._json(400, {"error": "unsupported_grant_type"})
        token = "at-" + secrets.token_urlsafe(12)
        OAuthServer.tokens[token] = scope
        return self._json(
            200, {"access_token": token, "token_type": "Bearer", "expires_in": 600, "scope": scope}
        )


class TokenApi(BaseHTTPRequestHandler):
    """The API: /me answers 200 for a token the authorization server issued; everything else echoes the request."""

    seen: list[dict] = []

    def log_message(self, *args: object) -> None:
        pass

    def _cors(self) -> None:
        self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
        self.send_header(
            "Access-Control-Allow-Headers", self.headers.get("Access-Control-Request-Headers") or "*"
        )
        self.send_header("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        self._cors()
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        auth = self.headers.get("Authorization", "")
        info: dict = {"method": self.command, "path": url.path, "query": parse_qs(url.query)}
        info["headers"] = {k.lower(): v for k, v in self.headers.items()}
        if raw:
            info["json"] = json.loads(raw)
        TokenApi.seen.append(info)
        status = 200
        if url.path.endswith("/me"):
            scope = OAuthServer.tokens.get(auth.removeprefix("Bearer "))
            status = 200 if scope is not None else 401
            info["scope"] = scope
        body = json.dumps(info).encode()
        self.send_response(status)
        self._cors()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_PUT = do_DELETE = do_GET


class SlowApi(BaseHTTPRequestHandler):
    """An API that sends a large answer slowly, in 256 KB pieces: `/stream/N` N MB without a length (the end of the
    answer is the end of the connection), `/sized/N` with one. `sent` counts the bytes of the latest answer."""

    protocol_version = "HTTP/1.1"
    sent = 0

    def do_GET(self) -> None:
        size = int(self.path.rsplit("/", 1)[1]) * 1024 * 1024
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("X-Upstream", "slow")
        if self.path.startswith("/sized/"):
            self.send_header("Content-Length", str(size))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        piece = b"y" * (256 * 1024)
        SlowApi.sent = 0
        try:
            while SlowApi.sent < size:
                self.wfile.write(piece)
                SlowApi.sent += len(piece)
                time.sleep(0.01)
        except OSError:
            pass
        self.close_connection = True

    def log_message(self, *args: object) -> None:
        pass


def serve(handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


SPEC = """openapi: 3.1.0
info: {title: Token API, version: "1"}
servers:
  - url: http://127.0.0.1:__API__/{version}
    variables:
      version: {default: v1, enum: [v1, v2]}
components:
  securitySchemes:
    oauth:
      type: oauth2
      flows:
        authorizationCode:
          authorizationUrl: http://127.0.0.1:__AUTH__/authorize
          tokenUrl: http://127.0.0.1:__AUTH__/token
          scopes: {read: Read your things, write: Change your things}
        clientCredentials:
          tokenUrl: http://127.0.0.1:__AUTH__/token
          scopes: {read: Read your things, admin: Everything}
    evil:
      type: oauth2
      flows:
        authorizationCode:
          authorizationUrl: "javascript:document.title='owned'"
          tokenUrl: http://127.0.0.1:__AUTH__/token
          scopes: {}
    key:
      type: apiKey
      in: header
      name: X-Key
paths:
  /me:
    get:
      summary: Who am I
      security: [{oauth: [read]}]
      responses: {"200": {description: You}}
  /evil:
    get:
      summary: Evil flow
      security: [{evil: []}]
      responses: {"200": {description: Never}}
  /pets:
    post:
      summary: Add pet
      security: [{key: []}]
      parameters:
        - {name: dry, in: query, schema: {type: boolean}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: {type: string}
                age: {type: integer, minimum: 0}
                kind: {type: string, enum: [cat, dog], x-mint: {pre: [beta], post: [stable soon]}}
                owner:
                  type: object
                  properties:
                    email: {type: string}
            examples:
              small: {summary: A small cat, value: {name: Tom, age: 2, kind: cat}}
              big: {summary: A big dog, value: {name: Rex, age: 9, kind: dog, owner: {email: a@b.c}}}
      responses: {"200": {description: Added}}
"""

MANUAL = """---
title: Create order
api: POST https://127.0.0.1:1/orders
---

<ParamField query="dry_run" type="boolean">Only check the order.</ParamField>
<ParamField header="X-Tenant" type="string" required>Your tenant.</ParamField>
<ParamField body="item" type="string" required>What to buy.</ParamField>
<ParamField body="count" type="integer" default="1">How many.</ParamField>
<ParamField body="address" type="object">
  Where to send it.
  <Expandable title="properties">
    <ParamField body="city" type="string">The city.</ParamField>
  </Expandable>
</ParamField>
"""


def write_site(docs: Path, api_port: int, auth_port: int, extra: dict[str, str] | None = None) -> Path:
    """The docs folder: the OpenAPI spec above, a hand-written `api:` page, and `extra` files."""
    spec = SPEC.replace("__API__", str(api_port)).replace("__AUTH__", str(auth_port))
    manual = MANUAL.replace("https://127.0.0.1:1", f"http://127.0.0.1:{api_port}/v1")
    nav = [{"group": "Guide", "pages": ["order"]}, {"group": "API", "openapi": "api.yaml"}]
    files = {"api.yaml": spec, "order.mdx": manual, **(extra or {})}
    if any(name.startswith("chat") for name in files):
        nav.append({"group": "Chat", "asyncapi": "chat.yaml"})
    config = {
        "name": "Playground",
        "theme": "mint",
        "colors": {"primary": "#0E7490"},
        "navigation": {"groups": nav},
    }
    files["docs.json"] = json.dumps(config)
    for rel, text in files.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, encoding="utf-8")
    return docs


@contextmanager
def running_site(tmp: Path, extra: dict[str, str] | None = None) -> Iterator[dict]:
    """Start the authorization server and the API, write the docs and serve them with `docsgen dev`."""
    auth, api = serve(OAuthServer), serve(TokenApi)
    docs = write_site(tmp / "docs", api.server_address[1], auth.server_address[1], extra)
    app = start(docs, watch=False)
    try:
        yield {"site": app.url, "api": f"http://127.0.0.1:{api.server_address[1]}", "docs": docs}
    finally:
        app.stop()
        auth.shutdown()
        api.shutdown()
