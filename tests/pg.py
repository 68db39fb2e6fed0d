"""A throwaway PostgreSQL cluster for the server tests (or the one $DOCSGEN_TEST_POSTGRES_URL names).

CI installs Debian's `postgresql` package; without its binaries the tests fail under CI and skip elsewhere.
"""

from __future__ import annotations

import atexit
import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

ENV_URL = "DOCSGEN_TEST_POSTGRES_URL"
INSTALL_HINT = "apt-get update -q && apt-get install -y -q postgresql"
_cluster_url: str | None = None


def _bin_dir() -> Path | None:
    """Find the newest PostgreSQL server binaries Debian installed."""
    for candidate in sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True
    ):
        if Path(candidate, "initdb").exists() and Path(candidate, "pg_ctl").exists():
            return Path(candidate)
    found = shutil.which("pg_ctl")
    return Path(found).parent if found and Path(found).with_name("initdb").exists() else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_postgres(args: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the `postgres` user then."""
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def _start_cluster() -> str:
    bin_dir = _bin_dir()
    if bin_dir is None:
        message = f"PostgreSQL binaries not found; install them: {INSTALL_HINT}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    root = Path(tempfile.mkdtemp(prefix="docsgen-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    port = _free_port()
    subprocess.run(
        _as_postgres(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        ),
        check=True,
        capture_output=True,
    )
    options = f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={root} -c fsync=off"
    subprocess.run(
        _as_postgres(
            [str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"]
        ),
        check=True,
        capture_output=True,
    )

    def stop() -> None:
        subprocess.run(
            _as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)

    atexit.register(stop)
    return f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"


def postgres_url() -> str:
    """Return the URL of a PostgreSQL server for tests, starting a private cluster once per test run."""
    global _cluster_url
    if os.environ.get(ENV_URL):
        return os.environ[ENV_URL]
    if _cluster_url is None:
        _cluster_url = _start_cluster()
    return _cluster_url


def fresh_database() -> str:
    """Create an empty database on the test server and return its URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(postgres_url()).set(drivername="postgresql")
    name = "docsgen_test_" + secrets.token_hex(6)
    deadline = time.monotonic() + 20
    while True:
        try:
            with psycopg.connect(base.render_as_string(hide_password=False), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            break
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    return base.set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False)
