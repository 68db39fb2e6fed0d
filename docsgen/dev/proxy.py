"""The playground proxy of `docsgen dev`: forward requests to the hosts the site's OpenAPI specs name, and no others."""

from __future__ import annotations

import http.client
import itertools
import json
import re
import ssl
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import yaml

if TYPE_CHECKING:
    from docsgen.build import Site

PROXY_PATH = "/__docsgen/proxy"
# RFC 9110 hop-by-hop headers, plus what the proxy sets itself or must not leak from the local origin.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "trailers",
        "transfer-encoding",
        "upgrade",
    }
)
DROP_REQUEST = HOP_BY_HOP | {"host", "content-length", "origin", "referer", "cookie", "accept-encoding"}
PLAYGROUND_COOKIE = "x-docsgen-cookie"
DROP_RESPONSE = HOP_BY_HOP | {"content-length", "set-cookie", "set-cookie2"}
_PLACEHOLDER = "docsgenvarplaceholder"
_DEFAULT_PORTS = {"http": 80, "https": 443}
MAX_EXPANSIONS = 64


@dataclass(frozen=True)
class HostRule:
    """One allowed origin: scheme, host (a pattern when a server variable is free) and port."""

    scheme: str
    host: re.Pattern[str]
    port: int
    source: str  # the server URL as written, for messages

    def allows(self, scheme: str, host: str, port: int) -> bool:
        """Tell whether a request origin matches this rule."""
        return scheme == self.scheme and port == self.port and bool(self.host.fullmatch(host))


def _spec_sources(value: Any) -> Iterator[str]:
    """Yield spec locations from an `openapi` field: string, list, or {source}."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _spec_sources(item)
    elif isinstance(value, dict) and isinstance(value.get("source"), str):
        yield value["source"]


def _walk_openapi_fields(node: Any) -> Iterator[Any]:
    """Yield every `openapi` value found in the navigation."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "openapi":
                yield value
            else:
                yield from _walk_openapi_fields(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk_openapi_fields(item)


def spec_files(site: Site) -> list[Path]:
    """Return the local OpenAPI files named by docs.json and by pages' `openapi` frontmatter."""
    refs: list[str] = list(_spec_sources(site.config.api.get("openapi")))
    raw = site.config.raw if isinstance(site.config.raw, dict) else {}
    for value in _walk_openapi_fields(raw.get("navigation")):
        refs += list(_spec_sources(value))
    for page in site.pages.values():
        value = page.meta.get("openapi")
        if isinstance(value, str) and value.split():
            first = value.split()[0]
            if first.lower().endswith((".json", ".yaml", ".yml")):
                refs.append(first)
    out: list[Path] = []
    root = site.docs_dir.resolve()
    for ref in refs:
        if "://" in ref:
            continue  # remote specs: their servers arrive through the generated pages
        path = (root / ref.lstrip("/")).resolve()
        if path.is_relative_to(root) and path.is_file() and path not in out:
            out.append(path)
    return out


def _load(path: Path) -> Any:
    """Read a spec file as data; an unreadable spec simply names no hosts."""
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix.lower() == ".json":
            return json.loads(text)
        return yaml.load(text, Loader=yaml.CSafeLoader)
    except (OSError, ValueError, yaml.YAMLError):
        return None


def _servers_of(spec: Any) -> Iterator[dict]:
    """Yield the server objects of a spec: top level, path items and operations."""
    if not isinstance(spec, dict):
        return
    lists = [spec.get("servers")]
    paths = spec.get("paths")
    if isinstance(paths, dict):
        for item in paths.values():
            if isinstance(item, dict):
                lists.append(item.get("servers"))
                lists += [op.get("servers") for op in item.values() if isinstance(op, dict)]
    host = spec.get("host")  # Swagger 2.0
    if isinstance(host, str):
        schemes = spec.get("schemes") if isinstance(spec.get("schemes"), list) else ["https"]
        lists.append([{"url": f"{s}://{host}"} for s in schemes if isinstance(s, str)])
    for servers in lists:
        if isinstance(servers, list):
            yield from (s for s in servers if isinstance(s, dict) and isinstance(s.get("url"), str))


def _expansions(url: str, variables: Any) -> Iterator[str]:
    """Yield the server URL with every variable replaced by its enum or default values (a placeholder if free)."""
    variables = variables if isinstance(variables, dict) else {}
    names = re.findall(r"\{([^{}]+)\}", url)
    choices = []
    for name in names:
        var = variables.get(name) if isinstance(variables.get(name), dict) else {}
        values = [v for v in (var.get("enum") or []) if isinstance(v, str | int)]
        if isinstance(var.get("default"), str | int):
            values.append(var["default"])
        choices.append(sorted({str(v) for v in values}) or [_PLACEHOLDER])
    for combo in itertools.islice(itertools.product(*choices), MAX_EXPANSIONS):
        text = url
        for name, value in zip(names, combo, strict=True):
            text = text.replace("{" + name + "}", value, 1)
        yield text


def rules_for(url: str, variables: Any = None) -> list[HostRule]:
    """Return the origins a server URL allows; relative URLs (served by the docs host) allow none."""
    rules = []
    for text in _expansions(url.strip(), variables):
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError:
            continue
        scheme = parts.scheme.lower()
        if scheme not in _DEFAULT_PORTS or not parts.hostname:
            continue
        pattern = "[a-z0-9-]+".join(re.escape(p) for p in parts.hostname.split(_PLACEHOLDER))
        rules.append(HostRule(scheme, re.compile(pattern), port or _DEFAULT_PORTS[scheme], url))
    return rules


def allowed_rules(site: Site | None) -> list[HostRule]:
    """Return every origin the site's specs (files, and the playground data of generated pages) name."""
    if site is None:
        return []
    servers: list[dict] = []
    for path in spec_files(site):
        servers += list(_servers_of(_load(path)))
    for page in site.pages.values():
        data = page.meta.get("__api_data")
        if isinstance(data, dict):
            found = data.get("servers") or (data.get("playground") or {}).get("servers")
            if isinstance(found, list):
                servers += [s for s in found if isinstance(s, dict) and isinstance(s.get("url"), str)]
    base = site.config.api.get("baseUrl")
    for url in base if isinstance(base, list) else [base]:
        if isinstance(url, str):
            servers.append({"url": url})
    rules: list[HostRule] = []
    for server in servers:
        for rule in rules_for(server["url"], server.get("variables")):
            if rule not in rules:
                rules.append(rule)
    return rules


class ProxyError(Exception):
    """A refused or failed proxy request: HTTP status and a JSON body saying why."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"error": code, "message": message, **extra}


def check_target(url: str, rules: Iterable[HostRule]) -> tuple[str, str, int, str]:
    """Return (scheme, host, port, path+query) of an allowed target URL; raise ProxyError otherwise."""
    if not url:
        raise ProxyError(
            400, "missing_url", f"pass the target as {PROXY_PATH}?url=https://api.example.com/path"
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ProxyError(400, "bad_url", f"not a valid URL: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise ProxyError(400, "bad_url", "only absolute http:// and https:// URLs can be proxied")
    host = parts.hostname.lower()
    port = port or _DEFAULT_PORTS[scheme]
    rules = list(rules)
    if not any(rule.allows(scheme, host, port) for rule in rules):
        allowed = sorted({r.source for r in rules})
        raise ProxyError(
            403,
            "host_not_allowed",
            f"{scheme}://{host}:{port} is not a server of this site's OpenAPI specs; the dev proxy only "
            "forwards to those",
            allowed=allowed,
        )
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return scheme, host, port, path


def forward(
    method: str,
    url: str,
    headers: Iterable[tuple[str, str]],
    body: bytes | None,
    rules: Iterable[HostRule],
    *,
    timeout: float = 30.0,
) -> tuple[int, list[tuple[str, str]], bytes]:
    """Send the request to an allowed host; return (status, headers, body) or raise ProxyError."""
    scheme, host, port, path = check_target(url, rules)
    headers = list(headers)
    # headers named in Connection are hop-by-hop too (RFC 9110 7.6.1)
    named = {t.strip().lower() for k, v in headers if k.lower() == "connection" for t in v.split(",")}
    out_headers = {
        k: v
        for k, v in headers
        if k.lower() not in DROP_REQUEST and k.lower() not in named and k.lower() != PLAYGROUND_COOKIE
    }
    # Pages cannot set Cookie on a request, so the playground sends the API's cookies under its own name;
    # the local origin's own cookies are never forwarded.
    api_cookies = [v for k, v in headers if k.lower() == PLAYGROUND_COOKIE and v.strip()]
    if api_cookies:
        out_headers["Cookie"] = "; ".join(api_cookies)
    conn: http.client.HTTPConnection
    if scheme == "https":
        conn = http.client.HTTPSConnection(host, port, timeout=timeout, context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=out_headers)
        response = conn.getresponse()
        data = response.read()
        kept = [(k, v) for k, v in response.getheaders() if k.lower() not in DROP_RESPONSE]
        return response.status, kept, data
    except (OSError, http.client.HTTPException) as exc:
        reason = str(exc) or type(exc).__name__
        raise ProxyError(
            502, "upstream_failed", f"could not reach {host}:{port}: {reason}", url=url
        ) from None
    finally:
        conn.close()
