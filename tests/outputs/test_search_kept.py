"""A rebuild into the same folder links the search bundle of a version whose pages were all kept, takes kept pages'
records from the last build (no page body is read again), and its index is always the one a build from nothing
makes."""

from __future__ import annotations

import shutil

import pytest

import docsgen.outputs.pagefind as pagefind
from docsgen.build import build
from docsgen.engine.cache import PageCache
from tests.conftest import FIXTURES
from tests.outputs.test_search_reuse import bundle


@pytest.fixture
def docs(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("DOCSGEN_CACHE", raising=False)
    target = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site-features", target)
    return target


@pytest.fixture
def work(monkeypatch):
    """Count Pagefind runs (records each got) and page bodies read back from the page cache."""
    seen: dict[str, list[int]] = {"runs": [], "bodies": []}

    class Spy(pagefind.PagefindRun):
        def __init__(self, records=None, binary=None):
            records = list(records) if records is not None else None
            seen["runs"].append(len(records or ()))
            super().__init__(records, binary)

    real = PageCache.restore_body

    def restore_body(self, restored):
        seen["bodies"].append(1)
        return real(self, restored)

    monkeypatch.setattr(pagefind, "PagefindRun", Spy)
    monkeypatch.setattr(PageCache, "restore_body", restore_body)
    return seen


def inodes(out) -> dict[str, int]:
    """Return the inode of each file of the bundles (pagefind/<version>/...; a linked file keeps its inode)."""
    root = out / "pagefind"
    return {p.relative_to(root).as_posix(): p.stat().st_ino for p in root.glob("*/**/*") if p.is_file()}


def folders(out) -> list[str]:
    return sorted(
        p.name for p in (out / "pagefind").iterdir() if p.is_dir() and (p / "pagefind-entry.json").exists()
    )


def fresh(docs, tmp_path, name: str) -> dict[str, bytes]:
    out = tmp_path / name
    build(docs, out, cache=False, workers=1)
    return bundle(out)


def test_an_unchanged_rebuild_links_every_bundle_and_reads_no_body(docs, tmp_path, work):
    out = tmp_path / "out"
    build(docs, out, workers=1)
    before, work["runs"][:], work["bodies"][:] = inodes(out), [], []
    assert len(folders(out)) == 2  # one bundle per version
    result = build(docs, out, workers=1)
    assert work["runs"] == [] and work["bodies"] == []  # no Pagefind, no page body read back
    after = inodes(out)
    assert after == before, "every file of both bundles is the previous build's file"
    assert not [d for d in result.diagnostics if d.code.startswith("search.")]
    assert bundle(out) == fresh(docs, tmp_path, "fresh")


def test_a_changed_page_remakes_its_version_only_from_kept_records(docs, tmp_path, work):
    out = tmp_path / "out"
    build(docs, out, workers=1)
    before = inodes(out)
    page = docs / "quickstart.mdx"  # in v2; v1's bundle does not change
    page.write_text(page.read_text() + "\n\nA newly added okapi paragraph.\n")
    work["runs"][:], work["bodies"][:] = [], []
    build(docs, out, workers=1)
    assert work["runs"] == [5], "only v2's bundle is made again, from all of its records"
    assert work["bodies"] == [], "the kept pages' records come from the last build: no body read back"
    after = inodes(out)
    kept = {rel for rel in after if after[rel] == before.get(rel)}
    changed_folders = {rel.split("/")[0] for rel in after if rel not in kept and "/" in rel}
    assert len(changed_folders) == 1, changed_folders
    assert any(rel.split("/")[0] not in changed_folders for rel in kept if "/" in rel)  # v1 linked
    assert bundle(out) == fresh(docs, tmp_path, "fresh")


def test_a_bundle_file_changed_by_hand_is_made_again(docs, tmp_path, work):
    out = tmp_path / "out"
    build(docs, out, workers=1)
    entry = next((out / "pagefind").glob("*/pagefind-entry.json"))
    entry.write_text(entry.read_text() + " ")
    build(docs, out, workers=1)
    assert bundle(out) == fresh(docs, tmp_path, "fresh")


def test_records_gone_from_the_cache_mean_nothing_is_kept(docs, tmp_path, work):
    out = tmp_path / "out"
    build(docs, out, workers=1)
    records = sorted((tmp_path / "cache").rglob("search-records-*.jsonl"))
    assert len(records) == 2
    records[0].unlink()
    work["runs"][:] = []
    result = build(docs, out, workers=1)
    assert not [d for d in result.diagnostics if d.code.startswith("search.")]
    assert bundle(out) == fresh(docs, tmp_path, "fresh")


def test_a_damaged_records_file_is_a_warning_not_a_wrong_index(docs, tmp_path, work):
    out = tmp_path / "out"
    build(docs, out, workers=1)
    for path in (tmp_path / "cache").rglob("search-records-*.jsonl"):
        path.write_text("")  # there, but without the records
    page = docs / "quickstart.mdx"
    page.write_text(page.read_text() + "\n\nA newly added okapi paragraph.\n")
    result = build(docs, out, workers=1)
    (warning,) = [d for d in result.diagnostics if d.code == "search.record-missing"]
    assert "not in the search index" in warning.message and warning.path.endswith(".mdx")
    assert "--no-cache" in warning.hint
    build(docs, out, workers=1, cache=False)  # what the warning says to do: the whole index again
    assert bundle(out) == fresh(docs, tmp_path, "fresh")


def test_a_cache_folder_that_cannot_be_written_changes_nothing_but_speed(docs, tmp_path, monkeypatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(blocked))
    out = tmp_path / "out"
    first = build(docs, out, workers=1)
    second = build(docs, out, workers=1)
    assert not [d for d in first.diagnostics + second.diagnostics if d.code.startswith("search.")]
    assert len(folders(out)) == 2 and bundle(out) == fresh(docs, tmp_path, "fresh")
