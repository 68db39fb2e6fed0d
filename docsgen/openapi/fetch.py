"""Download a spec by URL within one total deadline (connect, headers and body together), and a size limit.

A per-read socket timeout alone lets a server that sends one byte every few seconds hold a build forever: here a
watchdog shuts the connection down when the deadline passes, whatever the transfer is doing.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from docsgen.openapi.load import LoadProblem

USER_AGENT = "docsgen-openapi/1"


class _Watchdog:
    """Shuts down every socket opened for one download when its deadline passes."""

    def __init__(self, deadline: float):
        self.deadline = deadline
        self.fired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._fire)
        self._timer.daemon = True

    def start(self) -> None:
        self._timer.start()

    def add(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self.fired:
                _shutdown(sock)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            for sock in self._sockets:
                _shutdown(sock)

    def cancel(self) -> None:
        self._timer.cancel()

    def remaining(self) -> float:
        return max(0.001, self.deadline - time.monotonic())


def _shutdown(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


def _handlers(watchdog: _Watchdog) -> list[Any]:
    """Return urllib handlers whose connections register their socket with the watchdog."""

    class Http(http.client.HTTPConnection):
        def connect(self) -> None:
            self.timeout = watchdog.remaining()
            super().connect()
            watchdog.add(self.sock)

    class Https(http.client.HTTPSConnection):
        def connect(self) -> None:
            self.timeout = watchdog.remaining()
            super().connect()
            watchdog.add(self.sock)

    class HttpHandler(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> Any:
            return self.do_open(Http, req)

    class HttpsHandler(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> Any:
            # HTTPSHandler keeps its SSL context in _context (not in typeshed)
            return self.do_open(Https, req, context=self._context)  # type: ignore[attr-defined]

    return [HttpHandler(), HttpsHandler()]


def fetch_url(url: str, *, timeout: float, max_bytes: int) -> bytes:
    """Download a spec, refusing non-2xx answers, bodies over max_bytes and transfers longer than `timeout` s."""
    request = urllib.request.Request(
        url, headers={"User-Agent": USER_AGENT, "Accept": "application/json, */*"}
    )
    watchdog = _Watchdog(time.monotonic() + timeout)
    opener = urllib.request.build_opener(*_handlers(watchdog))
    late = LoadProblem("openapi.network", f"fetching the spec took longer than {timeout:g} s in total")
    watchdog.start()
    try:
        with opener.open(request, timeout=timeout) as response:
            length = response.headers.get("Content-Length")
            if length and length.isdigit() and int(length) > max_bytes:
                raise LoadProblem(
                    "openapi.too-big", f"spec is {int(length):,} bytes, over the {max_bytes:,}-byte limit"
                )
            chunks, size = [], 0
            while chunk := response.read1(1 << 16):
                size += len(chunk)
                if size > max_bytes:
                    raise LoadProblem("openapi.too-big", f"spec is over the {max_bytes:,}-byte limit")
                chunks.append(chunk)
            if watchdog.fired:
                raise late
            return b"".join(chunks)
    except LoadProblem:
        raise
    except urllib.error.HTTPError as exc:
        raise LoadProblem(
            "openapi.http-status", f"fetching the spec answered HTTP {exc.code} {exc.reason}"
        ) from None
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        if watchdog.fired or isinstance(exc, TimeoutError):
            raise late from None
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc.__class__.__name__
        if isinstance(reason, TimeoutError):
            raise late from None
        raise LoadProblem("openapi.network", f"could not fetch the spec: {reason}") from None
    finally:
        watchdog.cancel()
