"""Hand-written API pages (`api: "METHOD /path"` frontmatter): the same header and playground data as specs."""

from __future__ import annotations

import re
from typing import Any

from docsgen.mdx.types import TocItem
from docsgen.openapi.render import ApiSettings, RenderedApi
from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc
from docsgen.openapi.render.params import Ids
from docsgen.openapi.render.security import auth_field, render_auth

_API = re.compile(r"^\s*([A-Za-z]+)\s+(\S+)\s*$")
_METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"}
# docs.json api.mdx.auth.method -> (scheme kind, location, default name)
_AUTH = {
    "bearer": ("bearer", "header", "Authorization"),
    "basic": ("basic", "header", "Authorization"),
    "key": ("apiKey", "header", "X-API-Key"),
    "cobo": ("apiKey", "header", "Biz-Api-Key"),
}


def parse_api(api: str) -> tuple[str, str, str]:
    """Split `api` frontmatter into (METHOD, base URL, path); raises ValueError with what is expected."""
    match = _API.match(api or "")
    if not match or match.group(1).upper() not in _METHODS:
        raise ValueError(
            f'expected `api: "METHOD /path"` (METHOD one of {", ".join(sorted(_METHODS))}), got {api!r}'
        )
    method, target = match.group(1).upper(), match.group(2)
    url = re.match(r"^(https?://[^/]+)(/.*)?$", target)
    if url:
        return method, url.group(1), url.group(2) or "/"
    return method, "", target if target.startswith("/") else "/" + target


def render_manual(
    api: str,
    *,
    settings: ApiSettings,
    servers: list[str] | str | None = None,
    auth: dict | None = None,
    params: list[dict] | None = None,
) -> RenderedApi:
    """Header html and playground data for a hand-written endpoint page (see render_manual_endpoint)."""
    from docsgen.openapi.render.endpoint import path_html

    method, base, path = parse_api(api)
    server_list = [servers] if isinstance(servers, str) else [str(s) for s in servers or []]
    if base:
        server_list = [base]
    shown = server_list[0].rstrip("/") if server_list and settings.base_url_display == "full" else ""
    base_html = f'<span class="dg-api-base">{esc(shown)}</span>' if shown else ""
    endpoint = (
        f'<div class="dg-api-endpoint" data-method="{esc(method.lower())}">'
        f'<span class="dg-api-method dg-api-method-{esc(method.lower())}">{esc(method)}</span>'
        f'<code class="dg-api-url">{base_html}{path_html(path)}</code></div>'
    )
    auth_html, auth_md, toc = _auth_section(settings, auth)
    html = f'<div class="dg-api" data-kind="manual">{endpoint}{auth_html}</div>'
    security: dict[str, Any] = {"requirements": [], "schemes": {}, "optional": False}
    if isinstance(auth, dict) and auth.get("method") in _AUTH:
        kind, loc, default_name = _AUTH[auth["method"]]
        name = str(auth.get("name") or default_name)
        scheme: dict[str, Any] = {"type": "http" if kind in ("bearer", "basic") else "apiKey", "kind": kind}
        scheme.update({"in": loc, "name": name if kind == "apiKey" else "Authorization"})
        if kind in ("bearer", "basic"):
            scheme["scheme"] = kind
        security = {
            "requirements": [{str(auth["method"]): []}],
            "schemes": {str(auth["method"]): scheme},
            "optional": False,
        }
    from docsgen.openapi.render.playground import manual_inputs

    parameters, body = manual_inputs([p for p in params or [] if isinstance(p, dict) and p.get("name")])
    display = settings.playground_display
    if not server_list and display == "interactive":
        display = "simple"
    playground = {
        "kind": "manual",
        "method": method,
        "path": path,
        "servers": [{"url": s} for s in server_list],
        "security": security,
        "parameters": parameters,
        "body": body,
        "responses": [],
        "display": display,
        "proxy": settings.proxy,
        "prefill": settings.examples_prefill,
        "baseUrlDisplay": settings.base_url_display,
        "deprecated": False,
    }
    from docsgen.openapi.render.endpoint import endpoint_md
    from docsgen.openapi.render.operation_view import Server

    markdown = endpoint_md(method, path, tuple(Server(url=s) for s in server_list))
    if auth_md:
        markdown += f"\n\n## Authorizations\n\n{auth_md}"
    return RenderedApi(
        html=html,
        toc=toc,
        title=f"{method} {path}",
        playground=playground,
        markdown=markdown + "\n",
        search_html=html,
    )


def _auth_section(settings: ApiSettings, auth: dict | None) -> tuple[str, str, list[TocItem]]:
    """The Authorizations section from docs.json api.mdx.auth (same rows as generated pages), html and Markdown."""
    if not isinstance(auth, dict) or auth.get("method") not in _AUTH:
        return "", "", []
    kind, loc, default_name = _AUTH[auth["method"]]
    scheme: dict[str, Any] = {"type": "apiKey", "in": loc, "name": str(auth.get("name") or default_name)}
    if kind in ("bearer", "basic"):
        scheme = {"type": "http", "scheme": kind}
    field = auth_field(str(auth["method"]), scheme, [])
    ctx = RenderContext({}, settings, lambda text: f"<p>{esc(text)}</p>")
    rows, rows_md = render_auth(ctx, [[field]], False, Ids().claim)
    hid, heading = "api-authorizations", ctx.word("authorizations", "Authorizations")
    section = (
        f'<section class="dg-api-section" aria-labelledby="{hid}">'
        f'<h2 class="dg-api-heading" id="{hid}">{esc(heading)}</h2>{rows}</section>'
    )
    return section, rows_md, [TocItem(2, hid, heading)]
