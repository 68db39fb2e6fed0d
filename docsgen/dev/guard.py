"""Which requests `docsgen dev` answers: the Host a browser asked for, and where a request to its endpoints came from.

Two attacks this stops, both from an ordinary web page the developer happens to visit while the dev server runs:

- DNS rebinding: `evil.example` first resolves to the attacker, then to 127.0.0.1; the page then reads the
  preview (and uses its proxy) as if it were its own origin. The browser still sends `Host: evil.example`,
  so only requests for the names of this machine are answered.
- Cross-origin use of the proxy and the event stream: a page on any other origin (another site, or another
  local server such as `localhost:8080`) could send requests through the proxy. A browser says where a request
  comes from (`Origin`, `Sec-Fetch-Site`, `Referer`): only the preview itself may use `/__docsgen/` endpoints.

The port of the Host header is not compared: a browser can only reach this socket on another port through a
forwarder the developer set up (`docker -p 8080:3000`, `ssh -L`), and the Origin check compares the full origin.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
# Sec-Fetch-Site values of requests the preview's own pages make ("none": the developer typed the URL).
OWN_FETCH_SITES = frozenset({"same-origin", "none"})


def host_name(value: str) -> str | None:
    """Return the lower-case host name of a Host header (`[::1]:3000` -> `::1`), or None when malformed."""
    try:
        parts = urlsplit("//" + value.strip())
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return None
    if parts.username is not None or parts.path or parts.query or parts.fragment:
        return None
    return (parts.hostname or "").rstrip(".").lower() or None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class HostGuard:
    """The host names this server answers to: its address, the loopback names and any names allowed on purpose."""

    bound: str  # the address the server listens on, as given (--host)
    allowed: frozenset[str] = field(default_factory=frozenset)  # --allow-host names
    any_ip: bool = False  # listening on every interface (0.0.0.0 / ::): any address of this machine is fine

    @classmethod
    def for_address(cls, bound: str, actual: str, extra: Iterable[str] = ()) -> HostGuard:
        """Build the guard for a server listening on `bound` (as given) and `actual` (as bound)."""
        names = set(LOOPBACK_NAMES) | {bound.strip("[]").lower(), actual.lower()}
        names |= {name.strip().strip("[]").rstrip(".").lower() for name in extra if name.strip()}
        wildcard = _is_ip(actual) and ipaddress.ip_address(actual).is_unspecified
        if wildcard:
            names.add(socket.gethostname().lower())
        return cls(bound, frozenset(names), wildcard)

    def allows(self, host_header: str | None) -> bool:
        """Tell whether a request for this Host may be answered (no Host at all: not a browser, answered)."""
        if host_header is None:
            return True
        name = host_name(host_header)
        if name is None:
            return False
        if name in self.allowed:
            return True
        # An address cannot be rebound: a browser that sends one reached this machine by that address.
        return self.any_ip and _is_ip(name)

    def refusal(self, host_header: str) -> str:
        """Explain a refused Host to whoever reads the response (and how to allow a name on purpose)."""
        names = ", ".join(sorted(n if ":" not in n else f"[{n}]" for n in self.allowed))
        return (
            f"docsgen dev refused this request: it was sent for the host '{host_header}', but this preview only "
            f"answers to {names}. A web page on another site may be trying to read it through DNS rebinding. "
            "Open the preview by one of those names, or pass --allow-host NAME to docsgen dev to allow another.\n"
        )


def _origin_of(url: str) -> str | None:
    """Return scheme://host[:port] of a URL, lower-cased, or None."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return None
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}".lower()


def same_origin_problem(headers: dict[str, str], host_header: str | None) -> str | None:
    """Return why a request to a /__docsgen/ endpoint is not from the preview's own pages, or None if it is.

    `headers` maps lower-case header names to values. The preview's origin is http:// plus the Host the browser
    sent. A browser names the requesting origin in `Origin` (every cross-origin request, every same-origin
    request but GET/HEAD), else in `Sec-Fetch-Site`; older browsers send a `Referer`. A request with none of
    them does not come from a web page (curl, scripts): it is answered.
    """
    own = f"http://{host_header}".lower() if host_header else None
    origin = headers.get("origin")
    if origin is not None:
        if own is not None and origin.strip().lower() == own:
            return None
        return f"the request comes from the page origin '{origin}', not from this preview ({own})"
    site = headers.get("sec-fetch-site")
    if site is not None:
        if site.strip().lower() in OWN_FETCH_SITES:
            return None
        return f"the browser says the request comes from another site (Sec-Fetch-Site: {site})"
    referer = headers.get("referer")
    if referer is not None and referer.strip():
        if own is not None and _origin_of(referer.strip()) == own:
            return None
        return f"the request comes from the page '{referer}', not from this preview ({own})"
    return None
