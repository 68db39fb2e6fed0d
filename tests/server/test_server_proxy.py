"""X-Forwarded-For is believed only from the proxies named by --forwarded-allow-ips (by default: none)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from docsgen.server.testing import cli_server
from tests.dashboard_helpers import sign_in

BODY = {"path": "/", "source": "thumbs_only", "helpful": True}


def running_server(tmp_path: Path, *options: str):
    """`docsgen server run` for real, with a project `px` in its default database."""
    env = {k: v for k, v in os.environ.items() if k != "DOCSGEN_DATABASE_URL"}
    command = [sys.executable, "-m", "docsgen.server.cli", "projects", "add", "px"]
    subprocess.run(command, cwd=tmp_path, env=env, check=True, capture_output=True)
    # uvicorn reads this variable as its default list of trusted proxies: the server must not.
    return cli_server(tmp_path, *options, env={"FORWARDED_ALLOW_IPS": "*"})


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
