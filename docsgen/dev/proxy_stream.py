"""The dev proxy's upstream side: send a request to an allowed server and stream its answer back, capped.

The answer is relayed in chunks as it arrives (memory stays one chunk, whatever the size). An answer whose
Content-Length is over MAX_RESPONSE_BYTES is refused before any byte (502 `upstream_too_large`); one without a
length goes to the browser chunked and, at the cap, ends without the last chunk: the browser's read of the body
fails instead of taking a truncated answer for the whole one."""

from __future__ import annotations

import http.client
import socket
import ssl
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from io import BufferedIOBase

from docsgen.dev.proxy import (
    DROP_REQUEST,
    DROP_RESPONSE,
    DROP_RESPONSE_PREFIXES,
    PLAYGROUND_COOKIE,
    ProxyError,
    ProxyPolicy,
    check_target,
    public_address,
)

MAX_RESPONSE_BYTES = 64 * 1024 * 1024  # bytes of one upstream answer relayed; past it the answer is cut
CHUNK = 64 * 1024  # bytes read from the upstream and written to the browser at a time
LIMIT_HEADER = "X-Docsgen-Proxy-Limit"  # tells the browser the cap, with every proxied answer


class UpstreamCut(Exception):
    """The upstream answer went past MAX_RESPONSE_BYTES (or broke off) while it was being relayed."""


@dataclass
class Upstream:
    """An upstream answer whose head is read and whose body is still on the wire."""

    status: int
    headers: list[tuple[str, str]]  # the headers the browser may see
    length: int | None  # Content-Length, when the upstream said (and it is within the cap)
    response: http.client.HTTPResponse
    conn: http.client.HTTPConnection
    target: str  # host:port, for messages
    method: str

    @property
    def has_body(self) -> bool:
        return self.method != "HEAD" and self.status not in (204, 304)

    def chunks(self) -> Iterator[bytes]:
        """The body, CHUNK bytes at a time; UpstreamCut past the cap or when the upstream breaks off."""
        total = 0
        try:
            while chunk := self.response.read1(CHUNK):  # what has arrived: a slow upstream streams too
                total += len(chunk)
                if total > MAX_RESPONSE_BYTES:
                    raise UpstreamCut(
                        f"{self.target} answered more than {MAX_RESPONSE_BYTES:,} bytes; the dev proxy cut it there"
                    )
                yield chunk
        except (OSError, http.client.HTTPException) as exc:
            raise UpstreamCut(f"{self.target} broke off its answer: {exc or type(exc).__name__}") from None

    def relay(self, out: BufferedIOBase) -> None:
        """Write the body to the browser (chunked when its length is unknown); UpstreamCut when it is cut."""
        if not self.has_body:
            return
        for chunk in self.chunks():
            out.write(chunk if self.length is not None else b"%x\r\n%s\r\n" % (len(chunk), chunk))
        if self.length is None:
            out.write(b"0\r\n\r\n")

    def read_all(self) -> bytes:
        """The whole body (at most the cap in memory); ProxyError past the cap."""
        try:
            return b"".join(self.chunks()) if self.has_body else b""
        except UpstreamCut as exc:
            raise ProxyError(502, "upstream_too_large", str(exc)) from None

    def close(self) -> None:
        self.conn.close()


def _request_headers(headers: list[tuple[str, str]]) -> dict[str, str]:
    # headers named in Connection are hop-by-hop too (RFC 9110 7.6.1)
    named = {t.strip().lower() for k, v in headers if k.lower() == "connection" for t in v.split(",")}
    out = {
        k: v
        for k, v in headers
        if k.lower() not in DROP_REQUEST and k.lower() not in named and k.lower() != PLAYGROUND_COOKIE
    }
    # Pages cannot set Cookie on a request, so the playground sends the API's cookies under its own name;
    # the local origin's own cookies are never forwarded.
    api_cookies = [v for k, v in headers if k.lower() == PLAYGROUND_COOKIE and v.strip()]
    if api_cookies:
        out["Cookie"] = "; ".join(api_cookies)
    return out


def open_upstream(
    method: str,
    url: str,
    headers: Iterable[tuple[str, str]],
    body: bytes | None,
    policy: ProxyPolicy,
    *,
    timeout: float = 30.0,
) -> Upstream:
    """Send the request to an allowed host and read the answer's head; raise ProxyError otherwise."""
    scheme, host, port, path, free = check_target(url, policy)
    out_headers = _request_headers(list(headers))
    address = public_address(host, port) if free else None
    conn: http.client.HTTPConnection
    if scheme == "https":
        conn = http.client.HTTPSConnection(host, port, timeout=timeout, context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
    if address is not None:  # connect to the address checked, not to what a second lookup may answer
        # (http.client's connection hook: private, not in typeshed)
        conn._create_connection = lambda _, *args: socket.create_connection((address, port), *args)  # type: ignore[attr-defined]
    try:
        conn.request(method, path, body=body, headers=out_headers)
        response = conn.getresponse()
    except (OSError, http.client.HTTPException) as exc:
        conn.close()
        reason = str(exc) or type(exc).__name__
        raise ProxyError(
            502, "upstream_failed", f"could not reach {host}:{port}: {reason}", url=url
        ) from None
    if response.length is not None and response.length > MAX_RESPONSE_BYTES:
        conn.close()
        raise ProxyError(
            502,
            "upstream_too_large",
            f"{host}:{port} answers {response.length:,} bytes, more than the dev proxy relays "
            f"({MAX_RESPONSE_BYTES:,})",
            url=url,
        )
    kept = [(k, v) for k, v in response.getheaders() if _kept_response_header(k)]
    return Upstream(response.status, kept, response.length, response, conn, f"{host}:{port}", method.upper())


def forward(
    method: str,
    url: str,
    headers: Iterable[tuple[str, str]],
    body: bytes | None,
    policy: ProxyPolicy,
    *,
    timeout: float = 30.0,
) -> tuple[int, list[tuple[str, str]], bytes]:
    """Send the request and read the whole answer: (status, headers, body), or ProxyError (over the cap too)."""
    upstream = open_upstream(method, url, headers, body, policy, timeout=timeout)
    try:
        return upstream.status, upstream.headers, upstream.read_all()
    finally:
        upstream.close()


def _kept_response_header(name: str) -> bool:
    """Tell whether an upstream response header reaches the browser (no hop-by-hop, cookie or CORS header)."""
    lower = name.lower()
    return lower not in DROP_RESPONSE and not lower.startswith(DROP_RESPONSE_PREFIXES)
