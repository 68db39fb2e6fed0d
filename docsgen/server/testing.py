"""Run the feedback server for real on a free loopback port inside this process (tests, benchmarks, demos)."""

from __future__ import annotations

import socket
import threading
import time
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
