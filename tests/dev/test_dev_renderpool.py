"""The background pass of docsgen dev on render processes (docsgen.engine.pool), as docsgen build renders:
it uses several processes, serves what the serial pass serves byte for byte, an edit made while the processes
render wins over what they rendered from the state before it, a page's error is shown located, and stopping
the server leaves no process and no temporary folder behind. Real processes, real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

import docsgen.dev.background
import docsgen.dev.rendered
from docsgen.dev.app import start
from docsgen.dev.client import inject
from docsgen.dev.incremental import DevSite
from docsgen.engine.pool import RenderPool
from tests.dev.test_dev_background import contents
from tests.htmldom import parse

PAGES = 120  # enough for two processes (docsgen.engine.pool.MIN_PAGES_PER_WORKER)


@pytest.fixture
def site(make_site) -> Path:
    files: dict[str, str] = {
        "docs.json": json.dumps(
            {
                "name": "Pool",
                "theme": "mint",
                "colors": {"primary": "#0D9373"},
                "navigation": {"groups": [{"group": "Pages", "pages": [f"p{i}" for i in range(PAGES)]}]},
            }
        ),
    }
    for i in range(PAGES):
        files[f"p{i}.mdx"] = (
            f"---\ntitle: Page {i}\n---\n\n## Part {i}\n\nText of page {i}.\n\n<Note>n{i}</Note>\n"
        )
    files["p7.mdx"] = "---\ntitle: Broken\n---\n\nIntro\n\n<Steps>\n\nnever closed\n"  # an error on one page
    return make_site(files)


def workers_of(dev: DevSite) -> set[int]:
    """The processes other than this one that rendered pages of the last background pass."""
    assert dev.background is not None
    return set(dev.background.rendered_by) - {os.getpid()}


def test_the_pass_renders_on_two_processes_what_the_serial_pass_renders(site: Path):
    pooled = DevSite(site, site / "_site", lazy=True, workers=2)
    serial = DevSite(site, site / "_site", lazy=True, workers=1)
    try:
        pooled.build()
        serial.build()
        assert pooled.wait_rendered(120) and serial.wait_rendered(120)
        assert len(workers_of(pooled)) == 2 and workers_of(serial) == set()
        assert pooled.renders == serial.renders == PAGES  # each page once
        assert contents(pooled) == contents(serial)  # every page, twin, sidebar and agent file, byte for byte
        assert pooled.snapshot.page_errors.keys() == {"p7/index.html"}
        for pid in workers_of(pooled):  # the pass ended: its processes with it
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
    finally:
        pooled.close()
        serial.close()


def test_processes_are_renewed_as_they_render_and_render_the_same(site: Path, monkeypatch):
    monkeypatch.setattr(docsgen.dev.background, "RENEW_AFTER", 16)  # (2,500 pages on a real site)
    pooled = DevSite(site, site / "_site", lazy=True, workers=2)
    serial = DevSite(site, site / "_site", lazy=True, workers=1)
    try:
        pooled.build()
        serial.build()
        assert pooled.wait_rendered(120) and serial.wait_rendered(120)
        assert len(workers_of(pooled)) >= PAGES // 16  # each rendered 16 pages at most
        assert max(pooled.background.rendered_by.values()) <= 16
        assert contents(pooled) == contents(serial)
    finally:
        pooled.close()
        serial.close()


def test_a_page_with_an_error_rendered_by_a_process_shows_it_located(site: Path):
    app = start(site, watch=False, workers=2)
    try:
        assert app.dev.wait_rendered(120)
        job = app.dev.background
        assert job is not None and job.rendered_by.get(os.getpid()) == 1  # the first page only: p7 was not
        r = httpx.get(app.url + "p7/", timeout=10)
        assert r.status_code == 500
        text = parse(r.text).text
        assert "p7.mdx" in text and "7:1" in text and "Steps" in text
        assert "Text of page 8." in httpx.get(app.url + "p8/", timeout=10).text
    finally:
        app.stop()


def _gate(monkeypatch, folder: Path, key: str) -> None:
    """Make render processes hold `key` ("*": every page) before rendering it until `go` exists in folder."""
    real, server = docsgen.dev.rendered.render_page, os.getpid()

    def gated(ctx, page, **kw):
        if os.getpid() != server and key in (page.key, "*"):
            (folder / "holding").write_text(str(os.getpid()))
            while not (folder / "go").exists():
                time.sleep(0.01)
        return real(ctx, page, **kw)

    monkeypatch.setattr(docsgen.dev.rendered, "render_page", gated)


def test_a_page_asked_for_while_every_process_is_busy_renders_at_once(site: Path, tmp_path, monkeypatch):
    _gate(monkeypatch, tmp_path, "*")  # the processes hold every page they get
    app = start(site, watch=False, workers=2)
    try:
        _wait_for(tmp_path / "holding")
        r = httpx.get(app.url + "p90/", timeout=30)  # rendered by the server, not queued behind them
        assert r.status_code == 200 and "Text of page 90." in parse(r.text).text
        assert not (tmp_path / "go").exists() and app.dev.renders == 2  # the pass's first page, and p90
        (tmp_path / "go").touch()
        assert app.dev.wait_rendered(120)
        assert app.dev.renders == PAGES  # p90 was not rendered again
    finally:
        app.stop()


def test_a_newer_full_build_stops_the_processes_of_the_old_pass(site: Path, tmp_path, monkeypatch):
    _gate(monkeypatch, tmp_path, "*")
    dev = DevSite(site, site / "_site", lazy=True, workers=2)
    try:
        dev.build()
        _wait_for(tmp_path / "holding")
        old = dev.background
        assert old is not None and old._pool is not None
        pids = [worker.pid for worker in old._pool.workers]
        assert len(pids) == 2
        config = json.loads((site / "docs.json").read_text())
        config["name"] = "Renamed site"
        (site / "docs.json").write_text(json.dumps(config), encoding="utf-8")
        assert dev.apply([site / "docs.json"]).kind == "full"
        for pid in pids:  # killed and reaped by the time the new build is published
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        (tmp_path / "go").touch()
        assert dev.wait_rendered(120) and old.done.wait(30)
        page = dev.snapshot.files["p3/index.html"]
        assert isinstance(page, Path) and "Renamed site" in page.read_text()
    finally:
        dev.close()


def _wait_for(path: Path, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + 60  # (a hang guard, not a timing assertion)
    while not path.exists():
        assert time.monotonic() < deadline and (proc is None or proc.poll() is None), f"no {path.name}"
        time.sleep(0.02)


def _retitle(site: Path, key: str, title: str) -> None:
    (site / f"{key}.mdx").write_text(f"---\ntitle: {title}\n---\n\nNew text of {key}.\n", encoding="utf-8")


def served(dev: DevSite) -> dict[str, bytes]:
    """Every page as the server sends it (sidebar links at their current version: pages rendered before a
    sidebar changed are served with the new one), besides the other files' hashes."""
    snapshot, out = dev.snapshot, contents(dev)
    for path in dev.outputs.values():
        data = snapshot.files.get(path)
        if isinstance(data, Path):
            versions = (snapshot.static_version, snapshot.asset_version)
            out[path] = inject(data.read_bytes(), 0, "", snapshot.nav_versions, "", versions).decode()
    return out


def _served_as_reference(site: Path) -> dict:
    """What the edited site serves when rendered serially, all at once."""
    whole = DevSite(site, site / "_site", workers=1)
    try:
        whole.build()
        return served(whole)
    finally:
        whole.close()


def test_an_edit_wins_over_a_render_process_rendering_from_before_it(site: Path, tmp_path, monkeypatch):
    _gate(monkeypatch, tmp_path, "p51")  # p51 shows p50's title (its previous page)
    dev = DevSite(site, site / "_site", lazy=True, workers=2)
    try:
        dev.build()
        _wait_for(tmp_path / "holding")  # a process renders p51 from the site as it was
        holder = int((tmp_path / "holding").read_text())
        _retitle(site, "p50", "Renamed fifty")
        update = dev.apply([site / "p50.mdx"])
        assert (
            update.kind == "nav" and "p50" in update.rendered and "p51" not in update.rendered
        )  # left to the pass
        (tmp_path / "go").touch()
        assert dev.wait_rendered(120)
        job = dev.background
        assert (
            job is not None and holder in job.rendered_by and job._pools >= 2
        )  # forked again after the edit
        p51 = dev.snapshot.files["p51/index.html"]
        assert isinstance(p51, Path) and "Renamed fifty" in p51.read_text()
        assert served(dev) == _served_as_reference(site)
    finally:
        dev.close()


def test_a_render_answered_before_an_edit_is_applied_is_discarded(site: Path, monkeypatch):
    """The edit lands between a process's answer and its adoption (the pass's other path to stale renders)."""
    dev = DevSite(site, site / "_site", lazy=True, workers=2)
    real = RenderPool.receive
    edited: list[int] = []

    def receive(pool: RenderPool, timeout: float):
        answers = real(pool, timeout)
        if not edited and any("p51" in keys for keys, _ in answers):
            _retitle(site, "p50", "Renamed fifty")
            edited.append(dev.apply([site / "p50.mdx"]).generation)
        return answers

    monkeypatch.setattr(RenderPool, "receive", receive)
    try:
        dev.build()
        assert dev.wait_rendered(120) and edited
        p51 = dev.snapshot.files["p51/index.html"]
        assert isinstance(p51, Path) and "Renamed fifty" in p51.read_text()
        assert served(dev) == _served_as_reference(site)
    finally:
        dev.close()


# Every render is slowed down and logged with its process: the pass is stopped while processes render.
SLOW = """
import os, time
import docsgen.dev.rendered
_real = docsgen.dev.rendered.render_page
def _slow(ctx, page, **kw):
    with open(os.environ["RENDER_LOG"], "a") as log:
        log.write(f"{os.getpid()} {page.key}\\n")
    time.sleep(0.2)
    return _real(ctx, page, **kw)
docsgen.dev.rendered.render_page = _slow
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["kill", "ctrl-c"])
def test_stopping_the_server_stops_its_render_processes(site: Path, tmp_path: Path, sig: signal.Signals):
    log, temp = tmp_path / "renders.log", tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "RENDER_LOG": str(log), "TMPDIR": str(temp)}
    code = f"{SLOW}\nfrom docsgen.cli import main\nmain()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "dev", str(site), "--port", "0", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,  # Ctrl-C reaches the whole process group, as in a terminal
    )
    try:
        deadline = time.monotonic() + 60
        while len(_renderers(log) - {proc.pid}) < 2:
            assert time.monotonic() < deadline and proc.poll() is None, "two processes never rendered"
            time.sleep(0.05)
        workers = _renderers(log) - {proc.pid}
        assert all(_parent(pid) == proc.pid for pid in workers)
        for (
            pid
        ) in workers:  # none holds the server's sockets or pipes (Pagefind's stdin, browsers' connections)
            assert _held(pid) == ["socket"], _held(pid)  # its own socket to the server only
        os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and out.strip().endswith("stopped") and "Traceback" not in out, out
    assert "rendered all" not in out
    assert [pid for pid in workers if Path(f"/proc/{pid}").exists()] == []  # no process left
    assert list(temp.iterdir()) == []  # the page store is gone


def _renderers(log: Path) -> set[int]:
    lines = log.read_text().splitlines() if log.exists() else []
    return {int(line.split()[0]) for line in lines}


def _held(pid: int) -> list[str]:
    """The kinds of file descriptors a process holds besides stdio and /dev/null."""
    kinds = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        target = os.readlink(fd)
        if int(fd.name) > 2 and target != os.devnull:
            kinds.append(target.partition(":")[0])
    return kinds


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0
