"""Deployment builds run in a child process: a build that crashes, hangs or eats memory fails, the server lives."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.isolated_build import BuildLimits
from docsgen.server.testing import LiveServer, cli_server, seed_project
from tests.pg import fresh_database

DOCS_JSON = {
    "theme": "mint",
    "name": "Isolation demo",
    "colors": {"primary": "#0D9373"},
    "navigation": {
        "groups": [{"group": "Home", "pages": ["index"]}, {"group": "API", "openapi": "/openapi.yaml"}]
    },
}
GOOD_SPEC = """openapi: 3.1.0
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      summary: List pets
      responses:
        "200": {description: OK}
"""


def deep_spec(depth: int) -> str:
    """A 120 KB spec whose flow sequences nest `depth` deep: libyaml overflows its stack on it."""
    return (
        GOOD_SPEC + "components:\n  schemas:\n    Deep:\n      example: " + "[" * depth + "]" * depth + "\n"
    )


def make_docs(folder: Path, spec: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "docs.json").write_text(json.dumps(DOCS_JSON), encoding="utf-8")
    (folder / "index.mdx").write_text("---\ntitle: Home page\n---\n\nWelcome.\n", encoding="utf-8")
    (folder / "openapi.yaml").write_text(spec, encoding="utf-8")
    return folder


def wait_done(client: httpx.Client, location: str, auth: dict) -> dict:
    deadline = time.monotonic() + 120
    while True:
        body = client.get(location, headers=auth).json()
        if body["status"] in ("succeeded", "failed") or time.monotonic() > deadline:
            return body
        time.sleep(0.1)


def cli(*args: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "DOCSGEN_DATABASE_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "docsgen.server.cli", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_spec_that_crashes_the_build_does_not_kill_the_server(backend, tmp_path):
    db = f"sqlite:///{tmp_path / 'db' / 'feedback.sqlite3'}" if backend == "sqlite" else fresh_database()
    docs, out = make_docs(tmp_path / "docs", deep_spec(60_000)), tmp_path / "site"
    cli("projects", "add", "iso", "--docs", str(docs), "--out", str(out), "--db", db, cwd=tmp_path)
    auth = {"Authorization": "Bearer " + cli("keys", "create", "--project", "iso", "--db", db, cwd=tmp_path)}
    with cli_server(tmp_path, "--db", db) as base, httpx.Client(base_url=base, timeout=30) as client:
        started = client.post("/v1/project/iso/deployments", headers=auth)
        assert started.status_code == 202, started.text
        crashed = wait_done(client, started.headers["location"], auth)
        # libyaml may segfault on this input in the build's child process; bounded before parsing, the spec is a
        # located problem: an error of a failed build, or (a spec problem no longer fails a plain build) a
        # located warning of a build that published the rest of the site without the spec's pages.
        problems = crashed["errors"] + crashed["warnings"]
        located = [e for e in problems if e.get("path") == "openapi.yaml" and e.get("line")]
        if crashed["status"] == "failed":
            assert crashed["summary"] == "build failed: killed by signal 11 (SIGSEGV)" or located, crashed
            assert not out.exists()  # nothing was published
        else:
            assert crashed["status"] == "succeeded" and located, crashed
        assert client.get("/healthz").status_code == 200  # the server survived

        (docs / "openapi.yaml").write_text(GOOD_SPEC, encoding="utf-8")
        fixed = wait_done(
            client, client.post("/v1/project/iso/deployments", headers=auth).headers["location"], auth
        )
        assert fixed["status"] == "succeeded", fixed
        assert "Home page" in (out / "index.html").read_text(encoding="utf-8")


@pytest.fixture
def engine(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path / 'db' / 'd.sqlite3'}")
    yield engine
    engine.dispose()


def deploy_with(engine, tmp_path: Path, target: str, limits: BuildLimits) -> dict:
    project = "iso" + secrets.token_hex(4)
    docs, out = make_docs(tmp_path / "docs", GOOD_SPEC), tmp_path / "site"
    key = seed_project(engine, project, docs_dir=docs, out_dir=out)
    auth = {"Authorization": f"Bearer {key}"}
    app = create_app(engine=engine, build_fn=target, build_limits=limits)
    with LiveServer(app) as live, httpx.Client(base_url=live.url) as client:
        started = client.post(f"/v1/project/{project}/deployments", headers=auth)
        result = wait_done(client, started.headers["location"], auth)
        assert client.get("/healthz").status_code == 200
    assert not out.exists() and not list((tmp_path / ".site.releases").iterdir())
    return result


def test_a_segfault_is_reported_by_its_signal(engine, tmp_path):
    result = deploy_with(engine, tmp_path, "docsgen.server.testing:crash_build", BuildLimits())
    assert result["status"] == "failed"
    assert result["summary"] == "build failed: killed by signal 11 (SIGSEGV)"
    assert result["errors"][0]["code"] == "deploy.crashed"


def process_is_gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")  # a zombie waits only to be reaped


def test_a_hanging_build_times_out_and_everything_it_started_is_killed(engine, tmp_path):
    result = deploy_with(engine, tmp_path, "docsgen.server.testing:hang_build", BuildLimits(timeout=2))
    assert result["status"] == "failed" and result["summary"] == "build failed: timed out after 2 s"
    assert (
        result["errors"][0]["code"] == "deploy.timeout"
        and "--build-timeout" in result["errors"][0]["message"]
    )
    helper = int((tmp_path / "docs" / "helper.pid").read_text())
    deadline = time.monotonic() + 10
    while not process_is_gone(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process_is_gone(helper)


def test_a_build_out_of_memory_fails_with_the_limit_named(engine, tmp_path):
    result = deploy_with(
        engine, tmp_path, "docsgen.server.testing:hog_build", BuildLimits(memory=512 * 2**20)
    )
    assert result["status"] == "failed" and result["summary"] == "build failed: out of memory (limit 512 MiB)"
    assert result["errors"][0]["code"] == "deploy.out-of-memory"
    assert "--build-memory" in result["errors"][0]["message"]


def wait_gone(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while not process_is_gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return process_is_gone(pid)


SERVER_SCRIPT = """
import sys, threading, time
from pathlib import Path
from docsgen.server.isolated_build import BuildLimits, run_isolated

docs, out, how = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
args = (docs, out, False, BuildLimits(), "docsgen.server.testing:hang_build")
threading.Thread(target=run_isolated, args=args, daemon=True).start()
while not (docs / "build.pid").exists():
    time.sleep(0.02)
print("building", flush=True)
if how == "exit":
    sys.exit(0)
time.sleep(3600)
"""


def start_fake_server(tmp_path: Path, docs: Path, how: str) -> tuple[subprocess.Popen, int, int]:
    """A process that starts a hanging isolated build, like the server; return it, the build and its helper."""
    (docs / "build.pid").unlink(missing_ok=True)
    script = tmp_path / "server.py"
    script.write_text(SERVER_SCRIPT, encoding="utf-8")
    command = [sys.executable, str(script), str(docs), str(tmp_path / "out"), how]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "building\n"
    return process, int((docs / "build.pid").read_text()), int((docs / "helper.pid").read_text())


def test_builds_stop_with_the_server(tmp_path):
    docs = make_docs(tmp_path / "docs", GOOD_SPEC)
    # A server that exits kills its builds and what they started.
    server, build, helper = start_fake_server(tmp_path, docs, "exit")
    assert server.wait(30) == 0
    assert wait_gone(build) and wait_gone(helper)

    # A server killed with SIGKILL runs no code: Linux's parent-death signal stops the build process.
    server, build, helper = start_fake_server(tmp_path, docs, "hang")
    server.kill()
    server.wait(30)
    assert wait_gone(build)
    with contextlib.suppress(ProcessLookupError):
        os.kill(helper, signal.SIGKILL)  # the build's own helper is orphaned then: not the server's to reach
