"""Trigger deployment: background builds, one at a time per project, atomic publication, status reports."""

from __future__ import annotations

import json
import secrets
import threading
import time
from pathlib import Path

import httpx
import pytest

from docsgen.common.errors import DocsgenError, error
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.testing import LiveServer, seed_project
from tests.pg import fresh_database

DOCS_JSON = {
    "theme": "mint",
    "name": "Deploy demo",
    "colors": {"primary": "#0D9373"},
    "navigation": {"pages": ["index"]},
}


class FakeBuild:
    """A build that waits for the test's signal, then writes one file or fails."""

    def __init__(self):
        self.release = threading.Event()
        self.calls: list[tuple[Path, Path, bool]] = []
        self.fail = False

    def __call__(self, docs_dir: Path, out_dir: Path, strict: bool = False):
        self.calls.append((docs_dir, out_dir, strict))
        assert self.release.wait(10)
        if self.fail:
            raise DocsgenError([error("config.schema", "navigation is required", "docs.json", 3, 5)])
        out_dir.mkdir(parents=True)
        (out_dir / "index.html").write_text(f"build {len(self.calls)}", encoding="utf-8")
        return type("Result", (), {"pages": 1, "files": 1, "seconds": 0.01, "diagnostics": []})()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def engine(request, tmp_path_factory):
    url = (
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'd.sqlite3'}"
        if request.param == "sqlite"
        else fresh_database()
    )
    engine = open_database(url)
    yield engine
    engine.dispose()


def wait_for(client: httpx.Client, location: str, headers: dict, states=("succeeded", "failed")) -> dict:
    deadline = time.monotonic() + 30
    while True:
        body = client.get(location, headers=headers).json()
        if body["status"] in states or time.monotonic() > deadline:
            return body
        time.sleep(0.05)


def test_fake_build_lifecycle_one_at_a_time(engine, tmp_path):
    fake = FakeBuild()
    project = "dep" + secrets.token_hex(4)
    docs, out = tmp_path / "docs", tmp_path / "site"
    docs.mkdir()
    key = seed_project(engine, project, docs_dir=docs, out_dir=out)
    auth = {"Authorization": f"Bearer {key}"}
    with (
        LiveServer(create_app(engine=engine, build_fn=fake)) as live,
        httpx.Client(base_url=live.url) as client,
    ):
        url = f"/v1/project/{project}/deployments"
        started = client.post(url, headers=auth)
        assert started.status_code == 202, started.text
        deployment = started.json()
        assert deployment["status"] in ("queued", "running") and deployment["id"].startswith("dep_")
        assert started.headers["location"] == f"{url}/{deployment['id']}"
        running = wait_for(client, started.headers["location"], auth, states=("running",))
        assert running["status"] == "running" and running["startedAt"]
        busy = client.post(url, headers=auth)
        assert busy.status_code == 409 and busy.json()["error"]["code"] == "deployment_in_progress"
        assert deployment["id"] in busy.json()["error"]["message"]
        fake.release.set()
        done = wait_for(client, started.headers["location"], auth)
        assert done["status"] == "succeeded", done
        assert done["summary"].startswith("build succeeded: 1 page(s)") and done["errors"] == []
        assert done["finishedAt"] >= done["startedAt"] >= done["createdAt"]
        assert out.is_symlink() and (out / "index.html").read_text() == "build 1"
        assert fake.calls[0][0] == docs.resolve() and fake.calls[0][2] is False

        # A failed build reports its diagnostics and leaves the last good site in place.
        fake.fail = True
        failed = client.post(url, headers=auth, json={"strict": True})
        assert failed.status_code == 202
        result = wait_for(client, failed.headers["location"], auth)
        assert result["status"] == "failed" and fake.calls[-1][2] is True
        assert result["errors"][0]["code"] == "config.schema" and result["errors"][0]["line"] == 3
        assert (out / "index.html").read_text() == "build 1"
        assert not (out.parent / ".site.releases" / result["id"]).exists()

        fake.fail = False
        again = wait_for(client, client.post(url, headers=auth).headers["location"], auth)
        assert again["status"] == "succeeded" and (out / "index.html").read_text() == "build 3"
        releases = list((out.parent / ".site.releases").iterdir())
        assert len(releases) == 2  # the published build and the one before it


def test_deployment_errors(engine, tmp_path):
    project = "dep" + secrets.token_hex(4)
    key = seed_project(engine, project)
    other = seed_project(engine, "dep" + secrets.token_hex(4))
    auth = {"Authorization": f"Bearer {key}"}
    with (
        LiveServer(create_app(engine=engine, build_fn=FakeBuild())) as live,
        httpx.Client(base_url=live.url) as client,
    ):
        url = f"/v1/project/{project}/deployments"
        unconfigured = client.post(url, headers=auth)
        assert unconfigured.status_code == 409
        assert unconfigured.json()["error"]["code"] == "deployment_not_configured"
        assert "--docs" in unconfigured.json()["error"]["message"]
        assert client.post(url).status_code == 401
        assert client.post(url, headers={"Authorization": f"Bearer {other}"}).status_code == 403
        assert client.post(url, headers=auth, json={"strict": "yes"}).status_code == 422
        assert client.post(url, headers=auth, json={"force": True}).status_code == 422
        plain = client.post(url, headers={**auth, "Content-Type": "text/plain"}, content=b"strict")
        assert plain.status_code == 415
        missing = client.get(f"{url}/dep_0000000000000000", headers=auth)
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_interrupted_deployments_are_failed_on_restart(engine, tmp_path):
    fake = FakeBuild()
    project = "dep" + secrets.token_hex(4)
    (tmp_path / "docs").mkdir()
    key = seed_project(engine, project, docs_dir=tmp_path / "docs", out_dir=tmp_path / "out")
    auth = {"Authorization": f"Bearer {key}"}
    with (
        LiveServer(create_app(engine=engine, build_fn=fake)) as live,
        httpx.Client(base_url=live.url) as client,
    ):
        location = client.post(f"/v1/project/{project}/deployments", headers=auth).headers["location"]
        wait_for(client, location, auth, states=("running",))
        # A second server process starting on the same database finds the build orphaned.
        with (
            LiveServer(create_app(engine=engine, build_fn=fake)) as second,
            httpx.Client(base_url=second.url) as other,
        ):
            status = other.get(location, headers=auth).json()
            assert status["status"] == "failed" and "interrupted" in status["summary"]
            assert other.post(f"/v1/project/{project}/deployments", headers=auth).status_code == 202
        fake.release.set()


def test_real_build_end_to_end(engine, tmp_path):
    docs, out = tmp_path / "docs", tmp_path / "public"
    docs.mkdir()
    (docs / "docs.json").write_text(json.dumps(DOCS_JSON), encoding="utf-8")
    (docs / "index.mdx").write_text("---\ntitle: Version one\n---\n\nFirst.\n", encoding="utf-8")
    out.mkdir()
    (out / "index.html").write_text("old hand-made site", encoding="utf-8")
    project = "dep" + secrets.token_hex(4)
    key = seed_project(engine, project, docs_dir=docs, out_dir=out)
    auth = {"Authorization": f"Bearer {key}"}
    with LiveServer(create_app(engine=engine)) as live, httpx.Client(base_url=live.url) as client:
        url = f"/v1/project/{project}/deployments"
        first = wait_for(client, client.post(url, headers=auth).headers["location"], auth)
        assert first["status"] == "succeeded", first
        assert "1 page(s)" in first["summary"]
        assert out.is_symlink() and "Version one" in (out / "index.html").read_text()

        (docs / "docs.json").write_text('{"name": "broken", "navigation": ', encoding="utf-8")
        broken = wait_for(client, client.post(url, headers=auth).headers["location"], auth)
        assert broken["status"] == "failed" and broken["errors"], broken
        assert broken["errors"][0]["path"] == "docs.json" and broken["errors"][0]["line"] >= 1
        assert "Version one" in (out / "index.html").read_text()  # the last good site stays

        (docs / "docs.json").write_text(json.dumps(DOCS_JSON), encoding="utf-8")
        (docs / "index.mdx").write_text("---\ntitle: Version two\n---\n\nSecond.\n", encoding="utf-8")
        second = wait_for(client, client.post(url, headers=auth).headers["location"], auth)
        assert second["status"] == "succeeded"
        assert "Version two" in (out / "index.html").read_text()
