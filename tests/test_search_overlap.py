"""Search overlap: Pagefind starts before the other site features run and is collected after them."""

from __future__ import annotations

import docsgen.features as features
import docsgen.pagefind as pagefind
import docsgen.search as search
from docsgen.build import build, read_site, render_site, site_context
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
    monkeypatch.setattr(features, "add_seo_files", feature("seo", features.add_seo_files))
    monkeypatch.setattr(features, "add_agent_files", feature("agents", features.add_agent_files))
    build(FIXTURES / "site-features", tmp_path / "out")
    assert events == ["pagefind started", "seo", "agents", "collected"]
    assert (tmp_path / "out" / "pagefind" / "pagefind-entry.json").is_file()


def test_an_index_started_earlier_is_the_one_collected(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    started = []
    real_run = pagefind.PagefindRun
    monkeypatch.setattr(
        pagefind, "PagefindRun", lambda records, binary=None: started.append(1) or real_run(records)
    )
    site = read_site(FIXTURES / "site-features")
    files = render_site(site)
    assert started == [1]
    ctx = site_context(site)
    early = search.start_search_index(ctx, site)
    extra = type(files)()
    features.add_site_features(ctx, site, extra, search=early)
    assert started == [1, 1]
    assert {p for p in extra.files if p.startswith("pagefind/")} == {
        p for p in files.files if p.startswith("pagefind/")
    }
    assert extra.files["pagefind/pagefind-entry.json"] == files.files["pagefind/pagefind-entry.json"]


def test_collect_returns_site_paths_and_a_second_build_is_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("DOCSGEN_CACHE", "0")  # the build itself stores nothing; cache=True below overrides
    site = read_site(FIXTURES / "site-features")
    render_site(site, cache=False)
    ctx = site_context(site)
    first = search.start_search_index(ctx, site, cache=True)
    diagnostics: list = []
    bundle = first.collect(diagnostics)
    assert not first.reused and not diagnostics
    assert "pagefind/pagefind-entry.json" in bundle and all(p.startswith("pagefind/") for p in bundle)
    second = search.start_search_index(ctx, site, cache=True)
    assert second.reused and second.collect(diagnostics) == bundle
    assert not search.start_search_index(ctx, site, cache=False).reused
