"""A build does not hold what it has written: page HTML and twins are released once written and read back where
a later file needs them (llms-full.txt), so memory does not grow with the size of the pages."""

from __future__ import annotations

import dataclasses
import gc

import pytest

from docsgen.build import build
from docsgen.engine import pool, rendering
from docsgen.engine.rendering import Job, render_pages
from docsgen.engine.write import OutputFolder, PageWriter, SiteFiles, Streamed
from docsgen.outputs import add_before_pages
from docsgen.render import site_context
from docsgen.site.read import read_site
from tests.pipeline.test_build_cache import site_files


def test_written_pages_keep_only_what_later_stages_read(make_site, tmp_path):
    site = read_site(make_site(site_files(6)))
    ctx, files, pages = site_context(site), SiteFiles(), site.pages_to_render()
    add_before_pages(ctx, site, pages, files)
    seen: dict[str, int] = {}

    def take(done, results):
        seen.update({page.key: one.record for page, one in zip(done, results, strict=True)})

    with OutputFolder(tmp_path / "out") as folder:
        job = Job(ctx, pages, write=PageWriter(folder, files), index=lambda page, body: len(body.html))
        rendering = render_pages(job, workers=1, release=True, on_rendered=take)
    assert seen and all(size > 0 for size in seen.values()), "records are made from each page's whole body"
    for one, ledger, page in zip(rendering.renders, rendering.ledgers, pages, strict=True):
        assert ledger.written and ledger.twin_written and one.html is None and one.twin is None
        assert page.content is None and page.body == ""  # the page as read, but for its source text
        assert one.body.html == "" and one.body.toc == [] and one.body.markdown is None
    snippet_users = [one for one in rendering.renders if "snippets/note.mdx" in one.body.dependencies]
    assert snippet_users, "what later stages read (snippets used, assets) is kept"
    with pytest.raises(dataclasses.FrozenInstanceError):
        rendering.renders[0].html = "changed"  # type: ignore[misc]


@pytest.mark.parametrize("workers", [1, 2])
def test_written_pages_with_the_same_facts_share_one_set_of_each(make_site, tmp_path, workers):
    """Pages using the same snippets and assets hold one set of those names between them in the main process
    (not one copy a page, as they come back from the workers), with the very same names in it."""
    site = read_site(make_site(site_files(12)))
    ctx, files, pages = site_context(site), SiteFiles(), site.pages_to_render()
    add_before_pages(ctx, site, pages, files)
    with OutputFolder(tmp_path / "out") as folder:
        job = Job(ctx, pages, write=PageWriter(folder, files))
        renders = render_pages(job, workers=workers, release=True).renders
    same = [one.body for one in renders if one.key.startswith("p/")]
    assert len(same) == 12 and all(one.html is None for one in renders)
    assert same[0].dependencies == {"snippets/note.mdx"} and same[0].assets
    for kind in ("dependencies", "assets", "icons", "classes"):
        assert len({id(getattr(body, kind)) for body in same}) == 1, kind  # one set for the twelve pages
    home = next(one.body for one in renders if one.key == "index")
    assert home.dependencies == set() and "snippets/note.mdx" in same[0].dependencies  # each its own names


def test_the_main_process_hands_freed_memory_back_as_pages_are_fed(make_site, tmp_path, monkeypatch):
    """Every TRIM_EVERY pages taken in, the memory their records (and the bundles finished meanwhile) held is
    handed back to the system: the main process's footprint is not the high-water mark of a whole build."""
    site = read_site(make_site(site_files(12)))
    ctx, files, pages = site_context(site), SiteFiles(), site.pages_to_render()
    add_before_pages(ctx, site, pages, files)
    trims: list[int] = []
    fed: list[int] = []
    monkeypatch.setattr(rendering, "TRIM_EVERY", 4)
    monkeypatch.setattr(rendering, "release_memory", lambda: trims.append(len(fed)))
    with OutputFolder(tmp_path / "out") as folder:
        job = Job(ctx, pages, write=PageWriter(folder, files))
        render_pages(job, workers=1, release=True, on_rendered=lambda done, _: fed.extend(done))
    assert len(fed) == 13 and trims == [4, 8, 12]  # after the pages were fed, never before


def test_llms_full_reads_the_written_twins_back(make_site, tmp_path):
    docs = make_site(site_files(6))
    out = build(docs, tmp_path / "out", cache=False).out_dir
    full = (out / "llms-full.txt").read_text(encoding="utf-8")
    twins = sorted(out.joinpath("p").glob("page-*.md"))
    assert len(twins) == 6
    for twin in twins:
        first, _, rest = twin.read_text(encoding="utf-8").partition("\n")
        assert f"{first}\nSource: " in full and rest.strip()[:200] in full


def test_streamed_content_is_written_in_pieces(tmp_path):
    files = SiteFiles()
    calls = []

    def parts():
        calls.append(1)
        yield from ("one\n", "two\n")

    files.add("all.txt", Streamed(parts), "test")
    with OutputFolder(tmp_path / "out") as folder:
        folder.write(files)
        folder.commit()
    assert (tmp_path / "out" / "all.txt").read_text() == "one\ntwo\n" and calls == [1]


def test_large_sites_render_in_small_chunks_in_page_order(make_site, tmp_path, monkeypatch):
    """Results reach the main process a few pages at a time, in page order, from every worker."""
    monkeypatch.setattr(rendering, "CHUNK_PAGES", 4)
    monkeypatch.setattr(pool, "MIN_PAGES_PER_WORKER", 1)  # two processes for this small site
    assert [len(c) for c in rendering._chunks(30, 2)] == [4] * 7 + [
        2
    ]  # 30 // 16 = 1 -> at least 4, at most 4
    assert max(len(c) for c in rendering._chunks(100_000, 2)) == 4
    site = read_site(make_site(site_files(30)))
    ctx, files, pages = site_context(site), SiteFiles(), site.pages_to_render()
    add_before_pages(ctx, site, pages, files)
    batches: list[list[str]] = []
    with OutputFolder(tmp_path / "out") as folder:
        job = Job(ctx, pages, write=PageWriter(folder, files))
        result = render_pages(
            job, workers=2, on_rendered=lambda done, _: batches.append([p.key for p in done])
        )
        assert all(one.written for one in result.ledgers)
    assert [key for batch in batches for key in batch] == [page.key for page in pages]
    # the first page renders before the pool forks, then chunks of at most 4
    assert batches[0] == [pages[0].key] and {len(batch) for batch in batches[1:-1]} == {4}


def test_workers_collect_young_objects_less_often_and_the_heap_is_unfrozen_after(
    make_site, tmp_path, monkeypatch
):
    """Render workers raise the collector's first threshold (rendering makes millions of short-lived objects);
    the heap inherited from the main process is frozen while they live and unfrozen once they are gone."""
    import gc
    import os

    from docsgen.render import render_page

    monkeypatch.setattr(pool, "MIN_PAGES_PER_WORKER", 1)
    site = read_site(make_site(site_files(8)))
    ctx, pages = site_context(site), site.pages_to_render()
    seen = tmp_path / "seen"
    seen.mkdir()

    def render(*args, **kwargs):
        (seen / str(os.getpid())).write_text(f"{gc.get_threshold()[0]} {gc.get_freeze_count() > 0}")
        return render_page(*args, **kwargs)

    threshold = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    rendered = render_pages(Job(ctx, pages, render=render), workers=2).renders
    assert len(rendered) == len(pages) and all(r.html for r in rendered)
    workers = {p.name: p.read_text() for p in seen.iterdir() if p.name != str(os.getpid())}
    assert len(workers) == 2, "two worker processes rendered pages"
    assert set(workers.values()) == {f"{pool.WORKER_GC_THRESHOLD} True"}
    assert gc.get_threshold() == threshold and gc.get_freeze_count() == 0, "the main process is as it was"


def test_a_build_collects_young_objects_less_often_and_restores_the_collector(
    make_site, tmp_path, monkeypatch
):
    import docsgen.build

    site = make_site(site_files(4))
    during: list[int] = []
    real = docsgen.build.read_site

    def reading(*args, **kwargs):
        during.append(gc.get_threshold()[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(docsgen.build, "read_site", reading)
    before = gc.get_threshold()
    assert before[0] != pool.WORKER_GC_THRESHOLD
    build(site, tmp_path / "out", workers=1)
    assert during == [pool.WORKER_GC_THRESHOLD]
    assert gc.get_threshold() == before
    monkeypatch.setattr(docsgen.build, "read_site", lambda *a, **k: (_ for _ in ()).throw(OSError("disk")))
    with pytest.raises(OSError):
        build(site, tmp_path / "out", workers=1)
    assert gc.get_threshold() == before, "restored when the build fails too"
