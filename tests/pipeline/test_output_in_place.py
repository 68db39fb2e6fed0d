"""A rebuild that keeps the previous build's files updates the output folder in place (docsgen.engine.output_update):
kept files stay where they are, new ones are moved in, the rest is deleted; the result is always what a build
from nothing makes, and nothing is ever written through a link planted in the output folder."""

from __future__ import annotations

import os

import pytest

from docsgen.build import build
from docsgen.common.errors import DocsgenError
from docsgen.engine.output_update import update_in_place
from tests.pipeline.test_build_cache import site_files, snapshot


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))


def fresh(site, tmp_path, name: str) -> dict[str, bytes]:
    out = tmp_path / name
    build(site, out, cache=False, workers=1)
    return snapshot(out)


def inode(path) -> int:
    return os.lstat(path).st_ino


def test_a_rebuild_updates_the_folder_in_place_and_equals_a_fresh_build(make_site, tmp_path):
    site = make_site(site_files(6))
    out = tmp_path / "out"
    build(site, out, workers=1)  # no previous build: written aside, then swapped into place
    build(site, out, workers=1)  # nothing changed: every page kept, the folder itself too
    folder = inode(out)
    page_2, page_3 = inode(out / "p/page-2/index.html"), inode(out / "p/page-3/index.html")
    (out / "left-by-hand.txt").write_text("not an output")
    (out / "stale" / "deeper").mkdir(parents=True)
    (out / "stale" / "deeper" / "old.html").write_text("<p>old</p>")
    page = site / "p" / "page-3.mdx"
    page.write_text(page.read_text() + "\nA new okapi paragraph.\n")

    build(site, out, workers=1)

    assert inode(out) == folder, "the output folder is updated, not replaced"
    assert inode(out / "p/page-2/index.html") == page_2, "an unchanged page's file is left where it was"
    assert (
        inode(out / "p/page-3/index.html") != page_3 and "okapi" in (out / "p/page-3/index.html").read_text()
    )
    assert not (out / "left-by-hand.txt").exists() and not (out / "stale").exists()
    assert snapshot(out) == fresh(site, tmp_path, "fresh")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out")) == []  # no temporary left


def test_links_planted_in_the_output_are_replaced_never_written_through(make_site, tmp_path):
    site = make_site(site_files(6))
    out = tmp_path / "out"
    build(site, out, workers=1)
    build(site, out, workers=1)
    outside = tmp_path / "outside"
    # a page's folder turned into a link to a folder elsewhere holding the same files (same sizes)
    (outside / "page-2").mkdir(parents=True)
    for name in os.listdir(out / "p/page-2"):
        (outside / "page-2" / name).write_bytes((out / "p/page-2" / name).read_bytes())
    for name in os.listdir(out / "p/page-2"):
        os.unlink(out / "p/page-2" / name)
    os.rmdir(out / "p/page-2")
    os.symlink(outside / "page-2", out / "p/page-2")
    # a page's HTML turned into a link to a file elsewhere with the same bytes
    (outside / "page-4.html").write_bytes((out / "p/page-4/index.html").read_bytes())
    os.unlink(out / "p/page-4/index.html")
    os.symlink(outside / "page-4.html", out / "p/page-4/index.html")
    before = snapshot(outside)
    page = site / "p" / "page-2.mdx"
    page.write_text(page.read_text() + "\nA changed paragraph.\n")  # its new HTML goes where the link was

    build(site, out, workers=1)

    assert snapshot(outside) == before, "nothing was written outside the output folder"
    for path in (out / "p/page-2", out / "p/page-4/index.html"):
        assert not path.is_symlink()
    assert "A changed paragraph." in (out / "p/page-2/index.html").read_text()
    assert snapshot(out) == fresh(site, tmp_path, "fresh")


def test_a_failed_rebuild_leaves_the_output_as_it_was(make_site, tmp_path):
    site = make_site(site_files(6))
    out = tmp_path / "out"
    build(site, out, workers=1)
    build(site, out, workers=1)
    before = snapshot(out)
    page = site / "p" / "page-1.mdx"
    page.write_text(page.read_text() + "\nChanged text.\n")
    with pytest.raises(DocsgenError):
        build(site, out, workers=1, strict=True)  # index.mdx's broken link is an error under --strict
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out")) == []
    build(site, out, workers=1)
    assert "Changed text." in (out / "p/page-1/index.html").read_text()
    assert snapshot(out) == fresh(site, tmp_path, "fresh")


def test_update_in_place_moves_new_files_in_and_deletes_the_rest(tmp_path):
    new, out = tmp_path / "new", tmp_path / "out"
    for rel, text in {
        "a/index.html": "new a",
        "b": "b is a file now",
        "c/d/e.txt": "under c",
        "kept.txt": "x",
    }.items():
        (new / rel).parent.mkdir(parents=True, exist_ok=True)
        (new / rel).write_text(text)
    (out / "b" / "old").mkdir(parents=True)  # a folder where a file now goes
    (out / "b" / "old" / "f.html").write_text("old")
    (out / "c").write_text("a file where a folder now goes")
    (out / "a").mkdir()
    (out / "a" / "index.html").write_text("old a")
    (out / "same.txt").write_text("kept where it is")
    (out / "gone" / "deep").mkdir(parents=True)
    (out / "gone" / "deep" / "x.html").write_text("not an output any more")
    outputs = {"a/index.html", "b", "c/d/e.txt", "kept.txt", "same.txt"}

    update_in_place(str(new), str(out), outputs)

    assert snapshot(out) == {
        "a/index.html": b"new a",
        "b": b"b is a file now",
        "c/d/e.txt": b"under c",
        "kept.txt": b"x",
        "same.txt": b"kept where it is",
    }
    assert not (out / "gone").exists()
    assert not list(new.rglob("*.*")), "every new file was moved, none copied"
