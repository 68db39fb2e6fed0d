"""Search bundle reuse and failure: an unchanged site skips Pagefind, a changed page runs it, no Pagefind warns."""

from __future__ import annotations

import gzip
import shutil

import pytest

import docsgen.outputs.pagefind as pagefind
import docsgen.outputs.search as search
from docsgen.build import build
from tests.conftest import FIXTURES


def bundle(out) -> dict[str, bytes]:
    """Return {relative path: bytes} of a built site's search bundle."""
    root = out / "pagefind"
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def runs(monkeypatch, tmp_path):
    """Count Pagefind runs; keep the cache in the test's own folder."""
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("DOCSGEN_CACHE", raising=False)
    started: list[int] = []  # records each Pagefind run got (given at start or added while pages render)

    class Spy(pagefind.PagefindRun):
        def __init__(self, records=None, binary=None):
            records = list(records) if records is not None else None
            self.run_number = len(started)
            started.append(len(records or ()))
            super().__init__(records, binary)

        def add(self, record):
            started[self.run_number] += 1
            super().add(record)

    monkeypatch.setattr(pagefind, "PagefindRun", Spy)
    return started


@pytest.fixture
def docs(tmp_path):
    target = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site-features", target)
    return target


def test_identical_build_reuses_the_bundle_and_a_changed_page_reindexes(docs, tmp_path, runs):
    build(docs, tmp_path / "one")
    assert sorted(runs) == [1, 5]  # one run per version
    build(docs, tmp_path / "two")
    assert sorted(runs) == [1, 5], "an unchanged site must not run Pagefind again"
    first, second = bundle(tmp_path / "one"), bundle(tmp_path / "two")
    assert first and first == second
    page = docs / "quickstart.mdx"
    page.write_text(page.read_text() + "\n\nA newly added okapi paragraph.\n")
    build(docs, tmp_path / "three")
    assert sorted(runs[2:]) == [5], "only the bundle of the changed page's version is made again"
    third = bundle(tmp_path / "three")
    assert third != first
    assert any(b"okapi" in gzip.decompress(data) for rel, data in third.items() if "/fragment/" in rel)


def test_cache_off_runs_pagefind_every_time(docs, tmp_path, runs, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    build(docs, tmp_path / "one")
    build(docs, tmp_path / "two")
    assert sorted(runs) == [1, 1, 5, 5]
    assert bundle(tmp_path / "one") == bundle(tmp_path / "two")


def test_cache_enabled_mirrors_the_page_cache_rule(monkeypatch):
    monkeypatch.delenv("DOCSGEN_CACHE", raising=False)
    assert search.cache_enabled(None) and search.cache_enabled(True) and not search.cache_enabled(False)
    for off in ("0", "off", "False", " no "):
        monkeypatch.setenv("DOCSGEN_CACHE", off)
        assert not search.cache_enabled(None) and search.cache_enabled(True)
    monkeypatch.setenv("DOCSGEN_CACHE", "1")
    assert search.cache_enabled(None)


def test_damaged_cache_is_ignored(docs, tmp_path, runs):
    build(docs, tmp_path / "one")
    paths = sorted((tmp_path / "cache").rglob("search-bundle*.bin"), key=lambda p: p.stat().st_size)
    assert len(paths) == 2  # one per version
    paths[-1].write_bytes(paths[-1].read_bytes()[:-10])  # the bigger one (v1, 5 pages) is damaged
    build(docs, tmp_path / "two")
    assert sorted(runs) == [1, 5, 5], "the damaged bundle is made again, the intact one reused"
    assert bundle(tmp_path / "one") == bundle(tmp_path / "two")


def test_missing_pagefind_only_warns(docs, tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    monkeypatch.setenv("PAGEFIND_BINARY", str(tmp_path / "no-such-pagefind"))
    result = build(docs, tmp_path / "out")
    warnings = [d for d in result.diagnostics if d.code == "search.index"]
    assert len(warnings) == 1 and "could not be built" in warnings[0].message
    assert (tmp_path / "out" / "index.html").is_file() and not (tmp_path / "out" / "pagefind").exists()


def test_failing_pagefind_only_warns(docs, tmp_path, monkeypatch):
    fake = tmp_path / "fake-pagefind"
    fake.write_text("#!/bin/sh\necho 'pagefind exploded' >&2\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    monkeypatch.setenv("PAGEFIND_BINARY", str(fake))
    result = build(docs, tmp_path / "out")
    (warning,) = [d for d in result.diagnostics if d.code == "search.index"]
    assert "pagefind exploded" in warning.message


def hanging_pagefind(tmp_path):
    fake = tmp_path / "slow-pagefind"
    fake.write_text("#!/bin/sh\nexec sleep 30\n")
    fake.chmod(0o755)
    return str(fake)


def test_a_hanging_pagefind_times_out_with_a_reason(tmp_path):
    record = search.SearchRecord("/a/", "en", '<html lang="en"><body><main><h1>A</h1></main></body></html>')
    run = pagefind.PagefindRun([record], hanging_pagefind(tmp_path))
    with pytest.raises(RuntimeError, match="longer than 0.3 s"):
        run.result(timeout=0.3)
    assert run._proc.poll() is not None


def test_cancel_stops_the_pagefind_process(tmp_path):
    record = search.SearchRecord("/a/", "en", '<html lang="en"><body><main><h1>A</h1></main></body></html>')
    run = pagefind.PagefindRun([record], hanging_pagefind(tmp_path))
    search.PendingIndex(run).cancel()
    assert run._proc.poll() is not None
