"""Run the feedback server for real on a free loopback port inside this process (tests, benchmarks, demos)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn


class LiveServer:
    """A uvicorn server in a daemon thread; `url` is ready once the context manager is entered."""

    def __init__(self, app: Any, host: str = "127.0.0.1"):
        self.app = app
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.url = f"http://{host}:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(
            app, log_level="warning", server_header=False, lifespan="off", proxy_headers=False
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the feedback server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


def seed_project(engine: Any, project_id: str, origins: list[str] | None = None, **folders: Any) -> str:
    """Create a project (with origins and optional docs_dir/out_dir) and return a fresh admin key for it."""
    from docsgen.server.keys import create_key
    from docsgen.server.projects import add_project

    with engine.begin() as conn:
        add_project(conn, project_id, origins or [], folders.get("docs_dir"), folders.get("out_dir"))
        return create_key(conn, project_id)


def free_port() -> int:
    """Return a TCP port free on loopback right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def cli_server(cwd: Path, *options: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run `docsgen server run OPTIONS` in a real process on a free loopback port; yield its base URL.

    The database is the default one in `cwd` unless `--db` is among the options. $DOCSGEN_DATABASE_URL is
    removed from the environment, then `env` is added.
    """
    import httpx

    environ = {k: v for k, v in os.environ.items() if k != "DOCSGEN_DATABASE_URL"} | (env or {})
    port = free_port()
    command = [sys.executable, "-m", "docsgen.server.cli", "run", "--port", str(port), *options]
    process = subprocess.Popen(
        command, cwd=cwd, env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None  # stderr=PIPE
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("the server did not start: " + process.stderr.read().decode())
            time.sleep(0.05)
        yield base
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stderr.close()


# Deployment builds that misbehave on purpose, run as "docsgen.server.testing:NAME" in the isolated child. ------


def crash_build(docs_dir: Path, out_dir: Path, strict: bool = False) -> object:
    """Die of a segmentation fault, like libyaml on deeply nested input."""
    os.kill(os.getpid(), signal.SIGSEGV)
    raise AssertionError("unreachable")


def hang_build(docs_dir: Path, out_dir: Path, strict: bool = False) -> object:
    """Start a helper process, then never finish; DOCS/helper.pid and DOCS/build.pid name both processes."""
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
    (docs_dir / "helper.pid").write_text(str(helper.pid), encoding="utf-8")
    (docs_dir / "build.pid").write_text(str(os.getpid()), encoding="utf-8")
    while True:
        time.sleep(3600)


def hog_build(docs_dir: Path, out_dir: Path, strict: bool = False) -> object:
    """Allocate without end (untouched pages: address space grows, the machine's memory does not)."""
    hoard = []
    while True:
        hoard.append(bytearray(64 * 2**20))
