"""Streaming search index: on a cold build Pagefind indexes pages while they render, with the same bundle."""

from __future__ import annotations

import docsgen.engine.site_engine
import docsgen.outputs.pagefind as pagefind
import docsgen.outputs.site_search
from docsgen.build import build
from tests.pipeline.test_build_cache import PAGES, site_files, snapshot


def bundle(folder):
    return {k: v for k, v in snapshot(folder).items() if k.startswith("pagefind/")}


def test_cold_build_feeds_pagefind_during_rendering_and_gets_the_same_bundle(
    make_site, tmp_path, monkeypatch
):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    site = make_site(site_files(PAGES))
    events: list[str] = []
    real_add, real_render = pagefind.PagefindRun.add, docsgen.engine.site_engine.render_pages

    def add(self, record):
        events.append("add")
        real_add(self, record)

    def render_pages(*args, **kwargs):
        events.append("render start")
        try:
            return real_render(*args, **kwargs)
        finally:
            events.append("render end")

    monkeypatch.setattr(pagefind.PagefindRun, "add", add)
    monkeypatch.setattr(docsgen.engine.site_engine, "render_pages", render_pages)
    build(site, tmp_path / "streamed", cache=True, workers=2)
    start, end = events.index("render start"), events.index("render end")
    during = events[start:end].count("add")
    assert (
        during == events.count("add") == PAGES + 1
    )  # every page (and the home page) indexed while rendering

    # a second build with the cache finds the stored bundle: no streaming, Pagefind does not even run
    events.clear()
    build(site, tmp_path / "reused", cache=True, workers=2)
    assert "add" not in events
    assert bundle(tmp_path / "reused") == bundle(tmp_path / "streamed")

    # the same site indexed after rendering (streaming off: records spooled, sent once all are in) gives the very
    # same bundle
    monkeypatch.setattr(docsgen.outputs.site_search, "stream_search_index", lambda *a, **k: None)
    real_init = pagefind.PagefindRun.__init__

    def init(self, records=None, binary=None):
        records = list(records) if records is not None else None
        events.append(f"start with {len(records or ())}")
        real_init(self, records, binary)

    monkeypatch.setattr(pagefind.PagefindRun, "__init__", init)
    events.clear()
    build(site, tmp_path / "after", cache=False, workers=2)
    assert "add" not in events and events[-1] == f"start with {PAGES + 1}"
    assert events.index(f"start with {PAGES + 1}") > events.index("render end")
    assert bundle(tmp_path / "after") == bundle(tmp_path / "streamed")
    assert len(bundle(tmp_path / "after")) > 5


def test_a_failed_render_stops_the_streaming_pagefind(make_site, tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    site = make_site(site_files(3))
    closed: list[int] = []
    real_close = pagefind.PagefindRun.close

    def close(self):
        closed.append(1)
        real_close(self)

    def broken(stage, done, total):  # the render fails after two pages reached Pagefind
        if done == 2:
            raise RuntimeError("renderer crashed")

    monkeypatch.setattr(pagefind.PagefindRun, "close", close)
    try:
        build(site, tmp_path / "out", workers=1, progress=broken)
    except RuntimeError as exc:
        assert "renderer crashed" in str(exc)
    else:
        raise AssertionError("the build should have failed")
    assert closed == [1]  # the Pagefind started before rendering was stopped, not left running
    assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out*"))


def _held_bytes(root: object) -> int:
    """Bytes of the data (str, bytes, containers, instances' attributes) reachable from an object, not following
    code, classes or modules."""
    import gc
    import sys
    import types

    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    seen, todo, total = set(), [root], 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        todo.extend(gc.get_referents(obj))
    return total


def test_a_split_site_does_not_hold_each_versions_bundle_once_written(make_site, tmp_path, monkeypatch):
    """Every version's Pagefind run lives until the build ends; once its bundle is read, the run lets go of
    Pagefind's answer (the bundle in base64): 35 versions held 120 MB of the main process."""
    from tests.outputs.test_search_overlap import _versioned_site

    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    runs: list[pagefind.PagefindRun] = []
    real_result = pagefind.PagefindRun.result

    def result(self, *args, **kwargs):
        runs.append(self)
        return real_result(self, *args, **kwargs)

    monkeypatch.setattr(pagefind.PagefindRun, "result", result)
    build(_versioned_site(make_site), tmp_path / "out", cache=False, workers=1)
    assert len(runs) == 3  # one run a version
    bundles = sorted((tmp_path / "out/pagefind").glob("v*"))
    assert len(bundles) == 3
    for folder in bundles:  # each bundle far larger than what its run may still hold
        assert sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) > 200_000
    for run in runs:
        assert _held_bytes(run) < 50_000
