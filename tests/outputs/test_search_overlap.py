"""Search overlap: Pagefind starts before the other site features run and is collected after them."""

from __future__ import annotations

import docsgen.outputs as outputs
import docsgen.outputs.pagefind as pagefind
import docsgen.outputs.search as search
from docsgen.build import build, render_site
from docsgen.render import site_context
from docsgen.site import read_site
from tests.conftest import FIXTURES


def test_pagefind_runs_while_the_other_features_are_added(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    events: list[str] = []
    real_run, real_add_to = pagefind.PagefindRun, search.PendingIndex.add_to

    def run(records, binary=None):
        events.append("pagefind started")
        return real_run(records, binary)

    def add_to(self, files):
        events.append("collected")
        real_add_to(self, files)

    def feature(name, real):
        def spy(*args, **kwargs):
            events.append(name)
            return real(*args, **kwargs)

        return spy

    monkeypatch.setattr(pagefind, "PagefindRun", run)
    monkeypatch.setattr(search.PendingIndex, "add_to", add_to)
    monkeypatch.setattr(outputs, "add_seo_files", feature("seo", outputs.add_seo_files))
    monkeypatch.setattr(outputs, "add_agent_files", feature("agents", outputs.add_agent_files))
    build(FIXTURES / "site-features", tmp_path / "out")
    # one run per version (v1 and v2), both started while pages rendered, before the other features
    assert events == ["pagefind started", "pagefind started", "seo", "agents", "collected"]
    assert len(list((tmp_path / "out" / "pagefind").glob("*/pagefind-entry.json"))) == 2


def test_the_index_fed_while_pages_render_equals_one_made_from_every_record(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    started = []
    real_run = pagefind.PagefindRun
    monkeypatch.setattr(
        pagefind, "PagefindRun", lambda records, binary=None: started.append(records) or real_run(records)
    )
    build(FIXTURES / "site-features", tmp_path / "out")
    assert started == [
        None,
        None,
    ]  # a cold build: Pagefind (one per version) started empty, fed as pages rendered
    site = read_site(FIXTURES / "site-features")
    files = render_site(site)
    assert not any(p.startswith("pagefind/") for p in files.files)  # render_site leaves search out
    search.start_search_index(site_context(site), site).add_to(files)
    assert len(started) == 4 and started[2] and started[3]  # this time from every record at once
    built = {p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out" / "pagefind").rglob("*")}
    assert {p for p in files.files if p.startswith("pagefind/")} == {
        p for p in built if "." in p.rsplit("/")[-1]
    }
    for entry in (tmp_path / "out" / "pagefind").glob("*/pagefind-entry.json"):
        rel = entry.relative_to(tmp_path / "out").as_posix()
        assert files.files[rel] == entry.read_bytes()


def test_collect_returns_site_paths_and_a_second_build_is_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("DOCSGEN_CACHE", "0")  # the build itself stores nothing; cache=True below overrides
    site = read_site(FIXTURES / "site-features")
    render_site(site)
    ctx = site_context(site)
    first = search.start_search_index(ctx, site, cache=True)
    diagnostics: list = []
    bundle = first.collect(diagnostics)
    assert not first.reused and not diagnostics
    entries = [p for p in bundle if p.endswith("/pagefind-entry.json")]
    assert len(entries) == 2 and all(p.startswith("pagefind/") for p in bundle)
    second = search.start_search_index(ctx, site, cache=True)
    assert second.reused and second.collect(diagnostics) == bundle
    assert not search.start_search_index(ctx, site, cache=False).reused
