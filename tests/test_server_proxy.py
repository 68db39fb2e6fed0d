"""X-Forwarded-For is believed only from the proxies named by --forwarded-allow-ips (by default: none)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.dashboard_helpers import sign_in

BODY = {"path": "/", "source": "thumbs_only", "helpful": True}


@contextmanager
def running_server(tmp_path: Path, *options: str) -> Iterator[str]:
    """Run `docsgen server run` for real on a free loopback port; yield its base URL."""
    env = {k: v for k, v in os.environ.items() if k not in ("DOCSGEN_DATABASE_URL", "FORWARDED_ALLOW_IPS")}
    # uvicorn reads this variable as its default list of trusted proxies: the server must not.
    env["FORWARDED_ALLOW_IPS"] = "*"
    subprocess.run(
        [sys.executable, "-m", "docsgen.server.cli", "projects", "add", "px"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = [sys.executable, "-m", "docsgen.server.cli", "run", "--port", str(port), *options]
    process = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, process.stderr.read().decode()
            time.sleep(0.05)
        yield base
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(20)


def post_as(base: str, forwarded_for: str) -> int:
    headers = {"X-Forwarded-For": forwarded_for}
    return httpx.post(f"{base}/v1/feedback/px", json=BODY, headers=headers).status_code


def failed_sign_ins(base: str, forwarded_for: str, count: int) -> list[int]:
    with httpx.Client(base_url=base, headers={"X-Forwarded-For": forwarded_for}) as client:
        return [sign_in(client, "dg_" + "x" * 44).status_code for _ in range(count)]


def test_forwarded_for_from_loopback_is_not_trusted_by_default(tmp_path):
    with running_server(tmp_path, "--rate-limit", "2") as base:
        # Each request claims another client address: the limiter must still see one client, 127.0.0.1.
        assert [post_as(base, f"203.0.113.{n}") for n in range(1, 4)] == [201, 201, 429]
        # The dashboard's sign-in limiter (5 failures) cannot be dodged the same way.
        codes = [failed_sign_ins(base, f"198.51.100.{n}", 1)[0] for n in range(1, 7)]
        assert codes == [401] * 5 + [429]


def test_forwarded_for_is_trusted_from_allowed_proxies(tmp_path):
    options = ("--rate-limit", "2", "--forwarded-allow-ips", "127.0.0.1")
    with running_server(tmp_path, *options) as base:
        assert [post_as(base, f"203.0.113.{n}") for n in range(1, 4)] == [201, 201, 201]
        assert [post_as(base, "203.0.113.9") for _ in range(3)] == [201, 201, 429]
        assert failed_sign_ins(base, "198.51.100.1", 6) == [401] * 5 + [429]
        assert failed_sign_ins(base, "198.51.100.2", 1) == [401]  # another client behind the proxy
