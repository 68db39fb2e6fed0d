"""Crash safety: kill -9 the server during a burst of writes; after a restart every acknowledged entry is there."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from docsgen.server.db import open_database
from docsgen.server.testing import seed_project
from tests.pg import fresh_database


def start_server(db_url: str) -> tuple[subprocess.Popen, str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "docsgen.server.cli",
            "run",
            "--db",
            db_url,
            "--port",
            str(port),
            "--rate-limit",
            "0",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return process, base
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(process.stderr.read().decode())
        time.sleep(0.05)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_acknowledged_entries_survive_kill_9(backend, tmp_path):
    db_url = f"sqlite:///{tmp_path / 'crash.sqlite3'}" if backend == "sqlite" else fresh_database()
    engine = open_database(db_url)
    key = seed_project(engine, "crash")
    engine.dispose()
    process, base = start_server(db_url)
    acknowledged: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def writer(n: int) -> None:
        with httpx.Client(base_url=base, timeout=5) as client:
            i = 0
            while not stop.is_set():
                i += 1
                body = {
                    "path": f"/w{n}/{i}",
                    "source": "contextual",
                    "helpful": True,
                    "comment": f"burst {n}-{i}",
                }
                try:
                    response = client.post("/v1/feedback/crash", json=body)
                except httpx.TransportError:
                    return  # the server died mid-request: not acknowledged
                if response.status_code == 201:
                    with lock:
                        acknowledged.append(response.json()["id"])

    threads = [threading.Thread(target=writer, args=(n,), daemon=True) for n in range(6)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 20
    while len(acknowledged) < 150 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)  # no shutdown, no flush: a crash
    process.wait(10)
    stop.set()
    for thread in threads:
        thread.join(10)
    assert len(acknowledged) >= 150

    process, base = start_server(db_url)
    try:
        stored: list[str] = []
        cursor = None
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}) as client:
            while True:
                params = {"limit": 100, **({"cursor": cursor} if cursor else {})}
                page = client.get("/v1/analytics/crash/feedback", params=params).json()
                stored += [entry["id"] for entry in page["feedback"]]
                if not page["hasMore"]:
                    break
                cursor = page["nextCursor"]
        missing = set(acknowledged) - set(stored)
        assert not missing, f"{len(missing)} acknowledged entries were lost"
        assert len(stored) == len(set(stored))
    finally:
        process.terminate()
        process.wait(10)
