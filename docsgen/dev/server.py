"""The dev HTTP server: the last complete build from memory, live-reload events, error pages and the proxy."""

from __future__ import annotations

import errno
import hashlib
import json
import mimetypes
import os
import socket
import stat
from collections.abc import Iterable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from docsgen.common.errors import DocsgenError
from docsgen.config.analytics import without_integrations
from docsgen.dev import proxy_stream
from docsgen.dev.background import is_late
from docsgen.dev.client import EVENTS_PATH, inject
from docsgen.dev.errorpage import error_page
from docsgen.dev.guard import HostGuard, same_origin_problem
from docsgen.dev.hub import ReloadHub
from docsgen.dev.incremental import BuildCancelled, DevSite
from docsgen.dev.negotiate import twin_of, wants_markdown
from docsgen.dev.proxy import PROXY_PATH, ProxyError, ProxyPolicy, proxy_policy
from docsgen.dev.proxy_stream import LIMIT_HEADER, UpstreamCut, open_upstream
from docsgen.dev.snapshot import OnRequest, Snapshot
from docsgen.engine.write import Claimed

PING_SECONDS = 15.0
MAX_BODY = 32 * 1024 * 1024
STATUS_PATH = "/__docsgen/status"
INTERNAL_PREFIX = "/__docsgen/"
CHUNKED = ("Transfer-Encoding", "chunked")
# Sent with every /__docsgen/ answer: no other origin may embed it, no browser may run it as a document.
INTERNAL_HEADERS = {
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox",
}


class DevHTTPServer(ThreadingHTTPServer):
    """A threading server whose handler threads never keep the process alive."""

    daemon_threads = True
    allow_reuse_address = False  # a second dev server on the same port must fail loudly

    def __init__(
        self, address: tuple[str, int], dev: DevSite, hub: ReloadHub, allow_hosts: Iterable[str] = ()
    ) -> None:
        self.dev = dev
        self.hub = hub
        self.policy = ProxyPolicy()
        self.integrations = (
            False  # keep docs.json integrations in served pages (docsgen dev --with-integrations)
        )
        self._rules_generation = -1
        if ":" in address[0]:
            self.address_family = socket.AF_INET6  # --host ::1
        super().__init__(address, DevHandler)
        self.guard = HostGuard.for_address(address[0], str(self.server_address[0]), allow_hosts)

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), self.server_address[1]
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{port}/"

    def proxy_policy(self) -> ProxyPolicy:
        """Return the allowed proxy hosts, read again after each full rebuild (specs change only then)."""
        with self.dev.turns:  # the site is not being rebuilt while we read it
            if self.dev.full_builds != self._rules_generation:
                self.policy = proxy_policy(self.dev.site)
                self._rules_generation = self.dev.full_builds
            return self.policy

    def shutdown(self) -> None:
        self.hub.close()
        super().shutdown()

    def handle_error(self, request, client_address) -> None:
        """Stay quiet when a browser drops a connection (a reload cancels the page it was loading)."""
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


def bind(
    host: str,
    port: int,
    dev: DevSite,
    hub: ReloadHub,
    *,
    next_free: bool = False,
    tries: int = 20,
    allow_hosts: Iterable[str] = (),
) -> DevHTTPServer:
    """Bind the server; a taken port is a clear user error (or, with next_free, the next port is tried)."""
    last = port + (tries if next_free and port else 1)
    for candidate in range(port, max(last, port + 1)):
        try:
            return DevHTTPServer((host, candidate), dev, hub, allow_hosts)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                continue
            raise DocsgenError(f"cannot listen on {host}:{candidate}: {exc.strerror or exc}") from None
    if next_free:
        raise DocsgenError(
            f"ports {port} to {last - 1} on {host} are all in use; pass --port with a free port"
        )
    raise DocsgenError(
        f"port {port} on {host} is already in use (another docsgen dev?); stop that server, pass --port N, "
        "or add --next-free-port to use the next free port"
    )


def _safe_relative(url_path: str) -> str | None:
    """Return the site-relative file a URL path names, or None when it tries to leave the site."""
    path = unquote(url_path)
    if "\x00" in path or "\\" in path or not path.startswith("/"):
        return None
    segments = path.split("/")
    if any(s in ("..", ".") for s in segments):
        return None
    rel = path.lstrip("/")
    if rel == "" or rel.endswith("/"):
        rel += "index.html"
    return rel


def read_inside(path: Path, docs_dir: Path) -> bytes | None:
    """A static file's bytes when it is, now, a regular file inside the docs folder (links resolved), else None:
    the file may have been replaced by a link to an outside file since the build listed it."""
    if not path.is_relative_to(docs_dir):  # a page rendered into the dev server's store, a theme asset
        return _read(path) if path.is_file() else None
    try:
        real = os.path.realpath(path)
        if not Path(real).is_relative_to(os.path.realpath(docs_dir)):
            return None
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            return handle.read()
    except OSError:
        return None


def _read(path: Path) -> bytes:
    """Return a file's bytes, or empty bytes when it vanished since the build."""
    try:
        return path.read_bytes()
    except OSError:
        return b""


class DevHandler(BaseHTTPRequestHandler):
    """Answer page, asset, event-stream, status and proxy requests."""

    server: DevHTTPServer
    server_version = "docsgen-dev"
    protocol_version = "HTTP/1.1"  # keep-alive: a reload fetches the page and its assets on one connection
    # Headers and body go out as separate small writes: without TCP_NODELAY the body of an answer on a reused
    # connection waits for the client's delayed acknowledgement (about 40 ms a request).
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - signature of the base class
        """Stay quiet: the terminal is for build results."""

    # -- dispatch ---------------------------------------------------------------------------------
    def do_GET(self) -> None:
        if self._welcome():
            self._dispatch(head=False)

    def do_HEAD(self) -> None:
        if self._welcome():
            self._dispatch(head=True)

    def do_POST(self) -> None:
        if self._welcome():
            self._proxy_or_refuse()

    def _welcome(self) -> bool:
        """Answer 403 (and tell the caller to stop) unless the request is for this preview, from this preview.

        Every request must name one of this machine's hosts (DNS rebinding); requests to the /__docsgen/
        endpoints (proxy, events, status) must also come from the preview's own pages.
        """
        host = self.headers.get("Host")
        if not self.server.guard.allows(host):
            self.close_connection = True  # an unread request body must not be taken for the next request
            refusal = self.server.guard.refusal(str(host)).encode()
            nosniff = {"X-Content-Type-Options": "nosniff"}
            self._send(
                HTTPStatus.FORBIDDEN,
                refusal,
                "text/plain; charset=utf-8",
                nosniff,
                head=self.command == "HEAD",
            )
            return False
        if not urlsplit(self.path).path.startswith(INTERNAL_PREFIX):
            return True
        headers = {key.lower(): value for key, value in self.headers.items()}
        problem = same_origin_problem(headers, host)
        if problem is None:
            return True
        self.close_connection = True
        message = f"docsgen dev only answers {INTERNAL_PREFIX} requests from its own pages: {problem}"
        body = json.dumps({"error": "cross_origin", "message": message}).encode()
        self._send(HTTPStatus.FORBIDDEN, body, "application/json", INTERNAL_HEADERS)
        return False

    do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_POST

    def _proxy_or_refuse(self) -> None:
        if urlsplit(self.path).path == PROXY_PATH:
            self._proxy()
        else:
            self._send(
                HTTPStatus.METHOD_NOT_ALLOWED, b"method not allowed\n", "text/plain", {"Allow": "GET, HEAD"}
            )

    def _dispatch(self, *, head: bool) -> None:
        path = urlsplit(self.path).path
        if path == EVENTS_PATH:
            self._events()
        elif path == PROXY_PATH:
            self._proxy()
        elif path == STATUS_PATH:
            self._status()
        else:
            self._serve(path, head=head)

    # -- responses --------------------------------------------------------------------------------
    def _send(
        self, status: int, body: bytes, ctype: str, headers: dict | None = None, *, head: bool = False
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        headers = {"Cache-Control": "no-store", **(headers or {})}
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _html(
        self, status: int, html: bytes, snapshot: Snapshot, *, head: bool = False, vary: bool = False
    ) -> None:
        if not self.server.integrations:
            html = without_integrations(html)
        page = inject(
            html,
            snapshot.generation,
            PROXY_PATH,
            snapshot.nav_versions,
            self.server.hub.run,
            (snapshot.static_version, snapshot.asset_version),
        )
        self._send(status, page, "text/html; charset=utf-8", {"Vary": "Accept"} if vary else None, head=head)

    def _serve(self, url_path: str, *, head: bool) -> None:
        dev = self.server.dev
        snapshot = dev.snapshot
        rel = _safe_relative(url_path)
        if rel is None:
            self._send(
                HTTPStatus.BAD_REQUEST, b"bad path: it leaves the site folder\n", "text/plain", head=head
            )
            return
        is_page = rel.endswith(".html") and not rel.startswith("_nav/")
        if snapshot.site_errors and (is_page or rel not in snapshot.files):
            self._html(500, error_page(snapshot.site_errors, self.server.dev.docs_dir), snapshot, head=head)
            return
        content = snapshot.files.get(rel)
        if isinstance(content, Claimed | OnRequest):  # a page not rendered yet (llms.txt): make it now
            try:
                snapshot = dev.render_claimed(rel)
            except BuildCancelled:
                self._send(503, b"the server is stopping\n", "text/plain", head=head)
                return
            content = snapshot.files.get(rel)
        if is_page and rel in snapshot.page_errors:
            self._html(500, error_page(snapshot.page_errors[rel], dev.docs_dir), snapshot, head=head)
            return
        if content is None and f"{rel}/index.html" in snapshot.files:
            query = urlsplit(self.path).query
            target = url_path + "/" + (f"?{query}" if query else "")
            self._send(HTTPStatus.MOVED_PERMANENTLY, b"", "text/plain", {"Location": target}, head=head)
            return
        if content is None and is_late(rel) and dev.background and not dev.background.done.is_set():
            body = b"docsgen dev is still rendering the site: this file is made once every page is rendered\n"
            self._send(503, body, "text/plain; charset=utf-8", {"Retry-After": "5"}, head=head)
            return
        if content is None or isinstance(content, Claimed | OnRequest):
            not_found = snapshot.files.get("404.html")
            if isinstance(not_found, bytes):
                self._html(404, not_found, snapshot, head=head)
            else:
                self._send(404, b"not found\n", "text/plain", head=head)
            return
        if isinstance(content, Path):
            found = read_inside(content, dev.docs_dir)
            if found is None:  # replaced by a link leading out, or by something not a file, since the build
                self._send(404, b"not found\n", "text/plain", head=head)
                return
            data = found
        else:
            data = content
        if is_page:
            twin = snapshot.files.get(twin_of(rel) or "")
            if isinstance(twin, Claimed | OnRequest):  # rendered with its page: only a page claims it
                twin = None
            if twin is not None and wants_markdown(self.headers.get("Accept")):
                # An agent asking for Markdown gets the page's twin, as Mintlify answers (docs: markdown-for-agents)
                text = twin if isinstance(twin, bytes) else _read(twin)
                self._send(200, text, "text/markdown; charset=utf-8", {"Vary": "Accept"}, head=head)
                return
            self._html(200, data, snapshot, head=head, vary=twin is not None)
            return
        ctype = mimetypes.guess_type(rel)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype in ("application/javascript", "application/json"):
            ctype += "; charset=utf-8"
        # Theme assets asked for by their current version never change: a reload needs no request for them.
        # Everything else is revalidated on every use (an edit shows at once; unchanged costs a 304).
        version = parse_qs(urlsplit(self.path).query).get("v", [""])[0]
        if rel.startswith("_static/") and version and version == snapshot.asset_version:
            self._send(200, data, ctype, {"Cache-Control": "max-age=31536000, immutable"}, head=head)
            return
        etag = '"' + hashlib.blake2b(data, digest_size=12).hexdigest() + '"'
        cache = {"Cache-Control": "no-cache", "ETag": etag}
        if etag in (self.headers.get("If-None-Match") or ""):
            self._send(HTTPStatus.NOT_MODIFIED, b"", ctype, cache, head=True)
            return
        self._send(200, data, ctype, cache, head=head)

    def _status(self) -> None:
        dev = self.server.dev
        snapshot = dev.snapshot
        job = dev.background
        body = {
            "generation": snapshot.generation,
            "renders": dev.renders,
            "errors": [d.to_json() for d in snapshot.site_errors]
            + [d.to_json() for errs in list(snapshot.page_errors.values()) for d in errs],
            # pages render when asked for and in the background; errors of pages not rendered yet are unknown
            "progress": {
                "pages": len(dev.outputs),
                "rendered": len(dev.outputs) - dev.pending_pages(),
                "search": job.search if job else "waiting",
            },
        }
        self._send(200, json.dumps(body).encode(), "application/json", INTERNAL_HEADERS)

    def _events(self) -> None:
        hub = self.server.hub
        query = parse_qs(urlsplit(self.path).query)
        try:
            since = int(query.get("since", ["-1"])[0])
        except ValueError:
            since = -1
        if since < 0:
            since = hub.generation
        stale = query.get("run", [hub.run])[0] != hub.run
        self.close_connection = True  # a stream has no length: it ends when the connection does
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        for key, value in INTERNAL_HEADERS.items():
            self.send_header(key, value)
        self.end_headers()
        try:
            self._event("hello", {"generation": hub.generation})
            if stale:  # the page comes from an earlier server run: whatever it shows may be old
                self._event("change", {"generation": hub.generation, "reload": "*", "css": []})
                return
            while not hub.closed:
                events = hub.wait(since, PING_SECONDS)
                if not events:
                    self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
                for event in events:
                    self._event("change", event)
                    since = max(since, event["generation"])
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass  # the page reloaded or closed: its stream ends here

    def _event(self, name: str, data: dict) -> None:
        self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()

    def _proxy(self) -> None:
        target = parse_qs(urlsplit(self.path).query).get("url", [""])[0]
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        problem = None
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            problem = (411, "length_required", "send the request body with a Content-Length")
        elif length < 0:
            problem = (400, "bad_request", "Content-Length is not a number")
        elif length > MAX_BODY:
            problem = (413, "too_large", "request body over 32 MB")
        if problem:
            self.close_connection = True  # the unread body must not be taken for the next request
            status, code, message = problem
            answer = json.dumps({"error": code, "message": message}).encode()
            self._send(status, answer, "application/json", INTERNAL_HEADERS)
            return
        body = self.rfile.read(length) if length else None
        try:
            upstream = open_upstream(
                self.command, target, self.headers.items(), body, self.server.proxy_policy()
            )
        except ProxyError as exc:
            self._send(exc.status, json.dumps(exc.body).encode(), "application/json", INTERNAL_HEADERS)
            return
        try:  # streamed as it arrives (docsgen/dev/proxy_stream.py): a cut answer ends without its last chunk
            self.send_response(upstream.status)
            for key, value in [*upstream.headers, *INTERNAL_HEADERS.items()]:
                self.send_header(key, value)
            self.send_header(LIMIT_HEADER, str(proxy_stream.MAX_RESPONSE_BYTES))
            known = upstream.length is not None or not upstream.has_body
            self.send_header(*(("Content-Length", str(upstream.length or 0)) if known else CHUNKED))
            self.end_headers()
            upstream.relay(self.wfile)
        except (UpstreamCut, OSError):  # past the cap, the upstream broke off, or the browser left
            self.close_connection = (
                True  # without the last chunk (or short of its length): an incomplete answer
            )
        finally:
            upstream.close()
