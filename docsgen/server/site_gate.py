"""The site gate: `docsgen server run --site PROJECT` serves the project's published build and refuses what a
reader may not read (pages, Markdown twins, search bundles, spec files; llms*.txt, sitemaps and search listings
cut to the reader), with sign-in by password, a JWT handed over by the owner's app, or OAuth 2.0 / OIDC.

Refusals: a reader who is not signed in gets a redirect to sign in (pages) or 401 (other files); a signed-in
reader outside a page's groups gets 404, as on Mintlify.
"""

from __future__ import annotations

import html
import mimetypes
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from sqlalchemy import Engine
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from docsgen.server import site_auth
from docsgen.server.gate_words import ENGLISH, GateWords, words_for
from docsgen.server.projects import get_project
from docsgen.server.ratelimit import RateLimiter, retry_after_header
from docsgen.server.reader_sessions import (
    ANONYMOUS,
    COOKIE,
    DEFAULT_SESSION_SECONDS,
    FLOW_COOKIE,
    FLOW_SECONDS,
    Reader,
    reader_of,
    session_key,
    session_token,
    sign,
    unsign,
)
from docsgen.server.site_access import (
    NEVER_SERVED,
    AccessCache,
    choose_user_branches,
    cut_marked,
    filtered_text,
    personalise,
)

FORM_LIMIT = 16_384  # bytes of a sign-in form
CONFIG_SECONDS = 2.0  # how long a project's sign-in settings are reused before they are read again


def local_redirect(value: str | None) -> str:
    """Return a path of this site to go back to after sign-in ('/' for anything else: no open redirect)."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return "/"
    return value


def _page(title: str, body: str, status: int = 200, words: GateWords = ENGLISH) -> HTMLResponse:
    """Return a gate page in the language of `words` (`title` is plain text, `body` HTML)."""
    direction = ' dir="rtl"' if words.rtl else ""
    return HTMLResponse(
        f'<!doctype html><html lang="{html.escape(words.lang)}"{direction}><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">'
        "<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}"
        "input,button{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;margin:.25rem 0}</style>"
        f"</head><body><main>{body}</main></body></html>",
        status_code=status,
    )


class SiteGate:
    """The gate of one project's site (an ASGI app mounted at the server's root)."""

    def __init__(self, engine: Engine, project_id: str, session_seconds: int = DEFAULT_SESSION_SECONDS):
        self.engine, self.project_id, self.session_seconds = engine, project_id, session_seconds
        self.key = session_key(engine)
        self.access = AccessCache()
        self.attempts = RateLimiter(10)  # password attempts per client per minute
        self._config: tuple[float, dict[str, Any] | None, Path | None] = (0.0, None, None)
        self.app = Starlette(
            routes=[
                Route("/login", self.login, methods=["GET", "POST"]),
                Route("/login/jwt-callback", self.jwt_callback, methods=["GET", "POST"]),
                Route("/login/oidc-callback", self.oidc_callback, methods=["GET"]),
                Route("/logout", self.logout, methods=["GET", "POST"]),
                Route("/_docsgen/user", self.user, methods=["GET"]),
                Route("/{path:path}", self.serve, methods=["GET", "HEAD"]),
            ]
        )

    async def __call__(self, scope, receive, send) -> None:
        await self.app(scope, receive, send)

    def settings(self) -> tuple[dict[str, Any] | None, Path | None]:
        """Return the project's sign-in settings (None: open site) and its published folder."""
        stamp, config, root = self._config
        if time.monotonic() - stamp > CONFIG_SECONDS:
            with self.engine.connect() as conn:
                project = get_project(conn, self.project_id)
                config = site_auth.load_auth(conn, self.project_id)
            root = Path(project.out_dir) if project is not None and project.out_dir else None
            self._config = (time.monotonic(), config, root)
        return config, root

    async def words(self, target: str) -> GateWords:
        """Return the gate's words in the language of the site page `target` the reader is going to."""
        _, root = await run_in_threadpool(self.settings)
        return await run_in_threadpool(words_for, root, target)

    async def failed(self, target: str, message: str, status: int) -> Response:
        """Return the failed sign-in page; `message` is plain text (a provider's may be in any language)."""
        words = await self.words(target)
        title = words["signin_failed"]
        body = f"<h1>{html.escape(title)}</h1><p>{html.escape(message)}</p>"
        return _page(title, body, status, words)

    def reader(self, request: Request) -> Reader:
        return reader_of(self.key, request.cookies.get(COOKIE))

    def signed_in(self, request: Request, user: dict[str, Any]) -> Response:
        """Start a session from user data and send the reader back where they were going."""
        target = local_redirect(request.query_params.get("redirect") or user.get("_redirect"))
        response = RedirectResponse(target, status_code=303)
        token = session_token(self.key, user, self.session_seconds)
        secure = request.url.scheme == "https"
        response.set_cookie(
            COOKIE, token, max_age=self.session_seconds, httponly=True, samesite="lax", secure=secure
        )
        return response

    # Sign-in ---------------------------------------------------------------------------------------------------

    async def login(self, request: Request) -> Response:
        """GET: the password form, or off to the owner's login page / the OAuth provider. POST: the password."""
        config, _ = await run_in_threadpool(self.settings)
        redirect = local_redirect(request.query_params.get("redirect"))
        if config is None:
            return RedirectResponse(redirect, status_code=303)
        method = config.get("method")
        if request.method == "POST":
            return await self._password(request, config, redirect)
        if method == "jwt":
            login_url = config.get("loginUrl")
            if not login_url:
                words = await self.words(redirect)
                title = html.escape(words["sign_in"])
                body = f"<h1>{title}</h1><p>{html.escape(words['sign_in_app'])}</p>"
                return _page(words["sign_in"], body, words=words)
            separator = "&" if "?" in login_url else "?"
            return RedirectResponse(f"{login_url}{separator}redirect={quote(redirect)}", status_code=303)
        if method == "oauth":
            return await self._start_oauth(request, config, redirect)
        return await self._password_form(redirect)

    async def _password_form(self, redirect: str, problem: str = "", status: int = 200) -> Response:
        """Return the password form; `problem` names a key of the interface strings (the wrong-password note)."""
        words = await self.words(redirect)
        note = f'<p role="alert">{html.escape(words[problem])}</p>' if problem else ""
        sign_in = html.escape(words["sign_in"])
        return _page(
            words["sign_in"],
            f'<h1>{sign_in}</h1>{note}<form method="post" action="login?redirect={html.escape(quote(redirect))}">'
            f'<label for="dg-password">{html.escape(words["password"])}</label>'
            '<input id="dg-password" name="password" type="password" autocomplete="current-password" required>'
            f'<button type="submit">{sign_in}</button></form>',
            status,
            words,
        )

    async def _form(self, request: Request) -> dict[str, str]:
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > FORM_LIMIT:
                return {}
        fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=8)
        return {name: values[0] for name, values in fields.items()}

    async def _password(self, request: Request, config: dict[str, Any], redirect: str) -> Response:
        if config.get("method") != "password":
            return Response("sign in with the site's own method", status_code=405)
        client = request.client.host if request.client else "unknown"
        wait = self.attempts.check(client)
        if wait:
            response = await self._password_form(redirect, "too_many_attempts", 429)
            response.headers.update(retry_after_header(wait))
            return response
        form = await self._form(request)
        if not site_auth.check_password(config.get("passwordHash", ""), form.get("password", "")):
            return await self._password_form(redirect, "wrong_password", 401)
        return self.signed_in(request, {"_redirect": redirect})

    async def jwt_callback(self, request: Request) -> Response:
        """GET: a page that posts the token of the URL fragment here. POST: verify it and sign the reader in."""
        config, _ = await run_in_threadpool(self.settings)
        if config is None or config.get("method") != "jwt":
            return Response("this site does not sign in with a JWT", status_code=404)
        target = local_redirect(request.query_params.get("redirect"))
        if request.method == "GET":
            words = await self.words(target)
            return _page(
                words["signing_in_title"],
                '<form method="post"><input type="hidden" name="token"><noscript>'
                f"{html.escape(words['signin_needs_js'])}"
                "</noscript></form><script>var f=document.forms[0],t=location.hash.slice(1);"
                "if(t.indexOf('token=')===0)t=t.slice(6);f.token.value=t;"
                "history.replaceState(null,'',location.pathname+location.search);f.submit();</script>",
                words=words,
            )
        form = await self._form(request)
        host = request.headers.get("host", "").split(":")[0]
        try:
            user = site_auth.verify_handover(config, form.get("token", ""), host)
        except site_auth.SignInError as exc:
            return await self.failed(target, str(exc), 401)
        return self.signed_in(request, user)

    async def _start_oauth(self, request: Request, config: dict[str, Any], redirect: str) -> Response:
        callback = _callback(request)
        try:
            url, flow = await run_in_threadpool(site_auth.start_flow, config, callback, redirect)
        except site_auth.SignInError as exc:
            return await self.failed(redirect, str(exc), 502)
        payload = {
            "exp": int(time.time()) + FLOW_SECONDS,
            "state": flow.state,
            "nonce": flow.nonce,
            "verifier": flow.verifier,
            "redirect": flow.redirect,
        }
        response = RedirectResponse(url, status_code=303)
        response.set_cookie(
            FLOW_COOKIE,
            sign(self.key, "flow", payload),
            max_age=FLOW_SECONDS,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        return response

    async def oidc_callback(self, request: Request) -> Response:
        """The provider sends the reader back with a code: check the state, exchange it, sign the reader in."""
        config, _ = await run_in_threadpool(self.settings)
        saved = unsign(self.key, "flow", request.cookies.get(FLOW_COOKIE))
        state = request.query_params.get("state")
        if config is None or config.get("method") != "oauth" or saved is None or state != saved.get("state"):
            target = local_redirect(saved.get("redirect") if saved else None)
            return await self.failed(target, (await self.words(target))["signin_expired"], 400)
        target = local_redirect(saved.get("redirect"))
        code = request.query_params.get("code")
        if not code:
            return await self.failed(target, (await self.words(target))["signin_refused"], 401)
        flow = site_auth.Flow(saved["state"], saved["nonce"], saved["verifier"], saved.get("redirect", "/"))
        callback = _callback(request)
        try:
            user = await run_in_threadpool(site_auth.finish_flow, config, flow, code, callback)
        except site_auth.SignInError as exc:
            return await self.failed(target, str(exc), 401)
        response = self.signed_in(request, {**user, "_redirect": flow.redirect})
        response.delete_cookie(FLOW_COOKIE)
        return response

    async def logout(self, request: Request) -> Response:
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE)
        return response

    async def user(self, request: Request) -> Response:
        """GET /_docsgen/user: the signed-in reader's data (groups, content, playground inputs) for page scripts."""
        return JSONResponse(self.reader(request).public_json())

    # Files -----------------------------------------------------------------------------------------------------

    async def serve(self, request: Request) -> Response:
        config, root = await run_in_threadpool(self.settings)
        if root is None:
            return Response("this project has no published site", status_code=404)
        reader = self.reader(request) if config is not None else ANONYMOUS
        return await serve_built(request, root, request.path_params["path"], config, reader, self.access)


async def serve_built(
    request: Request,
    root: Path,
    path: str,
    config: dict[str, Any] | None,
    reader: Reader,
    cache: AccessCache,
    prefix: str = "",
) -> Response:
    """Answer a GET for `path` of the build in `root` (served at `prefix`/) as `reader` may see it."""
    found = _locate(root, path, prefix)
    if isinstance(found, Response):
        return found
    access = await run_in_threadpool(cache.get, root)
    if found in NEVER_SERVED:
        return _not_found(root)
    guarded = config is not None and config.get("mode") != "personalization"
    if guarded and not all(reader.may(label) for label in access.labels(found)):
        if reader.signed_in:
            return _not_found(root)  # outside the page's groups: as if it did not exist (Mintlify)
        if found.endswith(".html"):
            return RedirectResponse(f"/login?redirect={quote(prefix + '/' + path)}", status_code=302)
        return Response("sign in to read this file", status_code=401, headers={"WWW-Authenticate": "Cookie"})
    data = await run_in_threadpool((root / found).read_bytes)
    cut = filtered_text(access, reader, found, data) if config is not None else None
    data = cut if cut is not None else data
    if found.endswith(".html"):
        if guarded and access.marked:
            data = cut_marked(data, reader)  # restricted pages' titles in sidebars and pagination
        data = personalise(choose_user_branches(data, reader), reader)
    media = mimetypes.guess_type(found)[0] or "application/octet-stream"
    if media.startswith("text/") or media in (
        "application/json",
        "application/xml",
        "application/javascript",
    ):
        media += "; charset=utf-8"
    per_reader = config is not None and (cut is not None or found.endswith(".html"))
    headers = {"Cache-Control": "private, no-cache", "Vary": "Cookie"} if per_reader else None  # not shared
    return Response(data if request.method == "GET" else b"", media_type=media, headers=headers)


def _callback(request: Request) -> str:
    """The redirect URI the provider sends readers back to (register it with the provider)."""
    return str(request.base_url).rstrip("/") + "/login/oidc-callback"


def _locate(root: Path, path: str, prefix: str = "") -> str | Response:
    """Return the site file a URL path names (pretty URLs: a/ -> a/index.html), a redirect (a -> a/), or 404."""
    parts = [p for p in path.split("/") if p]
    if any(p in (".", "..") or "\x00" in p or "\\" in p for p in parts):
        return _not_found(root)
    real_root = root.resolve()
    rel = "/".join(parts)
    candidate = real_root / rel if rel else real_root
    try:
        real = candidate.resolve()
        real.relative_to(real_root)
    except (OSError, ValueError):
        return _not_found(root)
    if real.is_dir():
        if not (real / "index.html").is_file():
            return _not_found(root)
        if path and not path.endswith("/"):
            return RedirectResponse(f"{prefix}/{rel}/", status_code=301)
        return f"{rel}/index.html" if rel else "index.html"
    if real.is_file():
        return rel
    return _not_found(root)


def _not_found(root: Path) -> Response:
    page = root / "404.html"
    body = page.read_bytes() if page.is_file() else b"Not found"
    return Response(body, status_code=404, media_type="text/html; charset=utf-8")
