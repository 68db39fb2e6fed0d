"""Search overlap: Pagefind starts before the other site features run and is collected after them."""

from __future__ import annotations

import json
import time

import docsgen.outputs as outputs
import docsgen.outputs.pagefind as pagefind
import docsgen.outputs.search as search
from docsgen.build import build, render_site
from docsgen.engine.write import OutputFolder
from docsgen.outputs.site_search import SiteSearch
from docsgen.render import site_context
from docsgen.site.read import read_site
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
        assert files.files[rel].read() == entry.read_bytes()  # type: ignore[union-attr]


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


def _versioned_site(make_site, versions: int = 3, pages: int = 25):
    entries, files = [], {}
    for v in range(1, versions + 1):
        keys = [f"v{v}/page-{n}" for n in range(pages)]
        entries.append({"version": f"v{v}", "groups": [{"group": "Docs", "pages": keys}]})
        files.update(
            {
                f"{key}.mdx": f"---\ntitle: {key}\n---\n\nWords of {key} about topic{v}x{n}.\n"
                for n, key in enumerate(keys)
            }
        )
    files["docs.json"] = json.dumps(
        {"theme": "mint", "name": "V", "colors": {"primary": "#112233"}, "navigation": {"versions": entries}}
    )
    return make_site(files)


def test_a_version_indexed_while_pages_render_is_written_then(make_site, tmp_path, monkeypatch):
    """A bundle Pagefind finishes while later versions still render goes to the output folder at once (its bytes
    are not held to the end), and the index is the same as one collected at the end."""
    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    docs = _versioned_site(make_site)
    rendered, early = [0], []
    real_write_now = OutputFolder.write_now

    def write_now(self, files, rel, data, owner):
        early.append((rel, rendered[0]))
        return real_write_now(self, files, rel, data, owner)

    def slow(stage, done, total):  # a page's worth of time, so Pagefind finishes a version meanwhile
        rendered[0] = done
        time.sleep(0.01)

    monkeypatch.setattr(OutputFolder, "write_now", write_now)
    build(docs, tmp_path / "early", workers=1, progress=slow)
    total = rendered[0]
    written_early = {rel.split("/")[1] for rel, done in early if done < total}
    assert {"v1", "v2"} <= {name.split("-")[0] for name in written_early}  # written before the last page
    monkeypatch.setattr(SiteSearch, "_write_ready", lambda self: None)  # every bundle collected at the end
    build(docs, tmp_path / "late", workers=1)
    early_files = sorted(
        p.relative_to(tmp_path / "early") for p in (tmp_path / "early" / "pagefind").rglob("*")
    )
    late_files = sorted(p.relative_to(tmp_path / "late") for p in (tmp_path / "late" / "pagefind").rglob("*"))
    assert early_files == late_files and len(early_files) > 20
    for rel in early_files:
        if (tmp_path / "early" / rel).is_file():
            assert (tmp_path / "early" / rel).read_bytes() == (tmp_path / "late" / rel).read_bytes(), rel
