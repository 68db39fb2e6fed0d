"""One render pool: `docsgen build` and `docsgen dev` render on the same class (docsgen.engine.pool.RenderPool).

Checked two ways: every module of the package is parsed, and only pool.py starts processes to render pages
(os.fork, a multiprocessing or concurrent.futures process pool), in one class, which the build's rendering and
dev's background pass both import; and a real build and a real dev pass on two processes are seen rendering on it.
"""

from __future__ import annotations

import ast
import gc
import os
from pathlib import Path

import pytest

from docsgen.build import build
from docsgen.dev.incremental import DevSite
from docsgen.engine import pool
from docsgen.engine.pool import RenderPool
from docsgen.engine.rendering import Job, render_pages
from docsgen.render import render_page, site_context
from docsgen.site.read import read_site
from tests.pipeline.test_build_cache import site_files

PACKAGE = Path(__file__).resolve().parents[2] / "docsgen"
POOL = "docsgen/engine/pool.py"
# Not a render pool: the React sandbox forks a copy of its loaded QuickJS realm for each page it renders.
NOT_RENDER_POOLS = {"docsgen/mdx/react/box.py"}
# (module, function) calls that start processes; None: any module (a name imported from one of them)
PROCESS_MAKERS = {
    ("os", "fork"),
    ("os", "forkpty"),
    ("multiprocessing", "get_context"),
    ("multiprocessing", "Process"),
    ("multiprocessing", "Pool"),
    (None, "ProcessPoolExecutor"),
}


def _process_makers(tree: ast.AST) -> list[tuple[int, str]]:
    """Return (line, name) of each call or import that starts processes (os.fork(), ProcessPoolExecutor, ...)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            owner = getattr(func.value, "id", None) if isinstance(func, ast.Attribute) else None
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if (owner, name) in PROCESS_MAKERS or (None, name) in PROCESS_MAKERS:
                found.append((node.lineno, name))
        elif isinstance(node, ast.ImportFrom) and node.module in (
            "os",
            "concurrent.futures",
            "multiprocessing",
        ):
            makers = {name for _, name in PROCESS_MAKERS}
            found += [(node.lineno, a.name) for a in node.names if a.name in makers]
    return found


def _classes_forking(tree: ast.AST) -> list[str]:
    """Return the classes whose methods start processes."""
    return [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and _process_makers(node)]


def _imports_of(path: Path) -> set[tuple[str, str]]:
    return {
        (node.module or "", alias.name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_only_the_engine_pool_starts_render_processes_in_one_class_both_commands_use():
    makers = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        found = _process_makers(ast.parse(path.read_text(encoding="utf-8")))
        if found and rel not in NOT_RENDER_POOLS:
            makers[rel] = found
    assert list(makers) == [POOL], f"render processes are started outside {POOL}: {makers}"
    assert _classes_forking(ast.parse((PACKAGE.parent / POOL).read_text(encoding="utf-8"))) == ["RenderPool"]
    build_side = _imports_of(PACKAGE / "engine" / "rendering.py")
    dev_side = _imports_of(PACKAGE / "dev" / "background.py")
    assert ("docsgen.engine.pool", "RenderPool") in build_side & dev_side
    # and a page renders with one function wherever it renders: a build's worker, dev's server or its workers
    assert ("docsgen.engine.rendering", "render_one") in _imports_of(PACKAGE / "dev" / "rendered.py")


def test_a_build_and_a_dev_pass_render_on_the_same_pool(make_site, tmp_path, monkeypatch):
    monkeypatch.setattr(pool, "MIN_PAGES_PER_WORKER", 1)  # two processes for this small site
    started: list[tuple[str, int]] = []
    real = RenderPool.start

    def start(self: RenderPool, work) -> None:
        started.append((self.prefix, self.count))
        real(self, work)

    monkeypatch.setattr(RenderPool, "start", start)
    site = make_site(site_files(12))
    build(site, tmp_path / "out", workers=2, cache=False)
    assert started == [("b", 2)], "the build rendered on a RenderPool of two processes"
    assert (tmp_path / "out" / "p" / "page-11" / "index.html").is_file()
    dev = DevSite(site, tmp_path / "dev", lazy=True, workers=2)
    try:
        dev.build()
        assert dev.wait_rendered(120)
        assert len(started) == 2 and started[1][1] == 2, "dev's background pass rendered on a RenderPool too"
        assert dev.background is not None and set(dev.background.rendered_by) - {os.getpid()}
    finally:
        dev.close()


def _texts(renders) -> list[tuple[str, str | None, str | None]]:
    return [(one.key, one.html, one.twin) for one in renders]


def test_a_worker_that_dies_leaves_its_pages_to_the_main_process(make_site, monkeypatch):
    """A render process that ends mid-chunk (killed, out of memory) does not fail the build: the pages it had
    in hand render in the main process, and the site is the same as a serial build's."""
    monkeypatch.setattr(pool, "MIN_PAGES_PER_WORKER", 1)
    site = read_site(make_site(site_files(12)))
    ctx, pages = site_context(site), site.pages_to_render()
    main, doomed = os.getpid(), pages[6].key

    def render(ctx, page, **kwargs):
        if page.key == doomed and os.getpid() != main:
            os._exit(3)
        return render_page(ctx, page, **kwargs)

    serial = render_pages(Job(ctx, pages), workers=1)
    pooled = render_pages(Job(ctx, pages, render=render), workers=2)
    assert _texts(pooled.renders) == _texts(serial.renders)


def test_a_render_error_in_a_worker_is_raised_as_a_serial_build_raises_it(make_site, monkeypatch):
    monkeypatch.setattr(pool, "MIN_PAGES_PER_WORKER", 1)
    site = read_site(make_site(site_files(12)))
    ctx, pages = site_context(site), site.pages_to_render()
    broken = pages[6].key

    def render(ctx, page, **kwargs):
        if page.key == broken:
            raise ValueError(f"a bug rendering {page.key}")
        return render_page(ctx, page, **kwargs)

    with pytest.raises(ValueError, match="a bug rendering"):
        render_pages(Job(ctx, pages, render=render), workers=2)
    assert gc.get_freeze_count() == 0, "the pool is stopped and the heap unfrozen"
