"""One search index: `docsgen build` and `docsgen dev` index pages with the same class
(docsgen.outputs.site_search.SiteSearch), which feeds the Pagefind runs and hands the bundles to whatever stores
them (the build's output folder, dev's page store).

Checked two ways: every module of the package is parsed, and Pagefind runs are made only in docsgen/outputs, whose
SiteSearch both the build's engine and dev's background pass import; and a real build and a real dev pass are
seen indexing through it, dev's bundle served from its page store.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from docsgen.build import build
from docsgen.dev.incremental import DevSite
from docsgen.outputs.site_search import SiteSearch
from tests.outputs.test_search_overlap import _versioned_site
from tests.pipeline.test_build_cache import site_files
from tests.pipeline.test_one_pool import PACKAGE, _imports_of

OUTPUTS = "docsgen/outputs/"


def _names_pagefind_run(tree: ast.AST) -> bool:
    """Tell whether a module names PagefindRun (makes, imports or types one)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "PagefindRun":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "PagefindRun":
            return True
        if isinstance(node, ast.ImportFrom) and any(a.name == "PagefindRun" for a in node.names):
            return True
    return False


def test_only_the_outputs_run_pagefind_and_build_and_dev_import_one_search_index():
    outside = [
        path.relative_to(PACKAGE.parent).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.relative_to(PACKAGE.parent).as_posix().startswith(OUTPUTS)
        and _names_pagefind_run(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert outside == [], f"Pagefind runs are fed outside {OUTPUTS}: {outside}"
    build_side = _imports_of(PACKAGE / "engine" / "site_engine.py")
    dev_side = _imports_of(PACKAGE / "dev" / "background.py")
    assert ("docsgen.outputs", "SiteSearch") in build_side & dev_side
    assert not (PACKAGE / "dev" / "devsearch.py").exists()


def test_a_build_and_a_dev_pass_index_through_the_same_class(make_site, tmp_path, monkeypatch):
    made: list[tuple[bool | None, bool]] = []  # (cache, count) of each SiteSearch made
    fed: list[str] = []  # record URLs given one at a time (dev)
    real_init, real_add = SiteSearch.__init__, SiteSearch.add_record

    def init(self: SiteSearch, *args, **kwargs) -> None:
        made.append((kwargs.get("cache"), kwargs.get("count", True)))
        real_init(self, *args, **kwargs)

    def add_record(self: SiteSearch, folder: str, record) -> None:
        fed.append(record.url)
        real_add(self, folder, record)

    monkeypatch.setattr(SiteSearch, "__init__", init)
    monkeypatch.setattr(SiteSearch, "add_record", add_record)
    site = make_site(site_files(40))
    build(site, tmp_path / "out", workers=1, cache=False)
    assert made == [(False, True)], "the build indexed through SiteSearch"
    built = sorted(
        p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out" / "pagefind").rglob("*")
    )
    assert "pagefind/pagefind-entry.json" in built
    dev = DevSite(site, tmp_path / "dev", lazy=True, workers=1)
    try:
        dev.build()
        dev.render_claimed("p/page-39/index.html")  # asked for while the pass renders from the start
        assert dev.wait_rendered(120)
        assert made[1:] == [(False, False)], "dev's background pass indexed through SiteSearch"
        assert dev.background is not None and dev.background.search == "ready"
        urls = [url.rstrip("/") for url in fed]
        assert len(urls) == len(set(urls)) >= 40
        assert urls.index("/p/page-39") < urls.index("/p/page-38"), "records come in any order"
        entry = dev.files["pagefind/pagefind-entry.json"]
        assert isinstance(entry, Path) and entry.is_relative_to(dev.store.root)
        fragments = sorted(path for path in dev.files if path.startswith("pagefind/fragment/"))
        assert fragments == [p for p in built if p.startswith("pagefind/fragment/")]  # the same pages indexed
    finally:
        dev.close()


def test_dev_serves_a_split_index_as_the_build_writes_it(make_site, tmp_path):
    """A site with versions gets a bundle per version in dev too, from the page store, with the build's listing."""
    site = _versioned_site(make_site)
    build(site, tmp_path / "out", workers=1, cache=False)
    listing = (tmp_path / "out" / "pagefind" / "indexes.json").read_bytes()
    dev = DevSite(site, tmp_path / "dev", lazy=True, workers=1)
    try:
        dev.build()
        assert dev.wait_rendered(120)
        assert dev.background is not None and dev.background.search == "ready"
        served_listing = dev.files["pagefind/indexes.json"]
        assert isinstance(served_listing, Path) and served_listing.read_bytes() == listing
        folders = json.loads(listing)
        assert len(folders) == 3
        for version in folders:
            entry = dev.files[f"pagefind/{version}/pagefind-entry.json"]
            assert isinstance(entry, Path) and entry.is_relative_to(dev.store.root)
            built = tmp_path / "out" / "pagefind" / version / "fragment"
            fragments = {p.name for p in built.iterdir()}
            served = {
                p.rpartition("/")[2] for p in dev.files if p.startswith(f"pagefind/{version}/fragment/")
            }
            assert served == fragments  # the same pages in each version's bundle
    finally:
        dev.close()
