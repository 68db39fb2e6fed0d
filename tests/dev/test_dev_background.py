"""The background pass of docsgen dev: it renders what nobody asked for, and the site it leaves is the one a
complete render makes (pages asked for in between included); a crash stays on its page; stopping the server
stops the pass at once."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from docsgen.dev.incremental import DevSite
from docsgen.outputs.pagefind import INDEX_DIR

PAGES = 130

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
                "name": "Background",
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


def contents(dev: DevSite) -> dict[str, str]:
    """Every served file's hash; the search index's files counted (their names depend on the order pages came)."""
    out = {}
    for path, data in dev.snapshot.files.items():
        if path.startswith(INDEX_DIR + "/"):  # hashed names: count them by kind
            kind = path.rpartition(".")[2] if "/fragment/" in path or path.endswith(".js") else "index"
            out[kind] = str(int(out.get(kind, "0")) + 1)
            continue
        assert isinstance(data, bytes | Path), path  # nothing left unrendered
        out[path] = hashlib.sha256(data if isinstance(data, bytes) else data.read_bytes()).hexdigest()
    return out


def test_pages_asked_for_during_the_pass_and_the_pass_make_the_complete_site(site: Path):
    whole = DevSite(site, site / "_site")  # lazy=False: build() renders everything
    lazy = DevSite(site, site / "_site", lazy=True)
    try:
        whole.build()
        update = lazy.build()
        assert update.rendered == [] and update.pending == PAGES + 2  # + the endpoint and API overview pages
        for output in ("p120/index.html", "p7/index.html", "p3.md", "api-reference/index.html"):
            lazy.render_claimed(output)  # asked for by a browser while the pass renders from the start
        assert lazy.wait_rendered(120)
        assert lazy.renders == whole.renders == PAGES + 2  # each page once
        assert contents(lazy) == contents(whole)  # every page, twin, sidebar and agent file, byte for byte
        assert lazy.snapshot.page_errors.keys() == whole.snapshot.page_errors.keys() == {"p7/index.html"}
        assert "p7.mdx:7:1" in lazy.snapshot.page_errors["p7/index.html"][0].format()
        assert lazy.pending_pages() == 0
    finally:
        whole.close()
        lazy.close()


def test_a_crash_in_a_render_shows_on_that_page_only(site: Path, monkeypatch, capsys):
    import docsgen.dev.rendered

    real = docsgen.dev.rendered.render_page

    def crash(ctx, page, **kw):
        if page.key == "p5":
            raise RuntimeError("renderer bug")
        return real(ctx, page, **kw)

    monkeypatch.setattr(docsgen.dev.rendered, "render_page", crash)
    dev = DevSite(site, site / "_site", lazy=True)
    try:
        dev.build()
        assert dev.wait_rendered(120)
        assert sorted(dev.snapshot.page_errors) == ["p5/index.html", "p7/index.html"]
        assert "renderer bug" in dev.snapshot.page_errors["p5/index.html"][0].message
        assert "p5/index.html" not in dev.snapshot.files  # no page to serve: the error page is
        assert isinstance(dev.snapshot.files["p6/index.html"], Path)
        assert "RuntimeError" in capsys.readouterr().err  # the traceback, for a bug report
    finally:
        dev.close()


# Slow every render down and log it: the background pass takes long enough to be stopped in the middle.
SLOW = """
import os, time
import docsgen.dev.rendered
_real = docsgen.dev.rendered.render_page
def _slow(ctx, page, **kw):
    with open(os.environ["RENDER_LOG"], "a") as log:
        log.write(f"{page.key}\\n")
    time.sleep(0.2)
    return _real(ctx, page, **kw)
docsgen.dev.rendered.render_page = _slow
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["kill", "ctrl-c"])
def test_stopping_during_the_background_pass_stops_it(site: Path, tmp_path: Path, sig: signal.Signals):
    log = tmp_path / "renders.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "RENDER_LOG": str(log)}
    code = f"{SLOW}\nfrom docsgen.cli import main\nmain()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "dev", str(site), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        printed = []  # up to the server's "Serving" line: the background pass may start rendering before it
        while not any(line.startswith("Serving ") for line in printed):
            line = proc.stdout.readline()
            assert line, f"docsgen dev stopped before serving: {printed}"
            printed.append(line)
        deadline = time.monotonic() + 60
        while len(_lines(log)) < 3:
            assert time.monotonic() < deadline and proc.poll() is None, "the background pass never started"
            time.sleep(0.05)
        proc.send_signal(sig)
        rest, _ = proc.communicate(timeout=30)
        out = "".join(printed) + rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and out.strip().endswith("stopped") and "Traceback" not in out, out
    assert "Serving " in out and "rendered all" not in out
    assert len(_lines(log)) < PAGES // 2  # stopped between two pages, not at the end of the pass


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []
