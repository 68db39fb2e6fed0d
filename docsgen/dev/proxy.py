"""The playground proxy of `docsgen dev`: forward requests to the hosts the site's OpenAPI specs name, and no others.

OAuth 2.0 token endpoints (`tokenUrl`, `refreshUrl` of the specs' flows) are allowed too: authorization servers
rarely answer CORS, so the playground's token requests go through here.

The allow-list: every (scheme, host, port) a server URL names, in the specs the site uses (files and the
playground data of generated pages), in docs.json `api.mdx.server` and in pages' `api:` frontmatter. A server
variable stands for its `enum` and `default` values. A variable with neither is free: it may only fill labels in
front of a fixed domain of two labels or more (`https://{tenant}.example.com`), and a host reached that way
must resolve to public addresses only (the connection goes to the address checked). A free variable anywhere
else (`http://{host}`, `https://api.{domain}`) allows nothing: it would open every host, `http://metadata/` and
169.254.169.254 included.
"""

from __future__ import annotations

import ipaddress
import itertools
import json
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

import yaml

if TYPE_CHECKING:
    from docsgen.site.read import Site

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
# The upstream's CORS answer is for its own origin, never for this one: a page on another site must not be
# told it may read the proxy's replies (access-control-* headers are dropped by prefix).
DROP_RESPONSE = HOP_BY_HOP | {
    "content-length",
    "set-cookie",
    "set-cookie2",
    "timing-allow-origin",
    "cross-origin-resource-policy",
}
DROP_RESPONSE_PREFIXES = ("access-control-",)
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
    free: bool = False  # the host comes from a free variable: it must resolve to public addresses

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
    refs: list[str] = list(_spec_sources(site.config.api.openapi))
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
        schemes = found if isinstance(found := spec.get("schemes"), list) else ["https"]
        lists.append([{"url": f"{s}://{host}"} for s in schemes if isinstance(s, str)])
    for servers in lists:
        if isinstance(servers, list):
            yield from (s for s in servers if isinstance(s, dict) and isinstance(s.get("url"), str))


def _token_urls(schemes: Any) -> Iterator[str]:
    """Yield the absolute OAuth 2.0 token and refresh URLs of security schemes (the playground's token requests)."""
    for scheme in schemes.values() if isinstance(schemes, dict) else []:
        if not isinstance(scheme, dict):
            continue
        flows = scheme.get("flows")
        # OpenAPI 3 nests each flow under `flows`; Swagger 2.0 puts tokenUrl on the scheme itself
        for flow in [*(flows.values() if isinstance(flows, dict) else []), scheme]:
            for key in ("tokenUrl", "refreshUrl"):
                url = flow.get(key) if isinstance(flow, dict) else None
                if isinstance(url, str) and "://" in url:
                    yield url


def spec_token_urls(spec: Any) -> Iterator[str]:
    """Yield the token URLs a spec's OAuth 2.0 flows name (OpenAPI 3 components, Swagger 2.0 definitions)."""
    if not isinstance(spec, dict):
        return
    components = spec.get("components")
    if isinstance(components, dict):
        yield from _token_urls(components.get("securitySchemes"))
    yield from _token_urls(spec.get("securityDefinitions"))


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
        host = parts.hostname
        free = _PLACEHOLDER in host
        if free and not _free_host_allowed(host):
            continue
        pattern = "[a-z0-9-]+".join(re.escape(p) for p in host.split(_PLACEHOLDER))
        rules.append(HostRule(scheme, re.compile(pattern), port or _DEFAULT_PORTS[scheme], url, free))
    return rules


def _free_host_allowed(host: str) -> bool:
    """Tell whether free variables in a host only fill labels in front of a fixed domain (two labels or more)."""
    labels = host.split(".")
    fixed = list(itertools.takewhile(lambda label: _PLACEHOLDER not in label, reversed(labels)))
    return len(fixed) >= 2 and all(fixed) and not fixed[0].isdigit()


def refused_servers(url: str, variables: Any = None) -> bool:
    """Tell whether a server URL has a free variable where the proxy refuses one (so it allows nothing)."""
    for text in _expansions(url.strip(), variables):
        try:
            host = urlsplit(text).hostname or ""
        except ValueError:
            continue
        if _PLACEHOLDER in host and not _free_host_allowed(host):
            return True
    return False


@dataclass
class ProxyPolicy:
    """What the proxy forwards to: the allowed origins, and the server URLs refused for their free variables."""

    rules: list[HostRule] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def proxy_policy(site: Site | None) -> ProxyPolicy:
    """Return the origins the site's servers name, and the server URLs whose free variables allow nothing."""
    if site is None:
        return ProxyPolicy()
    servers: list[dict] = []
    for path in spec_files(site):
        spec = _load(path)
        servers += list(_servers_of(spec))
        servers += [{"url": url} for url in spec_token_urls(spec)]
    for page in site.pages.values():
        data = page.content.api_data if page.content else None
        if isinstance(data, dict):
            found = data.get("servers") or (data.get("playground") or {}).get("servers")
            if isinstance(found, list):
                servers += [s for s in found if isinstance(s, dict) and isinstance(s.get("url"), str)]
            security = data.get("security")
            if isinstance(security, dict):
                servers += [{"url": url} for url in _token_urls(security.get("schemes"))]
    for url in (*site.config.api.base_urls, *site.config.api.mdx.servers):
        servers.append({"url": url})
    policy = ProxyPolicy()
    for server in servers:
        for rule in rules_for(server["url"], server.get("variables")):
            if rule not in policy.rules:
                policy.rules.append(rule)
        if refused_servers(server["url"], server.get("variables")) and server["url"] not in policy.refused:
            policy.refused.append(server["url"])
    return policy


class ProxyError(Exception):
    """A refused or failed proxy request: HTTP status and a JSON body saying why."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"error": code, "message": message, **extra}


def check_target(url: str, policy: ProxyPolicy) -> tuple[str, str, int, str, bool]:
    """Return (scheme, host, port, path+query, free) of an allowed target URL; raise ProxyError otherwise.

    `free` tells that only a free server variable allows the host: it must then resolve to public addresses.
    """
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
    matching = [rule for rule in policy.rules if rule.allows(scheme, host, port)]
    if not matching:
        message = (
            f"{scheme}://{host}:{port} is not a server of this site's OpenAPI specs; the dev proxy only "
            "forwards to those"
        )
        if policy.refused:
            message += (
                f" (the host of {', '.join(policy.refused)} is a server variable without `enum` or `default`: "
                "give the variable the values it may take)"
            )
        raise ProxyError(403, "host_not_allowed", message, allowed=sorted({r.source for r in policy.rules}))
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    # percent-encode what an HTTP request line cannot hold (non-ASCII, spaces, controls); %XX is kept
    path = quote(path, safe="!#$%&'()*+,/:;=?@[]~")
    return scheme, host, port, path, all(rule.free for rule in matching)


def public_address(host: str, port: int) -> str:
    """Resolve a host allowed by a free variable; return its address, or raise ProxyError if one is not public."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ProxyError(502, "upstream_failed", f"could not resolve {host}: {exc}") from None
    addresses = [str(info[4][0]) for info in infos]
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not ip.is_global:
            raise ProxyError(
                403,
                "host_not_allowed",
                f"{host} resolves to {address}, a loopback, private or link-local address: a host that only a "
                "free server variable allows must be a public one (name it literally in the spec's servers to "
                "reach it)",
            )
    if not addresses:
        raise ProxyError(502, "upstream_failed", f"could not resolve {host}")
    return addresses[0]
