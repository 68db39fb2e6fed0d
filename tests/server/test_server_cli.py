"""`docsgen server ...` in a real process: keys print only the key, projects and keys are managed, `run` serves."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from docsgen.server.keys import KEY_RE

DOCSGEN = [sys.executable, "-c", "from docsgen.cli import main; main()"]
# The group alone starts faster than the whole CLI; test_run_serves_the_api goes through `docsgen server`.
SERVER = [sys.executable, "-m", "docsgen.server.cli"]


def docsgen(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "DOCSGEN_DATABASE_URL"} | (env or {})
    assert args[0] == "server"
    command = [*SERVER, *args[1:]]
    return subprocess.run(command, cwd=cwd, env=environ, capture_output=True, text=True, timeout=60)


def test_keys_and_projects_lifecycle(tmp_path):
    added = docsgen("server", "projects", "add", "acme", "--origin", "https://Docs.Acme.test/", cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    assert added.stdout == "" and "created project acme" in added.stderr
    assert (tmp_path / "docsgen-feedback.sqlite3").exists()  # the documented default database

    created = docsgen("server", "keys", "create", "--project", "acme", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    key = created.stdout.removesuffix("\n")
    assert created.stdout == key + "\n" and KEY_RE.match(key) and key.startswith("dg_")
    assert created.stderr == ""
    second = docsgen("server", "keys", "create", "--project", "acme", cwd=tmp_path).stdout.strip()
    assert second != key

    listed = docsgen("server", "keys", "list", cwd=tmp_path)
    assert key not in listed.stdout and key[:15] in listed.stdout and listed.stdout.count("active") == 2
    revoked = docsgen("server", "keys", "revoke", key[:15] + "...", cwd=tmp_path)
    assert revoked.returncode == 0, revoked.stderr
    assert docsgen("server", "keys", "list", cwd=tmp_path).stdout.count("revoked") == 1
    again = docsgen("server", "keys", "revoke", key[:15], cwd=tmp_path)
    assert again.returncode == 1 and "no active key" in again.stderr

    projects = docsgen("server", "projects", "list", cwd=tmp_path).stdout
    assert "acme\torigins=https://docs.acme.test" in projects


def test_cli_user_errors_have_no_traceback(tmp_path):
    cases = [
        ("server", "keys", "create", "--project", "ghost"),
        ("server", "projects", "add", "bad id!"),
        ("server", "projects", "add", "ok", "--origin", "docs.acme.test/path"),
        ("server", "projects", "add", "ok", "--docs", "d"),
        ("server", "keys", "list", "--db", "mysql://nobody@localhost/x"),
    ]
    for args in cases:
        result = docsgen(*args, cwd=tmp_path)
        assert result.returncode in (1, 2), (args, result.stderr)
        assert "Traceback" not in result.stderr and result.stdout == ""
        assert result.stderr.strip()


def test_database_url_from_environment(tmp_path):
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    assert (
        docsgen(
            "server", "projects", "add", "env", cwd=tmp_path, env={"DOCSGEN_DATABASE_URL": url}
        ).returncode
        == 0
    )
    assert (tmp_path / "elsewhere.sqlite3").exists() and not (tmp_path / "docsgen-feedback.sqlite3").exists()
    key = docsgen("server", "keys", "create", "--project", "env", "--db", url, cwd=tmp_path).stdout.strip()
    assert KEY_RE.match(key)


def test_run_serves_the_api(tmp_path):
    docsgen("server", "projects", "add", "live", cwd=tmp_path)
    key = docsgen("server", "keys", "create", "--project", "live", cwd=tmp_path).stdout.strip()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [*DOCSGEN, "server", "run", "--port", str(port), "--rate-limit", "2"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"{base}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                assert time.monotonic() < deadline and process.poll() is None, process.stderr.read()
                time.sleep(0.1)
        body = {"path": "/", "source": "thumbs_only", "helpful": True}
        codes = [httpx.post(f"{base}/v1/feedback/live", json=body).status_code for _ in range(3)]
        assert codes == [201, 201, 429]
        page = httpx.get(
            f"{base}/v1/analytics/live/feedback", headers={"Authorization": f"Bearer {key}"}
        ).json()
        assert len(page["feedback"]) == 2 and re.match(r"^fb_[0-9a-f]{24}$", page["feedback"][0]["id"])
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(20)
