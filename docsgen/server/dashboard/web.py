"""Plumbing shared by the dashboard's pages: templates, security headers, cookies, CSRF checks, code highlighting."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename
from pygments.util import ClassNotFound
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from docsgen.server.dashboard.sessions import COOKIE, SESSION_SECONDS, Session
from docsgen.server.db import now_ms

HERE = Path(__file__).resolve().parent
PRE_COOKIE = "dg_dashboard_signin"  # double-submit token of the sign-in form (login CSRF)
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # no-referrer would make browsers send Origin: null
}
FORMATTER = HtmlFormatter(cssclass="hl", wrapcode=True)
PYGMENTS_CSS = FORMATTER.get_style_defs(".hl") + "\n"


def templates() -> Environment:
    """Return the dashboard's Jinja2 environment; autoescaping covers every template."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["age"] = age
    env.filters["when"] = when
    return env


def render(
    env: Environment, name: str, status: int = 200, headers: dict | None = None, **context
) -> Response:
    """Render a page with the dashboard's security headers."""
    html = env.get_template(name).render(**context)
    return HTMLResponse(html, status_code=status, headers={**PAGE_HEADERS, **(headers or {})})


def when(ms: int | None) -> str:
    """Format epoch milliseconds as a UTC date and time for people."""
    if ms is None:
        return "—"
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")


def age(ms: int | None, now: int | None = None) -> str:
    """Say how long ago something happened: 'just now', '5 min ago', '3 h ago', '2 days ago'."""
    if ms is None:
        return "never"
    seconds = max(0, ((now if now is not None else now_ms()) - ms) // 1000)
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    if seconds < 86400:
        return f"{seconds // 3600} h ago"
    days = seconds // 86400
    return "1 day ago" if days == 1 else f"{days} days ago"


def highlight_code(code: str, lang: str | None, filename: str | None) -> tuple[Markup, str]:
    """Highlight submitted code with Pygments (which escapes it); return the HTML and the language's name."""
    lexer = None
    if lang:
        try:
            lexer = get_lexer_by_name(lang)
        except ClassNotFound:
            lexer = None
    if lexer is None and filename:
        try:
            lexer = get_lexer_for_filename(filename, code)
        except ClassNotFound:
            lexer = None
    lexer = lexer or TextLexer()
    return Markup(highlight(code, lexer, FORMATTER)), (lang or lexer.name)


def is_https(request: Request) -> bool:
    """Tell whether the browser reached us over HTTPS (uvicorn applies trusted proxy headers to the scheme)."""
    return request.url.scheme == "https"


def set_session_cookie(response: Response, request: Request, session: Session, prefix: str) -> None:
    """Set the session cookie: HttpOnly, SameSite=Strict, scoped to the dashboard, expiring with the session."""
    response.set_cookie(
        COOKIE,
        session.token,
        max_age=SESSION_SECONDS,
        expires=SESSION_SECONDS,
        path=prefix,
        secure=is_https(request),
        httponly=True,
        samesite="strict",
    )


def clear_session_cookie(response: Response, request: Request, prefix: str) -> None:
    """Expire the session cookie in the browser."""
    response.delete_cookie(COOKIE, path=prefix, secure=is_https(request), httponly=True, samesite="strict")


def signin_token(request: Request) -> str:
    """Return the sign-in form's double-submit token, reusing the browser's if it has a sane one."""
    current = request.cookies.get(PRE_COOKIE, "")
    return current if 20 <= len(current) <= 64 and current.isascii() else secrets.token_urlsafe(24)


def set_signin_cookie(response: Response, request: Request, token: str, prefix: str) -> None:
    """Store the sign-in form's token in a short-lived HttpOnly cookie."""
    response.set_cookie(
        PRE_COOKIE,
        token,
        max_age=1800,
        path=prefix,
        secure=is_https(request),
        httponly=True,
        samesite="strict",
    )


MAX_FORM = 64 * 1024  # bytes: the dashboard's forms are small


async def read_form(request: Request) -> FormData:
    """Read an urlencoded form (without python-multipart); other media types or oversized bodies read as empty."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/x-www-form-urlencoded":
        return FormData()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            return FormData()
    return FormData([(k, v) for k, v in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)])


def same_origin(request: Request) -> bool:
    """Refuse cross-site form posts: Sec-Fetch-Site, else the Origin header when sent, must say same origin."""
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    host = request.headers.get("host", "")
    return parts.netloc.lower() == host.lower() and parts.scheme in ("http", "https")
