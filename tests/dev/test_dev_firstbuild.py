"""The first build of docsgen dev on the render pool of docsgen build: the same site as a serial build, the same
per-page errors, and a stop that does not wait for the pool to finish.

Each build runs in its own Python process: the pool is only used while no other thread runs, which a pytest
process (with other tests' servers) cannot promise.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from docsgen.engine.pool import _chunks

PAGES = 130  # above 2 x MIN_PAGES_PER_WORKER: two render processes

SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Pets", "version": "1"},
    "servers": [{"url": "https://api.pets.example/v1"}],
    "paths": {"/pets": {"get": {"summary": "List pets", "responses": {"200": {"description": "ok"}}}}},
}


@pytest.fixture
def site(make_site) -> Path:
    files: dict[str, str] = {
        "docs.json": json.dumps(
            {
                "name": "Pooled",
                "theme": "mint",
                "colors": {"primary": "#0D9373"},
                "navigation": {
                    "groups": [
                        {"group": "Pages", "pages": [f"p{i}" for i in range(PAGES)]},
                        {"group": "API", "openapi": "openapi.json"},
                    ]
                },
            }
        ),
        "openapi.json": json.dumps(SPEC),
    }
    for i in range(PAGES):
        files[f"p{i}.mdx"] = (
            f"---\ntitle: Page {i}\n---\n\n## Part {i}\n\nText of page {i}, see [next](/p{i + 1}).\n"
        )
    files["p7.mdx"] = "---\ntitle: Broken\n---\n\nIntro\n\n<Steps>\n\nnever closed\n"  # an error on one page
    files["p9.mdx"] = "---\ntitle: Linked\n---\n\n[gone](/no-such-page)\n"  # a warning on one page
    return make_site(files)


REPORT = """
import hashlib, json, sys
from pathlib import Path
from docsgen.dev.incremental import DevSite
from docsgen.dev.proxy import allowed_rules
dev = DevSite(Path(sys.argv[1]), Path(sys.argv[1]) / "_site")
update = dev.build()
files = {k: hashlib.sha256(v if isinstance(v, bytes) else v.read_bytes()).hexdigest() for k, v in dev.snapshot.files.items()}
print(json.dumps({
    "workers": dev.first_build_workers,
    "files": files,
    "page_errors": {k: [d.format() for d in v] for k, v in dev.snapshot.page_errors.items()},
    "site_errors": [d.format() for d in dev.snapshot.site_errors],
    "warnings": sorted(d.format() for d in update.warnings),
    "rendered": sorted(update.rendered),
    "renders": dev.renders,
    "proxy": sorted(r.source for r in allowed_rules(dev.site)),
}))
"""


def first_build(site: Path, workers: int, tmp_path: Path, prelude: str = "") -> dict:
    env = {
        **os.environ,
        "DOCSGEN_WORKERS": str(workers),
        "DOCSGEN_CACHE_DIR": str(tmp_path / f"cache{workers}"),
    }
    done = subprocess.run(
        [sys.executable, "-c", prelude + REPORT, str(site)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_pooled_first_build_equals_the_serial_one(site: Path, tmp_path: Path):
    serial = first_build(site, 1, tmp_path)
    pooled = first_build(site, 2, tmp_path)
    assert serial["workers"] == 1 and pooled["workers"] == 2
    assert pooled["files"].keys() == serial["files"].keys()
    assert (
        pooled["files"] == serial["files"]
    )  # every page, sidebar, search index and agent file, byte for byte
    assert list(pooled["page_errors"]) == ["p7/index.html"]  # the broken page only, not the whole site
    assert "p7.mdx:7:1" in pooled["page_errors"]["p7/index.html"][0]
    assert (
        pooled["page_errors"] == serial["page_errors"]
        and pooled["site_errors"] == serial["site_errors"] == []
    )
    assert any("p9.mdx" in w and "no-such-page" in w for w in pooled["warnings"])
    assert pooled["warnings"] == serial["warnings"]
    # the MDX pages, the endpoint page and the API overview page (api-reference/)
    assert pooled["rendered"] == serial["rendered"] and pooled["renders"] == serial["renders"] == PAGES + 2
    assert pooled["proxy"] == serial["proxy"] == ["https://api.pets.example/v1"]  # generated pages' servers


# A bug that crashes the render of one page (in the workers and in the dev server's own render).
CRASH = """
import docsgen.engine.pool, docsgen.dev.incremental
_real_one, _real = docsgen.engine.pool.render_one, docsgen.dev.incremental.render_page
def _crash_one(job, page):
    if page.key == "p5":
        raise RuntimeError("renderer bug")
    return _real_one(job, page)
def _crash(ctx, page, **kw):
    if page.key == "p5":
        raise RuntimeError("renderer bug")
    return _real(ctx, page, **kw)
docsgen.engine.pool.render_one = _crash_one
docsgen.dev.incremental.render_page = _crash
"""


def test_a_crash_in_the_pool_shows_on_that_page_only(site: Path, tmp_path: Path):
    report = first_build(site, 2, tmp_path, prelude=CRASH)
    assert report["workers"] == 1  # the pool failed: the serial path rendered the site again
    assert sorted(report["page_errors"]) == ["p5/index.html", "p7/index.html"]
    assert "renderer bug" in report["page_errors"]["p5/index.html"][0]
    assert report["site_errors"] == [] and len(report["files"]) > PAGES


# Slow every render down and log which process rendered which page: the first build takes long enough to be
# stopped in the middle of it.
SLOW = """
import os, time
import docsgen.engine.pool
_real = docsgen.engine.pool.render_one
def _slow(job, page):
    with open(os.environ["RENDER_LOG"], "a") as log:
        log.write(f"{os.getpid()} {page.key}\\n")
    time.sleep(0.5)
    return _real(job, page)
docsgen.engine.pool.render_one = _slow
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["kill", "ctrl-c"])
def test_stopping_during_a_pooled_first_build_stops_its_workers(
    site: Path, tmp_path: Path, sig: signal.Signals
):
    log = tmp_path / "renders.log"
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "DOCSGEN_WORKERS": "2",
        "RENDER_LOG": str(log),
        "DOCSGEN_CACHE_DIR": str(tmp_path / "cache"),
    }
    code = f"{SLOW}\nfrom docsgen.cli import main\nmain()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "dev", str(site), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while len(pids := {line.split()[0] for line in _lines(log)} - {str(proc.pid)}) < 2:
            assert time.monotonic() < deadline and proc.poll() is None, "the render workers never started"
            time.sleep(0.05)
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and out.strip() == "stopped", out
    # Stopped at once: not even one chunk of pages was finished (left alone, each worker would first finish the
    # chunk it holds, and the next one queued for it).
    assert len(_lines(log)) < len(_chunks(PAGES - 1, 2, start=1)[0])
    for pid in pids:  # and its workers are gone
        _assert_gone(int(pid))


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def _assert_gone(pid: int) -> None:
    deadline = time.monotonic() + 10
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        assert time.monotonic() < deadline, f"render worker {pid} outlived docsgen dev"
        time.sleep(0.05)
