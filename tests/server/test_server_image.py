"""The server's container recipe (deploy/server): the Dockerfile copies what exists and starts the entrypoint,
and the entrypoint, run here without Docker, serves /healthz from a PostgreSQL database given by URL."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.conftest import REPO
from tests.pg import fresh_database

DEPLOY = REPO / "deploy" / "server"
ENTRYPOINT = DEPLOY / "entrypoint.sh"


def test_the_dockerfile_copies_existing_files_and_starts_the_entrypoint():
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    copies = re.findall(r"^COPY\s+(.+?)\s+\S+\s*$", text, re.M)
    sources = [source for line in copies for source in line.split()]
    assert "deploy/server/entrypoint.sh" in sources
    missing = [source for source in sources if not (REPO / source).exists()]
    assert missing == []
    assert re.search(r"^RUN pip install '\.\[server\]'", text, re.M)
    assert 'ENTRYPOINT ["docsgen-server-entrypoint"]' in text
    assert "COPY deploy/server/entrypoint.sh /usr/local/bin/docsgen-server-entrypoint" in text
    assert "/healthz" in text and re.search(r"^USER docsgen$", text, re.M)  # not root
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").split()
    assert not any(source.split("/")[0] in ignored for source in sources)
    assert os.access(ENTRYPOINT, os.X_OK)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _entrypoint(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    # The image's PATH: the installed docsgen and python3 first (here the test venv's), then the system's.
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
    base = {k: v for k, v in os.environ.items() if not k.startswith("DOCSGEN_")}
    return subprocess.Popen(
        ["sh", str(ENTRYPOINT), *args],
        cwd=tmp_path,
        env={**base, "PATH": path, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_the_entrypoint_serves_health_from_postgresql(tmp_path):
    port = _free_port()
    proc = _entrypoint(tmp_path, {"DOCSGEN_DATABASE_URL": fresh_database(), "PORT": str(port)})
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert proc.poll() is None, proc.stdout.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "the server did not answer /healthz"
                time.sleep(0.3)
        assert not list(tmp_path.glob("*.sqlite3"))  # PostgreSQL, not a SQLite file in the working folder
    finally:
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=30)
    # stopped gracefully (uvicorn ends by re-raising the SIGTERM it handled, as `docker stop` expects)
    assert proc.returncode in (0, -signal.SIGTERM) and "Application shutdown complete" in output, output
    assert f"0.0.0.0:{port}" in output  # every interface of the container


def test_the_entrypoint_requires_a_postgresql_url(tmp_path):
    missing = _entrypoint(tmp_path, {})
    output, _ = missing.communicate(timeout=30)
    assert missing.returncode == 64 and "set DOCSGEN_DATABASE_URL to postgresql://" in output
    sqlite = _entrypoint(tmp_path, {"DOCSGEN_DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite3"})
    output, _ = sqlite.communicate(timeout=30)
    assert sqlite.returncode == 64 and "must be a PostgreSQL URL" in output


def test_the_entrypoint_gives_up_on_a_database_that_never_answers(tmp_path):
    url = f"postgresql://nobody@127.0.0.1:{_free_port()}/none"
    started = time.monotonic()
    proc = _entrypoint(tmp_path, {"DOCSGEN_DATABASE_URL": url, "DOCSGEN_DB_WAIT": "2"})
    output, _ = proc.communicate(timeout=120)
    assert proc.returncode == 69 and "did not answer within 2s" in output, output
    assert "Traceback" not in output
    assert time.monotonic() - started < 60
