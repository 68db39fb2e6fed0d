"""Preview deployments against a local git repository: two branches built side by side stay isolated from each
other and from the published site, expiry removes them, archives are hostile input, and the dashboard lists them."""

from __future__ import annotations

import io
import json
import subprocess
import tarfile
import time
from pathlib import Path

import httpx
import pytest

from docsgen.build import build
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.previews import previews_dir
from docsgen.server.testing import LiveServer, seed_project
from tests.dashboard_helpers import sign_in

DOCS_JSON = {
    "name": "Acme",
    "theme": "mint",
    "colors": {"primary": "#4F46E5"},
    "navigation": {"pages": ["index"]},
}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


def _page(word: str) -> str:
    return f"---\ntitle: Home\n---\n\nThis is the {word} edition.\n"


@pytest.fixture
def world(tmp_path):
    repo = tmp_path / "repo"
    docs = repo / "docs"
    docs.mkdir(parents=True)
    (docs / "docs.json").write_text(json.dumps(DOCS_JSON))
    (docs / "index.mdx").write_text(_page("main"))
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "main")
    for branch, word in (("feature-a", "alpha"), ("feature-b", "bravo")):
        _git(repo, "checkout", "-q", "-b", branch, "main")
        (docs / "index.mdx").write_text(_page(word))
        _git(repo, "commit", "-qam", word)
    _git(repo, "checkout", "-q", "main")
    site = tmp_path / "site"
    build(docs, site)
    engine = open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    key = seed_project(engine, "acme", docs_dir=docs, out_dir=site)
    app = create_app(engine=engine, build_fn=build)
    with LiveServer(app) as live:
        client = httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {key}"}, timeout=60)
        yield live, client, app.state.server.previews, site, key
        client.close()
    engine.dispose()


def _wait(client: httpx.Client, name: str) -> dict:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        preview = client.get(f"/v1/project/acme/previews/{name}").json()
        if preview["status"] in ("ready", "failed"):
            return preview
        time.sleep(0.1)
    raise AssertionError(f"preview {name} did not finish")


def test_two_branches_side_by_side_stay_isolated(world):
    live, client, _, site, key = world
    main_before = (site / "index.html").read_bytes()
    a = client.post("/v1/project/acme/previews", json={"name": "pr-1", "ref": "feature-a"})
    b = client.post("/v1/project/acme/previews", json={"name": "pr-2", "ref": "refs/heads/feature-b"})
    assert a.status_code == 202 and b.status_code == 202
    assert a.json()["url"] == f"{live.url}/previews/acme/pr-1/"
    assert _wait(client, "pr-1")["status"] == "ready" and _wait(client, "pr-2")["status"] == "ready"
    anonymous = httpx.Client(base_url=live.url)
    assert "alpha edition" in anonymous.get("/previews/acme/pr-1/").text
    assert "bravo edition" in anonymous.get("/previews/acme/pr-2/").text
    assert anonymous.get("/previews/acme/pr-1").status_code == 301
    assert (site / "index.html").read_bytes() == main_before  # the published site is untouched
    # rebuilding one preview from the other branch leaves the second preview's files alone
    folder = previews_dir(site)
    b_files = {p: p.stat().st_mtime_ns for p in (folder / "pr-2").resolve().rglob("*") if p.is_file()}
    client.post("/v1/project/acme/previews", json={"name": "pr-1", "ref": "feature-b"})
    assert _wait(client, "pr-1")["commit"] == _wait(client, "pr-2")["commit"]
    assert "bravo edition" in anonymous.get("/previews/acme/pr-1/").text
    assert {p: p.stat().st_mtime_ns for p in (folder / "pr-2").resolve().rglob("*") if p.is_file()} == b_files
    assert len(list((folder / ".builds").iterdir())) == 2  # the replaced build of pr-1 is gone
    listed = client.get("/v1/project/acme/previews").json()["previews"]
    assert sorted(p["name"] for p in listed) == ["pr-1", "pr-2"]
    # the dashboard lists them
    with httpx.Client(base_url=live.url) as browser:
        sign_in(browser, key)
        page = browser.get("/dashboard/deployments").text
        assert 'data-preview="pr-1"' in page and 'href="/previews/acme/pr-2/"' in page
    anonymous.close()


def test_expiry_removes_previews(world):
    live, client, previews, site, _ = world
    client.post("/v1/project/acme/previews", json={"name": "short", "ref": "feature-a", "ttlHours": 0.0003})
    client.post("/v1/project/acme/previews", json={"name": "long", "ref": "feature-b"})
    assert _wait(client, "short")["status"] == "ready" and _wait(client, "long")["status"] == "ready"
    target = (previews_dir(site) / "short").resolve()
    time.sleep(1.2)
    names = [p["name"] for p in client.get("/v1/project/acme/previews").json()["previews"]]
    assert names == ["long"]
    assert not target.exists() and not (previews_dir(site) / "short").exists()
    assert httpx.get(f"{live.url}/previews/acme/short/").status_code == 404
    assert client.get("/v1/project/acme/previews/short").status_code == 404
    assert client.delete("/v1/project/acme/previews/long").status_code == 204
    assert not list((previews_dir(site) / ".builds").iterdir())


def _tar(entries: list[tuple[str, bytes | None, str]]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data, kind in entries:
            info = tarfile.TarInfo(name)
            if kind == "link":
                info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
                tar.addfile(info)
            else:
                info.size = len(data or b"")
                tar.addfile(info, io.BytesIO(data or b""))
    return out.getvalue()


def test_archives_are_hostile_input(world, tmp_path):
    live, client, _, site, _ = world
    good = _tar(
        [
            ("docs/docs.json", json.dumps(DOCS_JSON).encode(), "file"),
            ("docs/index.mdx", _page("upload").encode(), "file"),
        ]
    )
    assert client.put("/v1/project/acme/previews/up/archive", content=good).status_code == 202
    assert _wait(client, "up")["status"] == "ready"
    assert "upload edition" in httpx.get(f"{live.url}/previews/acme/up/").text
    bad = {
        "climb": _tar([("docs.json", b"{}", "file"), ("../../escaped.txt", b"x", "file")]),
        "absolute": _tar([("docs.json", b"{}", "file"), ("/tmp/escaped.txt", b"x", "file")]),
        "link": _tar([("docs.json", b"{}", "file"), ("secret", None, "link")]),
        "junk": b"not an archive at all",
    }
    for name, body in bad.items():
        assert client.put(f"/v1/project/acme/previews/{name}/archive", content=body).status_code == 202
        preview = _wait(client, name)
        assert preview["status"] == "failed" and preview["errors"][0]["code"] == "preview.source", name
    assert not (tmp_path / "escaped.txt").exists() and not Path("/tmp/escaped.txt").exists()
    for name in ("../x", "UPPER", "a" * 64, "-x"):
        answer = client.post("/v1/project/acme/previews", json={"name": name, "ref": "feature-a"})
        assert answer.status_code in (404, 422), name
    refused = client.post("/v1/project/acme/previews", json={"name": "opt", "ref": "--upload-pack=touch"})
    assert refused.status_code == 202 and _wait(client, "opt")["status"] == "failed"
    assert (
        httpx.post(f"{live.url}/v1/project/acme/previews", json={"name": "x", "ref": "main"}).status_code
        == 401
    )
    huge = client.put("/v1/project/acme/previews/huge/archive", content=b"0" * (64 * 2**20 + 1))
    assert huge.status_code == 413


def test_a_build_ending_while_its_record_is_read_is_not_reported_failed(tmp_path, monkeypatch):
    """A poll that reads the "building" record just before the build ends must still say building, never
    "failed" with no errors (the build thread writes its final record, then leaves `running`)."""
    from types import SimpleNamespace

    from docsgen.server.previews import Previews

    previews = Previews(build_fn=lambda docs, out, strict: None)
    project = SimpleNamespace(id="acme", out_dir=str(tmp_path / "site"), docs_dir=None)
    folder = previews_dir(tmp_path / "site")
    record = {
        "name": "pr",
        "source": "archive",
        "status": "building",
        "created_ms": 1,
        "expires_ms": 4_000_000_000_000,
    }
    previews._write(folder, record)
    previews.running[("acme", "pr")] = None  # type: ignore[assignment]
    real_read = previews._read

    def read_then_finish(folder: Path, name: str):
        seen = real_read(folder, name)  # the stale "building" record ...
        previews._write(folder, {**record, "status": "ready"})  # ... then the build ends
        previews.running.pop(("acme", name), None)
        return seen

    monkeypatch.setattr(previews, "_read", read_then_finish)
    assert previews.get(project, "pr")["status"] == "building"
    monkeypatch.setattr(previews, "_read", real_read)
    assert previews.get(project, "pr")["status"] == "ready"
    previews._write(folder, record)  # a record left "building" by a server that stopped mid-build
    assert previews.get(project, "pr")["status"] == "failed"
