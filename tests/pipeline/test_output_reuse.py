"""Output reuse: a rebuild keeps the previous files of pages whose every input is unchanged (hard links), renders
the rest, and its output is always the same as a build from nothing."""

from __future__ import annotations

import pytest

from docsgen.build import build
from tests.pipeline.test_build_cache import site_files, snapshot


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))


def inodes(out) -> dict[str, int]:
    """Return the inode of each page's HTML and twin (a kept file keeps its inode)."""
    return {
        p.relative_to(out).as_posix(): p.stat().st_ino for p in out.rglob("*") if p.suffix in (".html", ".md")
    }


def fresh(site, tmp_path, name: str) -> dict[str, bytes]:
    """Build the site from nothing (no cache, another folder) and return its files."""
    out = tmp_path / name
    build(site, out, cache=False, workers=1)
    return snapshot(out)


PAGES = [f"p/page-{n}/index.html" for n in range(6)] + [f"p/page-{n}.md" for n in range(6)]


def test_unchanged_pages_keep_their_files_and_the_output_equals_a_fresh_build(make_site, tmp_path):
    site = make_site(site_files(6))
    out = tmp_path / "out"
    build(site, out, cache=True, workers=1)
    before = inodes(out)
    build(site, out, cache=True, workers=1)
    after = inodes(out)
    assert all(after[rel] == before[rel] for rel in PAGES), "nothing changed: every page's files are kept"
    assert snapshot(out) == fresh(site, tmp_path, "fresh-1")

    # a page's body changes: that page (and its twin) is rendered, the others are kept
    page = site / "p" / "page-3.mdx"
    page.write_text(page.read_text() + "\nA new okapi paragraph.\n")
    build(site, out, cache=True, workers=1)
    changed = inodes(out)
    assert changed["p/page-3/index.html"] != after["p/page-3/index.html"]
    assert changed["p/page-3.md"] != after["p/page-3.md"]
    assert all(changed[rel] == after[rel] for rel in PAGES if "page-3" not in rel)
    assert "okapi" in (out / "p" / "page-3" / "index.html").read_text()
    assert snapshot(out) == fresh(site, tmp_path, "fresh-2")


def test_a_title_change_renders_every_page_again(make_site, tmp_path):
    # a title shows in other pages (navigation, previous/next links): nothing can be kept
    site = make_site(site_files(6))
    out = tmp_path / "out"
    build(site, out, cache=True, workers=1)
    before = inodes(out)
    page = site / "p" / "page-2.mdx"
    page.write_text(page.read_text().replace("title: Page 2", "title: Renamed page"))
    build(site, out, cache=True, workers=1)
    after = inodes(out)
    assert all(after[rel] != before[rel] for rel in PAGES)
    assert "Renamed page" in (out / "p" / "page-1" / "index.html").read_text()  # page 1's "next" link
    assert snapshot(out) == fresh(site, tmp_path, "fresh")


def test_a_file_changed_by_hand_or_another_folder_is_not_reused(make_site, tmp_path):
    site = make_site(site_files(6))
    out = tmp_path / "out"
    build(site, out, cache=True, workers=1)
    edited = out / "p" / "page-4" / "index.html"
    edited.write_text(edited.read_text() + "<!-- edited by hand -->")
    before = inodes(out)
    build(site, out, cache=True, workers=1)
    assert inodes(out)["p/page-4/index.html"] != before["p/page-4/index.html"]
    assert "edited by hand" not in edited.read_text()
    other = tmp_path / "other"
    build(site, other, cache=True, workers=1)  # the manifest names the folder it describes
    assert snapshot(other) == snapshot(out) == fresh(site, tmp_path, "fresh")


def test_parallel_rebuild_with_reuse_equals_a_fresh_build(make_site, tmp_path):
    from tests.pipeline.test_build_cache import PAGES as MANY

    site = make_site(site_files(MANY))
    out = tmp_path / "out"
    build(site, out, cache=True, workers=2)
    page = site / "p" / "page-7.mdx"
    page.write_text(page.read_text() + "\nAnother okapi.\n")
    build(site, out, cache=True, workers=2)
    assert snapshot(out) == fresh(site, tmp_path, "fresh")


def test_a_shown_date_that_changed_without_the_text_renders_the_page_again(make_site, tmp_path, monkeypatch):
    import json
    import os

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    files = site_files(3)
    config = json.loads(files["docs.json"])
    config["metadata"] = {"timestamp": True}  # pages show their last change (git, else the file's time)
    files["docs.json"] = json.dumps(config)
    site = make_site(files)
    page = site / "p" / "page-1.mdx"
    os.utime(page, (1_600_000_000, 1_600_000_000))  # 2020-09-13
    out = tmp_path / "out"
    build(site, out, cache=True, workers=1)
    assert "2020" in (out / "p" / "page-1" / "index.html").read_text()
    os.utime(page, (1_700_000_000, 1_700_000_000))  # 2023-11-14: same text, another date
    build(site, out, cache=True, workers=1)
    html = (out / "p" / "page-1" / "index.html").read_text()
    assert "2023" in html and "2020" not in html
    assert snapshot(out) == fresh(site, tmp_path, "fresh")


def test_llms_full_is_kept_only_when_every_page_was(make_site, tmp_path):
    site = make_site(site_files(6))
    out = tmp_path / "out"
    build(site, out, cache=True, workers=1)
    first = (out / "llms-full.txt").stat()
    build(site, out, cache=True, workers=1)
    kept = (out / "llms-full.txt").stat()
    assert kept.st_ino == first.st_ino, (
        "nothing changed: the previous llms-full.txt is linked, not made again"
    )
    page = site / "p" / "page-1.mdx"
    page.write_text(page.read_text() + "\nA new pangolin paragraph.\n")
    build(site, out, cache=True, workers=1)
    assert (out / "llms-full.txt").stat().st_ino != kept.st_ino
    assert "pangolin" in (out / "llms-full.txt").read_text()
    (out / "llms-full.txt").write_text("edited by hand")  # not as the build wrote it: made again
    build(site, out, cache=True, workers=1)
    assert "pangolin" in (out / "llms-full.txt").read_text()
    assert snapshot(out) == fresh(site, tmp_path, "fresh")


def test_sidebars_are_kept_while_the_site_is_unchanged(make_site, tmp_path):
    site = make_site(site_files(6))
    out = tmp_path / "out"
    build(site, out, cache=True, workers=1)
    [sidebar] = list((out / "_nav").glob("*.html"))
    first = sidebar.stat().st_ino
    build(site, out, cache=True, workers=1)
    assert sidebar.stat().st_ino == first, "the same site: the previous sidebar is linked, not rendered"
    src = (out / "p" / "page-2" / "index.html").read_text()
    assert f"_nav/{sidebar.name}?v=" in src
    page = site / "p" / "page-3.mdx"  # a title shows in the sidebar: it is rendered again
    page.write_text(page.read_text().replace("title: Page 3", "title: Okapi page"))
    build(site, out, cache=True, workers=1)
    assert sidebar.stat().st_ino != first and "Okapi page" in sidebar.read_text()
    assert snapshot(out) == fresh(site, tmp_path, "fresh")
