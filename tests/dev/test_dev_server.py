"""docsgen dev over real HTTP on 127.0.0.1: pages, 404s, traversal, live-reload events, error pages, the proxy."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from docsgen.cli import main
from docsgen.common.errors import DocsgenError
from docsgen.dev.app import DevApp, start
from docsgen.dev.incremental import BuildCancelled
from docsgen.dev.proxy import rules_for
from docsgen.dev.server import ReloadHub, bind


class Echo(BaseHTTPRequestHandler):
    """An API without CORS headers: answers every method with what it received."""

    def log_message(self, *args) -> None:
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        data = json.dumps(
            {"method": self.command, "path": self.path, "headers": dict(self.headers.items()), "body": body}
        ).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("X-Upstream", "echo")
        self.send_header("Set-Cookie", "secret=1")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _answer


MINI = json.dumps(
    {"name": "X", "theme": "mint", "colors": {"primary": "#0D9373"}, "navigation": {"pages": ["index"]}}
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def upstream():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def app(make_site, upstream):
    dead = free_port()  # nothing listens there: the proxy must answer 502
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Echo", "version": "1"},
        "servers": [
            {"url": f"http://127.0.0.1:{upstream}/v1"},
            {"url": f"http://127.0.0.1:{dead}"},
            {
                "url": "https://{region}.api.example.com",
                "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}},
            },
        ],
        "paths": {"/items": {"get": {"summary": "List items", "responses": {"200": {"description": "ok"}}}}},
    }
    site = make_site(
        {
            "docs.json": json.dumps(
                {
                    "name": "Served",
                    "theme": "mint",
                    "colors": {"primary": "#0D9373"},
                    "api": {"openapi": "openapi.json"},
                    "navigation": {"groups": [{"group": "Docs", "pages": ["index", "guide"]}]},
                }
            ),
            "openapi.json": json.dumps(spec),
            "index.mdx": "---\ntitle: Home\n---\n\nWelcome home\n",
            "guide.mdx": "---\ntitle: Guide\n---\n\nGuide text\n",
            "images/pic.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
        }
    )
    app = start(site, watch=False)
    app.dead_port = dead  # type: ignore[attr-defined]
    yield app
    app.stop()


def get(app: DevApp, path: str, **kw) -> httpx.Response:
    return httpx.get(app.url.rstrip("/") + path, timeout=10, **kw)


def raw_status(app: DevApp, path: str) -> tuple[int, bytes]:
    """Send a request line exactly as written (HTTP clients would normalise the dots away)."""
    host, port = app.server.server_address[:2]
    with socket.create_connection((host, port), timeout=5) as conn:
        conn.sendall(f"GET {path} HTTP/1.0\r\nHost: {host}:{port}\r\n\r\n".encode())
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def edit(app: DevApp, rel: str, text: str):
    path = app.dev.docs_dir / rel
    path.write_text(text, encoding="utf-8")
    update = app.dev.apply([path])
    app.report(update)
    return update


def test_serves_pages_assets_and_redirects(app: DevApp):
    home = get(app, "/")
    assert home.status_code == 200 and "Welcome home" in home.text
    assert home.headers["cache-control"] == "no-store"
    assert home.text.count("window.__docsgenDev=") == 1
    assert home.text.index("window.__docsgenDev=") < home.text.rindex("</body>")
    guide = get(app, "/guide/")
    assert guide.status_code == 200 and "Guide text" in guide.text
    moved = get(app, "/guide")
    assert moved.status_code == 301 and moved.headers["location"] == "/guide/"
    css = get(app, "/_static/site.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert "__docsgenDev" not in css.text
    assert get(app, "/images/pic.svg").headers["content-type"] == "image/svg+xml"
    sidebar = get(app, "/_nav/root.html")
    assert sidebar.status_code == 200 and "__docsgenDev" not in sidebar.text
    assert get(app, "/guide/index.html").status_code == 200
    assert get(app, "/", headers={}).request.method == "GET"
    assert httpx.head(app.url + "guide/").status_code == 200


def test_missing_pages_get_the_404_page(app: DevApp):
    missing = get(app, "/no/such/page/")
    assert missing.status_code == 404
    assert "Page not found" in missing.text and "__docsgenDev" in missing.text
    assert get(app, "/docs.json").status_code == 404  # configuration is not content
    assert httpx.post(app.url + "guide/").status_code == 405


@pytest.mark.parametrize(
    "path",
    [
        "/../docs.json",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/guide/..%2f..%2fdocs.json",
        "/..%5cdocs.json",
        "/./guide/",
        "/a%00b",
    ],
)
def test_traversal_is_refused(app: DevApp, path: str):
    status, body = raw_status(app, path)
    assert status == 400
    assert b"navigation" not in body and b"root:" not in body


def test_event_stream_reports_rebuilds(app: DevApp):
    generation = app.dev.snapshot.generation
    events: list[tuple[str, dict]] = []

    def listen():
        with httpx.stream("GET", app.url + f"__docsgen/events?since={generation}", timeout=10) as r:
            name = None
            for line in r.iter_lines():
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    events.append((name, json.loads(line[6:])))
                    if name == "change":
                        return

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    deadline = time.time() + 5
    while not events and time.time() < deadline:
        time.sleep(0.02)
    assert events and events[0][0] == "hello"
    edit(app, "guide.mdx", "---\ntitle: Guide\n---\n\nGuide text two\n")
    thread.join(5)
    name, data = events[-1]
    assert name == "change"
    assert data == {"generation": generation + 1, "reload": ["/guide/"], "css": []}
    # a page served before that change replays it on connect (no lost events)
    hub = app.hub
    assert hub.since(generation) == [data]
    assert hub.since(generation + 1) == []


def test_error_page_shows_location_and_recovers(app: DevApp):
    edit(app, "guide.mdx", "---\ntitle: Guide\n---\n\nFine line\n\n<Steps>\n\nunclosed\n")
    broken = get(app, "/guide/")
    assert broken.status_code == 500
    assert "guide.mdx:7:1" in broken.text and "&lt;Steps&gt; is never closed" in broken.text
    assert "__docsgenDev" in broken.text  # it reloads itself when fixed
    assert get(app, "/").status_code == 200  # other pages still serve
    status = get(app, "/__docsgen/status").json()
    assert [e["path"] for e in status["errors"]] == ["guide.mdx"]
    edit(app, "guide.mdx", "---\ntitle: Guide\n---\n\nFixed text\n")
    fixed = get(app, "/guide/")
    assert fixed.status_code == 200 and "Fixed text" in fixed.text


def test_config_error_is_shown_on_every_page(app: DevApp):
    docs_json = app.dev.docs_dir / "docs.json"
    good = docs_json.read_text()
    update = edit(app, "docs.json", good.replace('"theme": "mint"', '"theme": "no-such-theme"'))
    assert update.kind == "full" and update.errors
    for path in ("/", "/guide/", "/missing/"):
        page = get(app, path)
        assert page.status_code == 500 and "docs.json:" in page.text
    assert get(app, "/_static/site.css").status_code == 200  # assets of the last good build stay
    edit(app, "docs.json", good)
    assert get(app, "/guide/").status_code == 200


def test_proxy_forwards_to_spec_servers(app: DevApp, upstream: int):
    target = f"http://127.0.0.1:{upstream}/v1/items?q=1"
    r = httpx.post(
        app.url + "__docsgen/proxy",
        params={"url": target},
        json={"name": "x"},
        headers={
            "Authorization": "Bearer t",
            "Cookie": "local=1",
            "X-Custom": "yes",
            "Connection": "keep-alive, X-Hop",
            "X-Hop": "drop me",
        },
        timeout=10,
    )
    assert r.status_code == 201
    assert r.headers["x-upstream"] == "echo" and "set-cookie" not in r.headers
    echoed = r.json()
    assert echoed["method"] == "POST" and echoed["path"] == "/v1/items?q=1"
    assert json.loads(echoed["body"]) == {"name": "x"}
    headers = {k.lower(): v for k, v in echoed["headers"].items()}
    assert headers["authorization"] == "Bearer t" and headers["x-custom"] == "yes"
    assert "cookie" not in headers and headers["host"] == f"127.0.0.1:{upstream}"
    assert "x-hop" not in headers and "origin" not in headers
    deleted = httpx.request("DELETE", app.url + "__docsgen/proxy", params={"url": target}, timeout=10)
    assert deleted.json()["method"] == "DELETE"


def test_proxy_sends_the_playground_cookies_not_the_local_ones(app: DevApp, upstream: int):
    r = httpx.get(
        app.url + "__docsgen/proxy",
        params={"url": f"http://127.0.0.1:{upstream}/v1/items"},
        headers={"Cookie": "local=1", "X-Docsgen-Cookie": "session=abc; theme=dark"},
        timeout=10,
    )
    headers = {k.lower(): v for k, v in r.json()["headers"].items()}
    assert headers["cookie"] == "session=abc; theme=dark"
    assert "x-docsgen-cookie" not in headers


def test_proxy_refuses_other_hosts(app: DevApp, upstream: int):
    for url in (
        f"http://127.0.0.1:{upstream + 1 if upstream < 65535 else upstream - 1}/v1/items",
        "http://example.org/",
        f"https://127.0.0.1:{upstream}/v1/items",  # right host, wrong scheme
        "https://ap.api.example.com/",  # not one of the variable's enum values
    ):
        r = httpx.get(app.url + "__docsgen/proxy", params={"url": url}, timeout=10)
        assert r.status_code == 403, url
        assert r.json()["error"] == "host_not_allowed"
    assert httpx.get(app.url + "__docsgen/proxy", params={"url": "file:///etc/passwd"}).status_code == 400
    assert httpx.get(app.url + "__docsgen/proxy").json()["error"] == "missing_url"


def test_proxy_reports_unreachable_hosts(app: DevApp):
    r = httpx.get(
        app.url + "__docsgen/proxy", params={"url": f"http://127.0.0.1:{app.dead_port}/x"}, timeout=10
    )
    assert r.status_code == 502
    body = r.json()
    assert body["error"] == "upstream_failed" and f"127.0.0.1:{app.dead_port}" in body["message"]


def test_server_variables_expand_to_their_values():
    rules = rules_for(
        "https://{region}.api.example.com:{port}/v1",
        {"region": {"enum": ["eu", "us"]}, "port": {"default": "8443"}},
    )
    assert {(r.scheme, r.host.pattern, r.port) for r in rules} == {
        ("https", r"eu\.api\.example\.com", 8443),
        ("https", r"us\.api\.example\.com", 8443),
    }
    [free] = rules_for("https://{tenant}.example.com")
    assert free.allows("https", "acme.example.com", 443)
    assert not free.allows("https", "evil.com/x.example.com", 443)
    assert not free.allows("https", "a.b.example.com", 443)
    assert rules_for("/v1") == []


def test_port_taken_is_a_clear_error(make_site):
    site = make_site({"docs.json": MINI, "index.mdx": "Hi\n"})
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["dev", str(site), "--port", str(port)])
        assert result.exit_code == 1
        assert f"port {port} on 127.0.0.1 is already in use" in result.output
        assert "--next-free-port" in result.output and "Traceback" not in result.output
        with pytest.raises(DocsgenError):
            bind("127.0.0.1", port, None, ReloadHub())  # type: ignore[arg-type]
        server = bind("127.0.0.1", port, None, ReloadHub(), next_free=True)  # type: ignore[arg-type]
        try:
            assert server.server_address[1] > port
        finally:
            server.server_close()


def serve(
    site: Path, *, prelude: str = "", env: dict | None = None
) -> tuple[subprocess.Popen, str, list[str]]:
    """Start `docsgen dev` in a process (after running `prelude` in it); return it once it serves, and its URL."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    code = f"{prelude}\nfrom docsgen.cli import main\nmain()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "dev", str(site), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    lines = []
    for line in proc.stdout:  # type: ignore[union-attr]
        lines.append(line)
        if line.startswith("Serving "):
            break
    assert lines and lines[-1].startswith("Serving "), "".join(lines)
    return proc, lines[-1].split(" at ")[1].split()[0], lines


# A process started in the background by a script inherits an ignored SIGINT (and Python keeps it ignored).
IGNORED_SIGINT = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)"


@pytest.mark.parametrize(
    ("sig", "prelude"),
    [(signal.SIGINT, ""), (signal.SIGTERM, ""), (signal.SIGINT, IGNORED_SIGINT)],
    ids=["ctrl-c", "kill", "ctrl-c-inherited-ignored"],
)
def test_ctrl_c_stops_cleanly(make_site, sig: signal.Signals, prelude: str):
    site = make_site({"docs.json": MINI, "index.mdx": "Hi\n"})
    proc, url, lines = serve(site, prelude=prelude)
    out = ""
    try:
        assert httpx.get(url).status_code == 200
        with (
            httpx.stream("GET", url + "__docsgen/events", timeout=10) as one,
            httpx.stream("GET", url + "__docsgen/events", timeout=10) as two,
        ):  # open event streams must not keep the server alive
            assert one.status_code == two.status_code == 200
            proc.send_signal(sig)
            out, _ = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, "".join(lines) + out
    assert "stopped" in out and "Traceback" not in out
    assert Path(site).is_dir()


def hanging_pagefind(tmp_path: Path) -> tuple[dict, Path, Path]:
    """A Pagefind that hangs once `mark` exists (writing its pid to `pid_file`), else the real one.

    Returns the environment that makes docsgen use it (no bundle cache: every full build runs Pagefind).
    """
    from docsgen.outputs.pagefind import pagefind_binary

    mark, pid_file = tmp_path / "hang", tmp_path / "pagefind.pid"
    fake = tmp_path / "pagefind"
    fake.write_text(
        f'#!/bin/sh\nif [ -e "{mark}" ]; then echo $$ > "{pid_file}.tmp"; mv "{pid_file}.tmp" "{pid_file}"; '
        f'exec sleep 60; fi\nexec "{pagefind_binary()}" "$@"\n'
    )
    fake.chmod(0o755)
    env = {"PAGEFIND_BINARY": str(fake), "DOCSGEN_CACHE": "0", "DOCSGEN_CACHE_DIR": str(tmp_path / "cache")}
    return env, mark, pid_file


def wait_for_file(path: Path, seconds: float = 15) -> str:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)
    return path.read_text().strip()


def assert_gone(pid: int, seconds: float = 5) -> None:
    """The process has ended (and been reaped by docsgen or, once docsgen is gone, by init)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        assert time.monotonic() < deadline, f"Pagefind (pid {pid}) outlived docsgen dev"
        time.sleep(0.05)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_stop_while_a_rebuild_waits_for_pagefind(make_site, tmp_path, sig: signal.Signals):
    site = make_site({"docs.json": MINI, "index.mdx": "Hi\n"})
    env, mark, pid_file = hanging_pagefind(tmp_path)
    proc, url, lines = serve(site, env=env)
    out = ""
    try:
        with httpx.stream("GET", url + "__docsgen/events", timeout=10) as events:
            assert events.status_code == 200
            mark.touch()
            (site / "docs.json").write_text(MINI.replace('"X"', '"Y"'), encoding="utf-8")  # full rebuild
            pid = int(wait_for_file(pid_file))  # the rebuild now waits for this Pagefind
            started = time.monotonic()
            proc.send_signal(sig)
            out, _ = proc.communicate(timeout=15)
            elapsed = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, "".join(lines) + out
    assert "stopped" in out and "Traceback" not in out and "warning" not in out, out
    assert elapsed < 4, f"took {elapsed:.1f}s to stop"
    assert_gone(pid)


def test_stop_during_the_first_build(make_site, tmp_path):
    site = make_site({"docs.json": MINI, "index.mdx": "Hi\n"})
    env, mark, pid_file = hanging_pagefind(tmp_path)
    mark.touch()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from docsgen.cli import main; main()", "dev", str(site), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
    )
    try:
        pid = int(wait_for_file(pid_file))  # the background pass of the first build waits for this Pagefind
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and out.strip().endswith("stopped") and "Traceback" not in out, out
    assert "warning" not in out, out  # the index it gave up is not reported as a failure
    assert_gone(pid)


def test_app_stop_abandons_a_rebuild_waiting_for_pagefind(make_site, tmp_path, monkeypatch):
    site = make_site({"docs.json": MINI, "index.mdx": "Hi\n"})
    env, mark, pid_file = hanging_pagefind(tmp_path)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    app = start(site, watch=False)
    outcome: list[BaseException | object] = []

    def rebuild():
        try:
            outcome.append(app.dev.apply([site / "docs.json"]))
        except BaseException as exc:  # noqa: BLE001 - the main thread asserts on it
            outcome.append(exc)

    mark.touch()
    thread = threading.Thread(target=rebuild, daemon=True)
    thread.start()
    pid = int(wait_for_file(pid_file))  # the rebuild's background pass waits for this Pagefind
    thread.join(5)
    assert [o.kind for o in outcome] == ["full"]  # (the rebuild itself renders nothing: it is published)
    job = app.dev.background
    started = time.monotonic()
    app.stop()
    assert job.wait(5) and job.search == "indexing"  # abandoned: no index, no report
    assert time.monotonic() - started < 3
    assert_gone(pid)
    generation = app.dev.snapshot.generation
    with pytest.raises(BuildCancelled):  # a stopped server builds nothing more
        app.dev.apply([site / "index.mdx"])
    assert app.dev.snapshot.generation == generation


def test_watcher_rebuilds_on_save(make_site):
    site = make_site({"docs.json": MINI, "index.mdx": "First\n"})
    app = start(site)
    try:
        (site / "index.mdx.swp").write_text("editor swap file", encoding="utf-8")
        (site / "index.mdx").write_text("Second\n", encoding="utf-8")
        deadline = time.time() + 10
        while "Second" not in get(app, "/").text and time.time() < deadline:
            time.sleep(0.05)
        assert "Second" in get(app, "/").text
        assert app.dev.renders == 2
    finally:
        app.stop()


def test_assets_revalidate_and_connections_are_reused(app: DevApp):
    with httpx.Client(timeout=10) as client:
        first = client.get(app.url + "images/pic.svg")
        assert first.headers["cache-control"] == "no-cache" and first.headers["etag"]
        again = client.get(app.url + "images/pic.svg", headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        (app.dev.docs_dir / "images/pic.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><g/></svg>")
        changed = client.get(app.url + "images/pic.svg", headers={"If-None-Match": first.headers["etag"]})
        assert changed.status_code == 200 and b"<g/>" in changed.content
        pages = [client.get(app.url + path) for path in ("", "guide/", "_static/site.css")]
        assert [p.status_code for p in pages] == [200, 200, 200]
        assert all(p.http_version == "HTTP/1.1" for p in pages)


def test_spec_edits_rebuild_everything(app: DevApp):
    spec = app.dev.docs_dir / "openapi.json"
    assert app.dev.classify(spec) == "config"
    update = app.dev.apply([spec])
    assert update.kind == "full" and update.reload is None


def test_pages_from_an_earlier_server_run_reload(app: DevApp):
    generation = app.dev.snapshot.generation
    url = app.url + f"__docsgen/events?since={generation}&run=not-this-run"
    names = []
    with httpx.stream("GET", url, timeout=10) as r:
        for line in r.iter_lines():
            if line.startswith("data: ") and names[-1] == "change":
                assert json.loads(line[6:])["reload"] == "*"
                break
            if line.startswith("event: "):
                names.append(line[7:])
    assert names == ["hello", "change"]


def test_terminal_shows_the_error_too(app: DevApp):
    lines: list[str] = []
    app.echo = lines.append
    edit(app, "guide.mdx", "---\ntitle: Guide\n---\n\n<Steps>\n")
    assert any(line.startswith("guide.mdx:5:1: error: <Steps> is never closed") for line in lines), lines
    assert lines[0].startswith("page: rendered 1 page(s)") and "1 error(s)" in lines[0]


def test_theme_assets_are_cached_until_a_stylesheet_changes(app: DevApp):
    page = get(app, "/guide/").text
    version = re.search(r"_static/docsgen\.css\?v=([\w-]+)", page).group(1)
    cached = get(app, f"/_static/docsgen.css?v={version}")
    assert cached.headers["cache-control"] == "max-age=31536000, immutable"
    from docsgen.common.resources import themes_dir

    update = app.dev.apply([themes_dir() / "base" / "static" / "site.css"])  # nothing rendered, new ?v=
    app.report(update)
    assert update.kind == "css" and update.rendered == []
    page = get(app, "/guide/").text
    newer = re.search(r"_static/docsgen\.css\?v=([\w-]+)", page).group(1)
    assert newer != version and f'?v={version}"' not in page
    assert get(app, f"/_static/docsgen.css?v={newer}").headers["cache-control"].startswith("max-age")
    assert get(app, f"/_static/docsgen.css?v={version}").headers["cache-control"] == "no-cache"
