"""The SQLite database is private: mode 0600 for it and its -wal/-shm files, never in a world-writable folder."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from sqlalchemy import text

from docsgen.server.db import open_database


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    """The most permissive usual umask, so the test proves the server asks for 0600 itself."""
    previous = os.umask(0o002)
    yield
    os.umask(previous)


def test_new_database_and_its_folder_are_private(tmp_path, open_umask):
    path = tmp_path / "state" / "nested" / "feedback.sqlite3"
    engine = open_database(f"sqlite:///{path}")
    with engine.begin() as conn:  # a write, so SQLite creates the -wal and -shm files
        conn.execute(text("INSERT INTO server_settings (name, value) VALUES ('probe', 'x')"))
    with engine.connect() as conn:
        conn.execute(text("SELECT 1")).scalar()
        assert mode(path) == 0o600
        for suffix in ("-wal", "-shm"):
            assert mode(f"{path}{suffix}") == 0o600, suffix
    engine.dispose()
    assert mode(path.parent) == 0o700
    assert not mode(path.parent.parent) & stat.S_IWOTH


def test_world_writable_folder_is_refused(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(ValueError, match="writable by every user"):
        open_database(f"sqlite:///{shared / 'feedback.sqlite3'}")
    assert not (shared / "feedback.sqlite3").exists()


def test_cli_default_database_is_private_and_refusal_is_readable(tmp_path, open_umask):
    env = {k: v for k, v in os.environ.items() if k != "DOCSGEN_DATABASE_URL"}
    command = [sys.executable, "-m", "docsgen.server.cli", "projects", "add", "acme"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert mode(tmp_path / "docsgen-feedback.sqlite3") == 0o600

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    refused = subprocess.run(command, cwd=shared, env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "writable by every user" in refused.stderr and str(shared) in refused.stderr
